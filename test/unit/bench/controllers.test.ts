/**
 * The bench's check of a reused control plane: after `npm run demo`, infra/local's kube-controller-manager runs
 * only its default controllers, every Deployment run of the bench failed on it, and the bench now refuses it with
 * one line. The lists are infra/local's `--controllers` (cluster.ts `kcmControllers`) with and without
 * `KRUISELESS_KCM_CONTROLLERS`; what a running one runs is cluster.ts `runningControllers`'s
 * (test/unit/infra/runningControllers.test.ts).
 */
import { describe, expect, it } from '@jest/globals';
import {
  checkControllers,
  controllersFor,
  ControlPlaneRefusedError,
  DAEMONSET_CONTROLLERS,
  DEPLOYMENT_CONTROLLERS,
  missingControllers,
  STATEFULSET_CONTROLLERS,
} from '../../../bench/support/controllers.js';

const demo = ['garbage-collector-controller', 'namespace-controller'];
const bench = [...demo, 'deployment-controller', 'replicaset-controller'];

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
    expect(missingControllers(['*'], DEPLOYMENT_CONTROLLERS)).toEqual([]); // no flag: '*'
    expect(missingControllers(['*', '-deployment-controller'], DEPLOYMENT_CONTROLLERS)).toEqual([
      'deployment-controller',
    ]);
    expect(missingControllers(['deployment', 'replicaset'], DEPLOYMENT_CONTROLLERS)).toEqual([]);
    expect(missingControllers(['deployment', '-deployment', '*'], ['deployment-controller'])).toEqual([]);
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
    expect((error as Error).message).toBe(
      'bench: the running control plane in /repo/.kruiseless (started by `npm run demo` or `cluster:up`?) runs ' +
        'kube-controller-manager without deployment-controller, replicaset-controller, which the Deployment runs ' +
        'need; stop it with `npm run cluster:down` and run the bench again (it then starts its own with them, and ' +
        'stops it after)',
    );
  });
  it('accepts a control plane that runs them', () => {
    expect(() => checkControllers('/repo/.kruiseless', bench, DEPLOYMENT_CONTROLLERS)).not.toThrow();
  });
});

describe('the Advanced StatefulSet part', () => {
  it('needs the StatefulSet controller, the CloneSet part the Deployment controllers, the other parts none', () => {
    expect(controllersFor(new Set(['asts']))).toEqual(['statefulset-controller']);
    expect(controllersFor(new Set(['rollout', 'asts']))).toEqual([
      'deployment-controller',
      'replicaset-controller',
      'statefulset-controller',
    ]);
    expect(controllersFor(new Set(['noop', 'fleet']))).toEqual([]);
    expect(missingControllers(['*'], STATEFULSET_CONTROLLERS)).toEqual([]); // on by default
  });
  it("refuses a control plane without it, naming the StatefulSet runs (the CloneSet part's control plane)", () => {
    expect(() =>
      checkControllers('/repo/.kruiseless', bench, controllersFor(new Set(['rollout', 'asts']))),
    ).toThrow(
      'runs kube-controller-manager without statefulset-controller, which the StatefulSet runs need;',
    );
    expect(() =>
      checkControllers('/repo/.kruiseless', demo, controllersFor(new Set(['rollout', 'asts']))),
    ).toThrow(
      'without deployment-controller, replicaset-controller, statefulset-controller, which the Deployment and ' +
        'StatefulSet runs need;',
    );
  });
});

describe('the Advanced DaemonSet part', () => {
  it("needs kube-controller-manager's DaemonSet controller, on by default", () => {
    expect(controllersFor(new Set(['ads']))).toEqual(['daemonset-controller']);
    expect(controllersFor(new Set(['asts', 'ads']))).toEqual([
      'statefulset-controller',
      'daemonset-controller',
    ]);
    expect(missingControllers(['*'], DAEMONSET_CONTROLLERS)).toEqual([]);
    expect(missingControllers(['daemonset'], DAEMONSET_CONTROLLERS)).toEqual([]);
  });
  it('refuses a control plane without it, naming the DaemonSet runs', () => {
    expect(() => checkControllers('/repo/.kruiseless', bench, controllersFor(new Set(['ads'])))).toThrow(
      'runs kube-controller-manager without daemonset-controller, which the DaemonSet runs need;',
    );
    expect(() =>
      checkControllers('/repo/.kruiseless', demo, controllersFor(new Set(['rollout', 'ads']))),
    ).toThrow(
      'without deployment-controller, replicaset-controller, daemonset-controller, which the Deployment and ' +
        'DaemonSet runs need;',
    );
    expect(() =>
      checkControllers(
        '/repo/.kruiseless',
        [...bench, 'daemonset-controller'],
        controllersFor(new Set(['ads'])),
      ),
    ).not.toThrow();
  });
});
