/**
 * The WorkloadSpread part of `/validate-pod` against OpenKruise v1.9.0's `HandlePodDeletion`: a deleted or evicted
 * pod is recorded in its subset's deletingPods before the answer, a dry run or a pod without the annotation records
 * nothing, and a failed write refuses with 400; and the target read of a Deployment without ReplicaSets.
 */
import type { Pod } from '../../../../lib/api/types.js';
import type {
  WorkloadSpread,
  WorkloadSpreadStatus,
} from '../../../../lib/controllers/workloadspread/api/types.js';
import {
  recordPodDeletion,
  type PodDeletionDeps,
} from '../../../../lib/controllers/workloadspread/podDeletion.js';
import { readTargets } from '../../../../lib/controllers/workloadspread/targets.js';
import { KubeApiError } from '../../../../lib/kube/errors.js';
import type { KubeClient } from '../../../../lib/kube/types.js';
import { pod, workloadSpread } from './fixtures.js';
import { reviewBody } from '../../support/admissionReview.js';

const NOW = new Date('2026-12-04T07:40:00.900Z');

function deps(ws: WorkloadSpread, writes: WorkloadSpreadStatus[], fail = false): PodDeletionDeps {
  return {
    listWorkloadSpreads: () => Promise.resolve([ws]),
    getWorkloadSpread: () => Promise.resolve(ws),
    getOwner: () => Promise.resolve(undefined),
    targetReplicas: () => Promise.resolve(3),
    updateStatus(w, status) {
      if (fail) return Promise.reject(new KubeApiError('update', 500, 'InternalError', 'etcd is down'));
      writes.push(status);
      return Promise.resolve({ ...w, status });
    },
    getPod: (_ns, name) => Promise.resolve(name === 'p1' ? pod('p1', 'zone-a') : undefined),
    now: () => NOW,
    sleep: () => Promise.resolve(),
  };
}

const review = (request: Record<string, unknown>) =>
  reviewBody({
    uid: 'u',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    namespace: 'ns',
    ...request,
  });

const del = (p: Pod, extra: Record<string, unknown> = {}) =>
  review({ operation: 'DELETE', name: p.metadata.name, oldObject: p, ...extra });

const placedStatus: WorkloadSpreadStatus = {
  versionedSubsetStatuses: {
    versionIgnored: [
      { name: 'zone-a', replicas: 2, missingReplicas: 0 },
      { name: 'zone-b', replicas: 0, missingReplicas: -1 },
    ],
  },
};

describe('recordPodDeletion', () => {
  it('records a deleted pod of zone-a in deletingPods and lets the request go on', async () => {
    const writes: WorkloadSpreadStatus[] = [];
    const ws = workloadSpread({ status: placedStatus });
    expect(await recordPodDeletion(del(pod('p1', 'zone-a')), deps(ws, writes))).toBeUndefined();
    expect(writes).toEqual([
      {
        versionedSubsetStatuses: {
          versionIgnored: [
            { name: 'zone-a', replicas: 2, missingReplicas: 1, deletingPods: { p1: '2026-12-04T07:40:00Z' } },
            { name: 'zone-b', replicas: 0, missingReplicas: -1 },
          ],
        },
      },
    ]);
  });

  it('records an eviction of the pod read by name', async () => {
    const writes: WorkloadSpreadStatus[] = [];
    const body = review({ operation: 'CREATE', subResource: 'eviction', name: 'p1', object: {} });
    expect(
      await recordPodDeletion(body, deps(workloadSpread({ status: placedStatus }), writes)),
    ).toBeUndefined();
    expect(writes[0]?.versionedSubsetStatuses?.versionIgnored?.[0]?.deletingPods).toEqual({
      p1: '2026-12-04T07:40:00Z',
    });
  });

  it('a dry run and a pod without the annotation record nothing', async () => {
    const writes: WorkloadSpreadStatus[] = [];
    const d = deps(workloadSpread({ status: placedStatus }), writes);
    expect(await recordPodDeletion(del(pod('p1', 'zone-a'), { dryRun: true }), d)).toBeUndefined();
    expect(await recordPodDeletion(del(pod('p2')), d)).toBeUndefined();
    expect(writes).toEqual([]);
  });

  it('a failed write refuses with 400 and the API server’s message', async () => {
    const answer = await recordPodDeletion(
      del(pod('p1', 'zone-a')),
      deps(workloadSpread({ status: placedStatus }), [], true),
    );
    expect(answer?.review.response).toEqual({
      uid: 'u',
      allowed: false,
      status: { code: 400, message: 'etcd is down' },
    });
  });
});

describe('readTargets', () => {
  it('a Deployment without ReplicaSets (no Deployment controller has run) has no pods and the version versionIgnored', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'dep', namespace: 'ns', uid: 'd' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'dep' } } },
    };
    const kube = {
      get: () => Promise.resolve(deployment),
      list: () => Promise.resolve({ items: [], resourceVersion: '1' }),
    } as unknown as Pick<KubeClient, 'get' | 'list'>;
    const ws = workloadSpread();
    ws.spec.targetRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'dep' };
    expect(await readTargets(kube, ws)).toEqual({
      pods: [],
      replicas: 3,
      latestVersion: 'versionIgnored',
      kind: 'Deployment',
      nodes: new Map(),
    });
  });
});
