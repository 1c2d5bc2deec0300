/**
 * The bench's check of a reused control plane: after `npm run demo`, infra/local's kube-controller-manager runs
 * only its default controllers, every Deployment run of the bench failed on it, and the bench now refuses it with
 * one line. The command lines are infra/local's (cluster.ts `kcmControllers`) with and without
 * `KRUISELESS_KCM_CONTROLLERS`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import {
  checkControllers,
  ControlPlaneRefusedError,
  controllersFlag,
  DEPLOYMENT_CONTROLLERS,
  missingControllers,
  runningKcmArgs,
} from '../../../bench/support/controllers.js';

const common = ['--kubeconfig=/s/kubeconfig', '--bind-address=127.0.0.1', '--leader-elect=false'];
const demo = [...common, '--controllers=garbage-collector-controller,namespace-controller'];
const bench = [
  ...common,
  '--controllers=garbage-collector-controller,namespace-controller,deployment-controller,replicaset-controller',
];

describe('missingControllers', () => {
  it("names the Deployment controllers a demo's control plane lacks", () => {
    expect(missingControllers(demo, DEPLOYMENT_CONTROLLERS)).toEqual([
      'deployment-controller',
      'replicaset-controller',
    ]);
  });
  it("is empty for the bench's own control plane", () => {
    expect(missingControllers(bench, DEPLOYMENT_CONTROLLERS)).toEqual([]);
  });
  it('follows kube-controller-manager: * for the defaults, -name off, short names, first match wins', () => {
    expect(missingControllers(common, DEPLOYMENT_CONTROLLERS)).toEqual([]); // no flag: '*'
    expect(
      missingControllers([...common, '--controllers=*,-deployment-controller'], DEPLOYMENT_CONTROLLERS),
    ).toEqual(['deployment-controller']);
    expect(missingControllers(['--controllers', 'deployment,replicaset'], DEPLOYMENT_CONTROLLERS)).toEqual(
      [],
    );
    expect(missingControllers(['--controllers=deployment,-deployment,*'], ['deployment-controller'])).toEqual(
      [],
    );
  });
});

describe('controllersFlag', () => {
  it('takes the last --controllers, in either form', () => {
    expect(controllersFlag(['--controllers=a', '--controllers', 'b,c'])).toEqual(['b', 'c']);
    expect(controllersFlag([])).toEqual(['*']);
  });
});

describe('checkControllers', () => {
  it('refuses with one line naming the folder, what is missing and the way out', () => {
    let error: unknown;
    try {
      checkControllers('/repo/.kruiseless', demo, DEPLOYMENT_CONTROLLERS);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ControlPlaneRefusedError);
    const line = (error as Error).message;
    expect(line).not.toContain('\n');
    expect(line).toContain('/repo/.kruiseless');
    expect(line).toContain('without deployment-controller, replicaset-controller');
    expect(line).toContain('npm run cluster:down');
  });
  it('accepts a control plane that runs them', () => {
    expect(() => checkControllers('/repo/.kruiseless', bench, DEPLOYMENT_CONTROLLERS)).not.toThrow();
  });
});

describe('runningKcmArgs', () => {
  it("reads the recorded process's command line", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-kcm-'));
    mkdirSync(path.join(dir, 'run'));
    const child = spawn('sleep', ['30', '31']);
    try {
      writeFileSync(path.join(dir, 'run', 'kube-controller-manager.pid'), JSON.stringify({ pid: child.pid }));
      expect(runningKcmArgs(dir)).toEqual(['30', '31']);
    } finally {
      child.kill();
    }
  });
  it('is undefined without a pid file', () => {
    expect(runningKcmArgs(mkdtempSync(path.join(os.tmpdir(), 'bench-kcm-')))).toBeUndefined();
  });
});
