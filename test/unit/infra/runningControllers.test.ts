/**
 * What a running control plane's kube-controller-manager runs (infra/local/cluster.ts `runningControllers`): the
 * `--controllers` list recorded in `run/cluster.json` at start, else the live process's command line. The bench
 * refuses a reused control plane by it (after `npm run demo` every Deployment run of the bench failed).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { controllersOf, runningControllers } from '../../../infra/local/cluster.js';
import { startProcess, stopFromPidFile } from '../../../infra/local/processes.js';

const pidFiles: string[] = [];
afterEach(async () => {
  for (const f of pidFiles.splice(0)) await stopFromPidFile(f, 1000);
});

/** A state folder with a live stand-in for kube-controller-manager started as `cmd args`. */
function stateWithKcm(cmd: string, args: string[], clusterJson?: unknown): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kcm-controllers-'));
  mkdirSync(path.join(dir, 'run'));
  const pidFile = path.join(dir, 'run', 'kube-controller-manager.pid');
  startProcess({ name: 'kube-controller-manager', cmd, args, logFile: path.join(dir, 'kcm.log'), pidFile });
  pidFiles.push(pidFile);
  if (clusterJson !== undefined)
    writeFileSync(path.join(dir, 'run', 'cluster.json'), JSON.stringify(clusterJson));
  return dir;
}

const DEMO = ['garbage-collector-controller', 'namespace-controller'];

describe('runningControllers', () => {
  it('reads the list run/cluster.json recorded at start', () => {
    const dir = stateWithKcm('sleep', ['30'], { server: 'https://127.0.0.1:1', controllers: DEMO });
    expect(runningControllers(dir)).toEqual(['garbage-collector-controller', 'namespace-controller']);
  });
  it("reads the process's command line for a cluster.json without the record (a cluster started before it)", () => {
    const dir = stateWithKcm(
      'sh',
      [
        '-c',
        'sleep 30; :',
        'kube-controller-manager',
        '--leader-elect=false',
        `--controllers=${DEMO.join(',')}`,
      ],
      { server: 'https://127.0.0.1:1' },
    );
    expect(runningControllers(dir)).toEqual(['garbage-collector-controller', 'namespace-controller']);
  });
  it('is undefined when the recorded kube-controller-manager no longer runs (a stale cluster.json)', async () => {
    const dir = stateWithKcm('sleep', ['30'], { controllers: DEMO });
    await stopFromPidFile(path.join(dir, 'run', 'kube-controller-manager.pid'), 1000);
    expect(runningControllers(dir)).toBeUndefined();
  });
  it('is undefined without a pid file', () => {
    expect(runningControllers(mkdtempSync(path.join(os.tmpdir(), 'kcm-controllers-')))).toBeUndefined();
  });
});

describe('controllersOf', () => {
  it('takes the last --controllers, in either form; * without one', () => {
    expect(controllersOf(['--controllers=a', '--controllers', 'b,c'])).toEqual(['b', 'c']);
    expect(controllersOf(['--leader-elect=false'])).toEqual(['*']);
  });
});
