/**
 * The parity snapshot's pod conditions (test/parity/snapshot.ts `podConditions`): kube-scheduler's `PodScheduled`
 * is read from the binding once a pod is bound, so a stale failure write on a bound pod (a bind whose answer timed
 * out on a loaded machine) is not a controller difference; an unbound pod keeps the condition as written.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterState } from '../../parity/cluster.js';
import { statefulSet } from '../../parity/kinds/statefulset/index.js';
import { takeSnapshot } from '../../parity/snapshot.js';

const pod = (name: string, nodeName: string | undefined, scheduled: 'True' | 'False'): V1Pod => ({
  metadata: { name, uid: name, labels: { 'statefulset.kubernetes.io/pod-name': name } },
  spec: { containers: [{ name: 'main', image: 'nginx' }], ...(nodeName ? { nodeName } : {}) },
  status: {
    phase: nodeName ? 'Running' : 'Pending',
    conditions: [
      { type: 'Ready', status: nodeName ? 'True' : 'False' },
      { type: 'PodScheduled', status: scheduled },
    ],
  },
});

const snapshot = (pods: V1Pod[]) => {
  const state: ClusterState = {
    object: { metadata: { name: 'db', generation: 1 }, spec: {}, status: {} },
    pods,
    pvcs: [],
    revisions: [],
    imagePullJobs: [],
    events: [],
  };
  return takeSnapshot(statefulSet, state, new Set(), { maxPods: 0, minReady: 0 }, true);
};

test('a bound pod with a stale PodScheduled=False shows as scheduled, and sorts as its twin does', () => {
  const stale = snapshot([pod('db-0', 'kwok-node-0', 'True'), pod('db-1', 'kwok-node-1', 'False')]);
  const clean = snapshot([pod('db-0', 'kwok-node-0', 'True'), pod('db-1', 'kwok-node-1', 'True')]);
  expect(stale.pods).toEqual(clean.pods);
  expect(stale.pods.map((p) => p.conditions)).toEqual([
    ['PodScheduled=True', 'Ready=True'],
    ['PodScheduled=True', 'Ready=True'],
  ]);
});

test('an unbound pod keeps PodScheduled=False', () => {
  const snap = snapshot([pod('db-0', undefined, 'False')]);
  expect(snap.pods.map((p) => p.conditions)).toEqual([['PodScheduled=False', 'Ready=False']]);
});
