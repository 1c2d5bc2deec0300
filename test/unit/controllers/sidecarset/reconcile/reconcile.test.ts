/**
 * The SidecarSet reconcile invocation against the recording API server and the in-memory stores: the ordered
 * writes of OpenKruise's `UpdateSidecarSet` (status first, then per chosen pod its update and its
 * `SidecarSetUpgradable` condition), a cluster-scoped key, and a deleted SidecarSet.
 */
import type { Pod } from '../../../../../lib/api/types.js';
import { silentLogger } from '../../../../../lib/core/logger.js';
import { mutateSidecarSet } from '../../../../../lib/controllers/sidecarset/api/mutation.js';
import { SIDECARSET_RESOURCE } from '../../../../../lib/controllers/sidecarset/api/resource.js';
import type { SidecarSet } from '../../../../../lib/controllers/sidecarset/api/types.js';
import {
  reconcileSidecarSet,
  type SidecarSetReconcileDeps,
} from '../../../../../lib/controllers/sidecarset/index.js';
import { injectSidecars } from '../../../../../lib/controllers/sidecarset/plan/inject.js';
import type { ReconcileRequest, RequeueScheduler } from '../../../../../lib/requests/index.js';
import { createMemoryStores } from '../../../../../lib/state/index.js';
import {
  RecordingKube,
  recordingStores,
  type Journal,
} from '../../cloneset/reconcile/support/recordingKube.js';

const T0 = Date.parse('2024-05-01T08:00:00Z');
const REQUEST: ReconcileRequest = {
  version: 2,
  cluster: 'test',
  kind: 'apps.kruise.io/SidecarSet',
  name: 'log',
  reason: 'ObjectChanged',
};

const stored = (image: string, generation: number): SidecarSet => {
  const s = mutateSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'log' },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'logger', image }] },
  });
  return { ...s, metadata: { ...s.metadata, generation, resourceVersion: '1' } };
};

function readyPod(name: string, at: SidecarSet): Pod {
  const pod = injectSidecars({
    pod: {
      metadata: { name, namespace: 'default', labels: { app: 'web' }, resourceVersion: '1' },
      spec: { containers: [{ name: 'main', image: 'nginx' }], nodeName: 'n1' },
    },
    namespaceLabels: {},
    sidecarSets: [at],
    now: new Date(T0),
  }).pod;
  return {
    ...pod,
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T07:00:00Z' }],
      containerStatuses: pod.spec.containers.map((c) => ({
        name: c.name,
        image: c.image ?? '',
        imageID: `sim.local/${c.image ?? ''}@sha256:1`,
        ready: true,
        restartCount: 0,
      })),
    },
  };
}

function setup() {
  const journal: Journal = [];
  const clock = { now: T0 };
  const kube = new RecordingKube(journal, () => new Date(clock.now));
  const recorded = recordingStores(createMemoryStores(), journal, { expectations: true });
  const requeue: RequeueScheduler = {
    async requeueAfter(_r, seconds) {
      journal.push(`requeue ${seconds}s`);
    },
  };
  const v1 = stored('fluentd:1', 1);
  for (const n of ['web-0', 'web-1']) kube.pods.set(n, readyPod(n, v1));
  const sets = kube.objects(SIDECARSET_RESOURCE);
  sets.set('log', stored('fluentd:2', 2));
  const deps = (): SidecarSetReconcileDeps => ({
    kube,
    ...recorded,
    requeue,
    log: silentLogger,
    holder: 'inv-1',
    clock: () => clock.now,
    sleep: async (ms) => {
      clock.now += ms;
    },
    deadlineMs: T0 + 600_000,
    leaseDurationMs: 120_000,
    maxInlineWaitSeconds: 10,
    maxPasses: 20,
  });
  return { journal, kube, sets, deps };
}

describe('reconcileSidecarSet', () => {
  test('status, then one pod (maxUnavailable 1) updated in place with its condition; the next pass waits', async () => {
    const h = setup();
    await reconcileSidecarSet(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'replace sidecarset status log',
      'replace pod web-0',
      'patch pod status web-0',
      // the kubelet has not restarted the sidecar: web-0 is updated and unavailable, so web-1 waits
      'replace sidecarset status log',
      'lease.release',
    ]);
    expect((h.sets.get('log') as unknown as SidecarSet).status).toEqual({
      observedGeneration: 2,
      matchedPods: 2,
      updatedPods: 1,
      readyPods: 1,
    });
    expect(h.kube.pods.get('web-0')?.spec.containers.map((c) => c.image)).toEqual(['fluentd:2', 'nginx']);
    expect(h.kube.pods.get('web-1')?.spec.containers.map((c) => c.image)).toEqual(['fluentd:1', 'nginx']);
  });

  test('a deleted SidecarSet: gone, nothing written', async () => {
    const h = setup();
    h.sets.delete('log');
    const outcome = await reconcileSidecarSet(h.deps(), REQUEST);
    expect(h.journal).toEqual(['lease.acquire', 'lease.release']);
    expect(outcome).toMatchObject({ result: 'gone', writes: 0 });
  });
});
