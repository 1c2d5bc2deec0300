/**
 * The SidecarSet reconcile invocation against the recording API server and the in-memory stores: the ordered
 * writes of OpenKruise's `UpdateSidecarSet` (its ControllerRevision first — `registerLatestRevision` — then status,
 * then per chosen pod its update and its `SidecarSetUpgradable` condition), a cluster-scoped key, a roll back, the
 * history limit, a name collision, a failed revision write, a deleted SidecarSet, and a hot upgrade's two pod writes
 * (the upgrade, then the reset of the older container with its Event on the pod).
 */
import type { ControllerRevision, Pod } from '../../../../../lib/api/types.js';
import { silentLogger } from '../../../../../lib/core/logger.js';
import { mutateSidecarSet } from '../../../../../lib/controllers/sidecarset/api/mutation.js';
import { SIDECARSET_RESOURCE } from '../../../../../lib/controllers/sidecarset/api/resource.js';
import type { SidecarSet } from '../../../../../lib/controllers/sidecarset/api/types.js';
import {
  reconcileSidecarSet,
  type SidecarSetReconcileDeps,
} from '../../../../../lib/controllers/sidecarset/index.js';
import { injectSidecars } from '../../../../../lib/controllers/sidecarset/plan/inject.js';
import { newSidecarSetRevision } from '../../../../../lib/controllers/sidecarset/plan/revision.js';
import { parseHashAnnotation } from '../../../../../lib/controllers/sidecarset/plan/annotations.js';
import type { ReconcileRequest, RequeueScheduler } from '../../../../../lib/requests/index.js';
import { createMemoryStores } from '../../../../../lib/state/index.js';
import {
  conflict,
  internalError,
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

const stored = (image: string, generation: number, revisionHistoryLimit?: number): SidecarSet => {
  const s = mutateSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'log', uid: 'uid-log' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'logger', image }],
      ...(revisionHistoryLimit !== undefined ? { revisionHistoryLimit } : {}),
    },
  });
  return { ...s, metadata: { ...s.metadata, generation, resourceVersion: '1' } };
};

/** Names OpenKruise v1.9.0 gives these specs' revisions (../plan/golden/revisions.openkruise.jsonl). */
const V1 = 'log-9c7dddd9c';
const V2 = 'log-5b7b58d5bb';

/** The revision of `image`'s spec as a previous pass stored it. */
function storedRevision(image: string, revision: number): ControllerRevision {
  const r = newSidecarSetRevision(stored(image, 1), revision, 0);
  return {
    ...r,
    metadata: { ...r.metadata, creationTimestamp: `2024-05-01T0${revision}:00:00Z`, resourceVersion: '1' },
  };
}

/** The `controllerRevision` of the pod's `log` hash entry. */
const podRevision = (pod: Pod | undefined): string | undefined =>
  parseHashAnnotation(
    'kruise.io/sidecarset-hash',
    pod?.metadata.annotations?.['kruise.io/sidecarset-hash'],
  ).get('log')?.controllerRevision;

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
  test('revision, status, then one pod (maxUnavailable 1) updated in place with its condition; the next pass waits', async () => {
    const h = setup();
    await reconcileSidecarSet(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      `create controllerrevision ${V2}`,
      'replace sidecarset status log',
      'replace pod web-0',
      'patch pod status web-0',
      // the kubelet has not restarted the sidecar: web-0 is updated and unavailable, so web-1 waits; the revision
      // is the newest and is reused
      'replace sidecarset status log',
      'lease.release',
    ]);
    expect((h.sets.get('log') as unknown as SidecarSet).status).toEqual({
      observedGeneration: 2,
      matchedPods: 2,
      updatedPods: 1,
      readyPods: 1,
      latestRevision: V2,
      collisionCount: 0,
    });
    const revision = h.kube.revisions.get(V2);
    expect(revision?.metadata.namespace).toBe('kruise-system');
    expect(revision?.revision).toBe(1);
    expect(revision?.metadata.labels).toEqual({
      'controller.kubernetes.io/hash': '5b7b58d5bb',
      'kruise.io/sidecarset-name': 'log',
    });
    expect(podRevision(h.kube.pods.get('web-0'))).toBe(V2);
    expect(podRevision(h.kube.pods.get('web-1'))).toBeUndefined();
    expect(h.kube.pods.get('web-0')?.spec.containers.map((c) => c.image)).toEqual(['fluentd:2', 'nginx']);
    expect(h.kube.pods.get('web-1')?.spec.containers.map((c) => c.image)).toEqual(['fluentd:1', 'nginx']);
  });

  test('back to an earlier spec: its revision is renumbered (no new one), the status names it', async () => {
    const h = setup();
    h.sets.set('log', stored('fluentd:1', 3));
    h.kube.revisions.set(V1, storedRevision('fluentd:1', 1));
    h.kube.revisions.set(V2, storedRevision('fluentd:2', 2));
    await reconcileSidecarSet(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      `replace controllerrevision ${V1}`,
      'replace sidecarset status log',
      'lease.release',
    ]);
    expect(h.kube.revisions.get(V1)?.revision).toBe(3);
    expect((h.sets.get('log') as unknown as SidecarSet).status).toMatchObject({
      latestRevision: V1,
      collisionCount: 0,
      updatedPods: 2,
    });
  });

  test('revisionHistoryLimit 1: the older revision no pod names is deleted after the new one is created', async () => {
    const h = setup();
    h.sets.set('log', stored('fluentd:2', 2, 1));
    h.kube.revisions.set(V1, storedRevision('fluentd:1', 1));
    await reconcileSidecarSet(h.deps(), REQUEST);
    expect(h.journal.slice(0, 4)).toEqual([
      'lease.acquire',
      `create controllerrevision ${V2}`,
      `delete controllerrevision ${V1}`,
      'replace sidecarset status log',
    ]);
    expect([...h.kube.revisions.keys()]).toEqual([V2]);
  });

  test('a name taken by other data: the collision count goes up, the name moves, the status records the count', async () => {
    const h = setup();
    const squatter = storedRevision('fluentd:9', 1);
    // not labelled with the SidecarSet's name, so not listed as its history
    h.kube.revisions.set(V2, { ...squatter, metadata: { ...squatter.metadata, name: V2, labels: {} } });
    await reconcileSidecarSet(h.deps(), REQUEST);
    expect(h.journal.slice(0, 4)).toEqual([
      'lease.acquire',
      `create controllerrevision ${V2}`,
      'create controllerrevision log-5b7b58d5bc',
      'replace sidecarset status log',
    ]);
    expect(h.kube.revisions.get('log-5b7b58d5bc')?.metadata.labels?.['controller.kubernetes.io/hash']).toBe(
      '5b7b58d5bb',
    );
    expect((h.sets.get('log') as unknown as SidecarSet).status).toMatchObject({
      latestRevision: 'log-5b7b58d5bc',
      collisionCount: 1,
    });
  });

  test('a failed revision create: no status and no pod is written, the pass reports the error', async () => {
    const h = setup();
    h.kube.failOn((call) => (call.startsWith('create controllerrevision') ? internalError(call) : undefined));
    const outcome = await reconcileSidecarSet(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      `create controllerrevision ${V2}`,
      'requeue 1s',
      'lease.release (failures 1)',
    ]);
    expect((h.sets.get('log') as unknown as SidecarSet).status).toBeUndefined();
    expect(outcome).toMatchObject({
      writes: 0,
      failures: 1,
      error: `create controllerrevision ${V2}: 500 InternalError: etcd is unavailable`,
    });
  });

  test('a deleted SidecarSet: gone, nothing written', async () => {
    const h = setup();
    h.sets.delete('log');
    const outcome = await reconcileSidecarSet(h.deps(), REQUEST);
    expect(h.journal).toEqual(['lease.acquire', 'lease.release']);
    expect(outcome).toMatchObject({ result: 'gone', writes: 0 });
  });

  describe('hot upgrade', () => {
    const hot = (image: string, generation: number): SidecarSet => {
      const s = mutateSidecarSet({
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'SidecarSet',
        metadata: { name: 'log', uid: 'uid-log' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          containers: [
            {
              name: 'proxy',
              image,
              upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'busybox:empty' },
            },
          ],
        },
      });
      return { ...s, metadata: { ...s.metadata, generation, resourceVersion: String(10 * generation) } };
    };
    /** The pod as the kubelet then reports it: every container running its spec image (a new imageID each). */
    const restarted = (pod: Pod): Pod => ({
      ...pod,
      status: {
        ...pod.status,
        containerStatuses: pod.spec.containers.map((c) => ({
          name: c.name,
          image: c.image ?? '',
          imageID: `sim.local/${c.image ?? ''}@sha256:2`,
          ready: true,
          restartCount: 0,
        })),
      },
    });
    const hotImages = (pod: Pod | undefined) => pod?.spec.containers.map((c) => `${c.name}=${c.image}`);

    test('the idle container takes the image; once it runs, the older one is reset with an Event on the pod', async () => {
      const h = setup();
      h.kube.pods.clear();
      h.kube.pods.set('web-0', readyPod('web-0', hot('envoy:1', 1)));
      h.sets.set('log', hot('envoy:2', 2));
      await reconcileSidecarSet(h.deps(), REQUEST);
      const revision = [...h.kube.revisions.keys()][0];
      expect(h.journal).toEqual([
        'lease.acquire',
        `create controllerrevision ${revision}`,
        'replace sidecarset status log',
        'replace pod web-0',
        'patch pod status web-0',
        // the kubelet has not run envoy:2 yet: updated, not ready, nothing to reset
        'replace sidecarset status log',
        'lease.release',
      ]);
      const upgraded = h.kube.pods.get('web-0');
      expect(hotImages(upgraded)).toEqual(['proxy-1=envoy:1', 'proxy-2=envoy:2', 'main=nginx']);
      expect(upgraded?.metadata.annotations?.['kruise.io/sidecarset-working-hotupgrade-container']).toBe(
        '{"proxy":"proxy-2"}',
      );
      expect(upgraded?.metadata.annotations?.['version.sidecarset.kruise.io/proxy-2']).toBe('20');

      h.journal.length = 0;
      h.kube.pods.set('web-0', restarted(upgraded!));
      await reconcileSidecarSet(h.deps(), REQUEST);
      expect(h.journal).toEqual([
        'lease.acquire',
        'replace pod web-0',
        'event ResetContainerSucceed: reset sidecar container image empty successfully',
        'lease.release',
      ]);
      const reset = h.kube.pods.get('web-0');
      expect(hotImages(reset)).toEqual(['proxy-1=busybox:empty', 'proxy-2=envoy:2', 'main=nginx']);
      expect(reset?.metadata.annotations?.['version.sidecarset.kruise.io/proxy-1']).toBe('0');
      expect(reset?.metadata.annotations?.['versionalt.sidecarset.kruise.io/proxy-2']).toBe('0');
      expect(h.kube.events.map((e) => e.reason)).toEqual(['ResetContainerSucceed']);

      h.journal.length = 0;
      h.kube.pods.set('web-0', restarted(reset!));
      await reconcileSidecarSet(h.deps(), REQUEST);
      expect(h.journal).toEqual(['lease.acquire', 'replace sidecarset status log', 'lease.release']);
      expect((h.sets.get('log') as unknown as SidecarSet).status).toEqual({
        observedGeneration: 2,
        matchedPods: 1,
        updatedPods: 1,
        readyPods: 1,
        updatedReadyPods: 1,
        latestRevision: revision,
        collisionCount: 0,
      });
    });

    test('a failed reset: a ResetContainerFailed Warning on the pod, the pass reports the error; a conflict is retried by the next pass without one', async () => {
      const h = setup();
      h.kube.pods.clear();
      const v1 = hot('envoy:1', 1);
      h.sets.set('log', hot('envoy:2', 2));
      await reconcileSidecarSet(h.deps(), REQUEST);
      h.kube.pods.set('web-0', readyPod('web-0', v1));
      await reconcileSidecarSet(h.deps(), REQUEST);
      h.kube.pods.set('web-0', restarted(h.kube.pods.get('web-0')!));
      h.journal.length = 0;
      let fault: 'conflict' | 'internal' = 'conflict';
      h.kube.failOn((call) =>
        call === 'replace pod web-0'
          ? fault === 'conflict'
            ? conflict(call)
            : internalError(call)
          : undefined,
      );
      const conflicted = await reconcileSidecarSet(h.deps(), REQUEST);
      expect(h.journal).toEqual([
        'lease.acquire',
        'replace pod web-0',
        'requeue 1s',
        'lease.release (failures 1)',
      ]);
      expect(conflicted).toMatchObject({ failures: 1 });
      h.journal.length = 0;
      fault = 'internal';
      const failed = await reconcileSidecarSet(h.deps(), REQUEST);
      expect(h.journal.slice(0, 3)).toEqual([
        'lease.acquire',
        'replace pod web-0',
        'event ResetContainerFailed: reset sidecar container image empty failed: replace pod web-0: 500 InternalError: etcd is unavailable',
      ]);
      // the second failure in a row
      expect(failed).toMatchObject({ failures: 2 });
    });
  });
});
