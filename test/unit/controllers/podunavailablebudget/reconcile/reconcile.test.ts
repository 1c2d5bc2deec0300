/**
 * The PodUnavailableBudget reconcile invocation against the recording API server: OpenKruise's
 * `syncPodUnavailableBudget` writes in order (related-pub annotations on unmarked pods → the status through the
 * status subresource), the conflict retry, the requeue when a webhook record runs out, and the pod map.
 */
import { silentLogger } from '../../../../../lib/core/logger.js';
import type { Pod } from '../../../../../lib/api/types.js';
import {
  reconcilePodUnavailableBudget,
  type PubReconcileDeps,
} from '../../../../../lib/controllers/podunavailablebudget/index.js';
import {
  PUB_RESOURCE,
  PUB_WORKLOAD_RESOURCES,
} from '../../../../../lib/controllers/podunavailablebudget/api/resource.js';
import type { PodUnavailableBudget } from '../../../../../lib/controllers/podunavailablebudget/api/types.js';
import { pubsForPod } from '../../../../../lib/controllers/podunavailablebudget/podWatch.js';
import type { MapReads } from '../../../../../lib/source/watchSpec.js';
import { RESOURCES } from '../../../../../lib/kube/resources.js';
import {
  requeueDueMs,
  type ReconcileRequest,
  type RequeueScheduler,
} from '../../../../../lib/requests/index.js';
import { createMemoryStores } from '../../../../../lib/state/index.js';
import {
  RecordingKube,
  conflict,
  recordingStores,
  type Journal,
} from '../../cloneset/reconcile/support/recordingKube.js';

const REQUEST: ReconcileRequest = {
  version: 2,
  cluster: 'test',
  kind: 'policy.kruise.io/PodUnavailableBudget',
  namespace: 'default',
  name: 'web-pub',
  reason: 'Requeue',
};

function pod(i: number, opts: { ready?: boolean; marked?: boolean } = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `web-${i}`,
      namespace: 'default',
      uid: `pod-uid-${i}`,
      resourceVersion: '1',
      labels: { app: 'web' },
      ...(opts.marked
        ? { annotations: { 'pub.kruise.io/related-pub': 'web-pub', 'kruise.io/related-pub': 'web-pub' } }
        : {}),
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'web',
          uid: 'cs-uid',
          controller: true,
        },
      ],
    },
    spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  };
}

function setup(now: string, pub: Partial<PodUnavailableBudget>, pods: Pod[], replicas = 5) {
  const journal: Journal = [];
  const clock = { now: Date.parse(now) };
  const kube = new RecordingKube(journal, () => new Date(clock.now));
  const recorded = recordingStores(createMemoryStores(), journal, {});
  const requeue: RequeueScheduler = {
    async requeueAfter(_r, seconds, fromMs) {
      journal.push(`requeue at ${new Date(requeueDueMs(clock.now, seconds, fromMs)).toISOString()}`);
    },
  };
  kube.objects(PUB_RESOURCE).set('web-pub', {
    apiVersion: 'policy.kruise.io/v1beta1',
    kind: 'PodUnavailableBudget',
    metadata: { name: 'web-pub', namespace: 'default', uid: 'pub-uid', generation: 1, resourceVersion: '3' },
    spec: {
      targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' },
      maxUnavailable: 1,
    },
    ...pub,
  });
  kube.objects(PUB_WORKLOAD_RESOURCES.CloneSet).set('web', {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: 'default', uid: 'cs-uid', resourceVersion: '2' },
    spec: { replicas, selector: { matchLabels: { app: 'web' } } },
  });
  for (const p of pods) kube.objects(RESOURCES.pods).set(p.metadata.name ?? '', p);
  const deps = (): PubReconcileDeps => ({
    kube,
    ...recorded,
    requeue,
    log: silentLogger,
    holder: 'inv-1',
    clock: () => clock.now,
    sleep: async (ms) => {
      clock.now += ms;
    },
    deadlineMs: clock.now + 600_000,
    leaseDurationMs: 120_000,
    maxInlineWaitSeconds: 10,
    maxPasses: 20,
  });
  const stored = () => kube.objects(PUB_RESOURCE).get('web-pub') as PodUnavailableBudget;
  return { journal, kube, deps, stored };
}

describe('reconcilePodUnavailableBudget', () => {
  test('a targetRef to a kind the cluster does not serve is a failed pass, backed off; never thrown', async () => {
    const h = setup(
      '2026-12-06T08:00:00Z',
      {
        spec: {
          targetRef: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'web' },
          maxUnavailable: 1,
        },
      },
      [pod(0)],
    );
    // discovery serves the group version without the kind (its CRD not installed); no scale is ever read
    Object.assign(h.kube, { serverResources: async () => [], getScale: async () => undefined });
    const out = await reconcilePodUnavailableBudget(h.deps(), REQUEST);
    expect(out).toMatchObject({
      result: 'reconciled',
      writes: 0,
      failures: 1,
      error: 'no resource of kind Rollout is served in argoproj.io/v1alpha1',
    });
    expect(h.journal.filter((j) => j.startsWith('requeue'))).toHaveLength(1);
    expect(h.stored().status).toBeUndefined();
  });

  test('targetRef CloneSet of 5, maxUnavailable 1: unmarked pods are marked, then the status', async () => {
    const h = setup('2026-12-04T03:00:00Z', {}, [
      pod(0, { marked: true }),
      pod(1),
      pod(2),
      pod(3),
      pod(4, { ready: false }),
    ]);
    await reconcilePodUnavailableBudget(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'patch pod web-1',
      'patch pod web-2',
      'patch pod web-3',
      'patch pod web-4',
      'replace podunavailablebudget status web-pub',
      'lease.release',
    ]);
    expect(h.stored().status).toEqual({
      observedGeneration: 1,
      unavailableAllowed: 0,
      currentAvailable: 4,
      desiredAvailable: 4,
      totalReplicas: 5,
    });
    expect(h.kube.objects(RESOURCES.pods).get('web-3')?.metadata.annotations).toEqual({
      'pub.kruise.io/related-pub': 'web-pub',
      'kruise.io/related-pub': 'web-pub',
    });
  });

  test('a disrupted pod stays recorded until its 20 s run out, and the pass looks again then', async () => {
    const status = {
      observedGeneration: 1,
      disruptedPods: { 'web-0': '2026-12-04T02:59:55Z' },
      unavailableAllowed: 0,
      currentAvailable: 4,
      desiredAvailable: 4,
      totalReplicas: 5,
    };
    const pods = [0, 1, 2, 3, 4].map((i) => pod(i, { marked: true }));
    const h = setup('2026-12-04T03:00:00Z', { status }, pods);
    await reconcilePodUnavailableBudget(h.deps(), REQUEST);
    expect(h.journal).toEqual(['lease.acquire', 'requeue at 2026-12-04T03:00:15.001Z', 'lease.release']);
    expect(h.stored().status).toEqual(status);
  });

  test('a conflict on the status re-reads the PUB and writes again', async () => {
    const h = setup(
      '2026-12-04T03:00:00Z',
      {},
      [0, 1, 2].map((i) => pod(i, { marked: true })),
      3,
    );
    let failed = false;
    h.kube.failOn((call) => {
      if (failed || !call.startsWith('replace podunavailablebudget')) return undefined;
      failed = true;
      return conflict(call);
    });
    await reconcilePodUnavailableBudget(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'replace podunavailablebudget status web-pub',
      'replace podunavailablebudget status web-pub',
      'lease.release',
    ]);
    expect(h.stored().status).toEqual({
      observedGeneration: 1,
      unavailableAllowed: 1,
      currentAvailable: 3,
      desiredAvailable: 2,
      totalReplicas: 3,
    });
  });

  test('a CloneSet at 0 replicas: no pods, NoPods, a zero status', async () => {
    const h = setup('2026-12-04T03:00:00Z', {}, [pod(0)], 0);
    await reconcilePodUnavailableBudget(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'event NoPods: No matching pods found',
      'replace podunavailablebudget status web-pub',
      'lease.release',
    ]);
    expect(h.stored().status).toEqual({
      observedGeneration: 1,
      unavailableAllowed: 0,
      currentAvailable: 0,
      desiredAvailable: 0,
      totalReplicas: 0,
    });
  });

  test('selector: expected replicas are the pods’ CloneSet’s', async () => {
    const h = setup(
      '2026-12-04T03:00:00Z',
      { spec: { selector: { matchLabels: { app: 'web' } }, minAvailable: '50%' } },
      [0, 1, 2].map((i) => pod(i, { marked: true })),
      4,
    );
    await reconcilePodUnavailableBudget(h.deps(), REQUEST);
    expect(h.stored().status).toEqual({
      observedGeneration: 1,
      unavailableAllowed: 1,
      currentAvailable: 3,
      desiredAvailable: 2,
      totalReplicas: 4,
    });
  });
});

describe('pubsForPod', () => {
  const reads = (pubs: PodUnavailableBudget[]): MapReads => ({
    cluster: 'test',
    kube: {
      get: () => Promise.resolve(undefined),
      list: () => Promise.resolve({ items: pubs, resourceVersion: '1' }),
    } as unknown as MapReads['kube'],
  });
  const pub = (name: string, spec: PodUnavailableBudget['spec']): PodUnavailableBudget => ({
    metadata: { name, namespace: 'default' },
    spec,
  });

  test('a marked pod names its PUB with no read; a deleted one nothing', async () => {
    const noReads = {
      cluster: 'test',
      kube: {
        get: () => Promise.reject(new Error('no read')),
        list: () => Promise.reject(new Error('no read')),
      },
    };
    expect(await pubsForPod(pod(0, { marked: true }) as never, noReads, 'MODIFIED')).toEqual([
      { namespace: 'default', name: 'web-pub' },
    ]);
    expect(await pubsForPod(pod(0, { marked: true }) as never, noReads, 'DELETED')).toEqual([]);
    expect(await pubsForPod(pod(0) as never, noReads, 'MODIFIED')).toEqual([]);
  });

  test('a new unmarked pod names the first PUB whose selector matches it (an empty selector matches nothing)', async () => {
    const pubs = [
      pub('empty', { selector: {} }),
      pub('other', { selector: { matchLabels: { app: 'db' } } }),
      pub('web', { selector: { matchLabels: { app: 'web' } } }),
    ];
    expect(await pubsForPod(pod(0) as never, reads(pubs), 'ADDED')).toEqual([
      { namespace: 'default', name: 'web' },
    ]);
  });
});
