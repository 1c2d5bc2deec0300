/**
 * The demo's story through the whole pipeline on the real control plane:
 * the seed CloneSet is applied with the API, the watch pump sees it, the bus routes the reconcile request by the
 * serverless.yml rule, the reconcile handler keeps its state in dynalite and writes through the API server. Every
 * step is asserted from API objects only.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { AppsV1Api } from '@kubernetes/client-node';
import type { Embedded } from '../../../lib/local/embedded.js';
import { CONTROLLERS } from '../../../lib/controllers/index.js';
import { watchStreams } from '../../../lib/source/watchSpec.js';
import type { CloneSet, ControllerRevision, Pod } from '../../../lib/api/types.js';
import { useTestNamespace } from '../support/cluster.js';
import {
  SEED_NAME,
  activePods,
  applySeed,
  countReasons,
  eventsOf,
  getCloneSet,
  listPods,
  patchCloneSet,
  podCondition,
  startPipeline,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('e2e-seed');
let embedded: Embedded;

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
}, 30_000);

afterAll(async () => {
  await embedded?.stop();
});

/** Per-test bound (the project's testTimeout does not reach tests run in band). */
const STEP_TIMEOUT_MS = 120_000;
const SAFE_INSTANCE_ID = /^[bcdfghjklmnpqrstvwxz2456789]{5}$/;

/** What the story hands from one step to the next. */
const story: {
  created?: CloneSet;
  firstRevision?: string;
  before?: Pod[];
  kept?: Pod;
  deleted?: Pod;
  final?: CloneSet;
} = {};

async function controllerRevisions(): Promise<ControllerRevision[]> {
  const apps = ctx.kc.makeApiClient(AppsV1Api);
  const list = await apps.listNamespacedControllerRevision({ namespace: ctx.namespace });
  return (list.items as unknown as ControllerRevision[]).sort((a, b) => a.revision - b.revision);
}

function hashOf(revisionName: string): string {
  return revisionName.slice(SEED_NAME.length + 1);
}

describe('the seed CloneSet through watch pump → bus → reconcile → DynamoDB → API server', () => {
  test(
    'applying the seed creates 2 Ready pods labelled, owned and gated like Kruise',
    async () => {
      story.created = await applySeed(ctx.custom, ctx.namespace);
      const uid = story.created.metadata.uid ?? '';
      const cs = await waitFor('DESIRED 2 / READY 2 / AVAILABLE 2', 90_000, async () => {
        const c = await getCloneSet(ctx.custom, ctx.namespace);
        const s = c.status;
        return s?.replicas === 2 && s.readyReplicas === 2 && s.availableReplicas === 2 ? c : undefined;
      });
      const updateRevision = cs.status?.updateRevision ?? '';
      story.firstRevision = updateRevision;
      // OpenKruise names the same YAML's revision so (its webhook's pod-template defaults are part of the hash)
      expect(updateRevision).toBe('cs-no-pvc-sample-7fb7468d98');
      const hash = hashOf(updateRevision);

      const pods = await listPods(ctx.core, ctx.namespace);
      expect(pods).toHaveLength(2);
      for (const pod of pods) {
        const id = pod.metadata.labels?.['apps.kruise.io/cloneset-instance-id'] ?? '';
        expect(id).toMatch(SAFE_INSTANCE_ID);
        expect(pod.metadata.name).toBe(`${SEED_NAME}-${id}`);
        expect(pod.metadata.labels).toEqual({
          app: 'cs-no-pvc-sample',
          'apps.kruise.io/cloneset-instance-id': id,
          'controller-revision-hash': updateRevision,
          'pod-template-hash': hash,
          'lifecycle.apps.kruise.io/state': 'Normal',
        });
        expect(pod.metadata.ownerReferences).toEqual([
          {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'CloneSet',
            name: SEED_NAME,
            uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ]);
        expect(pod.spec.readinessGates).toEqual([
          { conditionType: 'InPlaceUpdateReady' },
          { conditionType: 'KruisePodReady' },
        ]);
        expect(podCondition(pod, 'InPlaceUpdateReady')?.status).toBe('True');
        expect(podCondition(pod, 'KruisePodReady')?.status).toBe('True');
        expect(podCondition(pod, 'Ready')?.status).toBe('True');
        expect(pod.spec.containers.map((c) => [c.name, c.image, c.imagePullPolicy])).toEqual([
          ['nginx', 'nginx:1.18-alpine', 'Always'],
        ]);
        expect(pod.status?.containerStatuses?.[0]?.restartCount).toBe(0);
      }
      expect(new Set(pods.map((p) => p.metadata.labels?.['apps.kruise.io/cloneset-instance-id'])).size).toBe(
        2,
      );

      expect(cs.status).toMatchObject({
        observedGeneration: 1,
        replicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReplicas: 2,
        updatedReadyReplicas: 2,
        updatedAvailableReplicas: 2,
        expectedUpdatedReplicas: 2,
        currentRevision: updateRevision,
        updateRevision,
        collisionCount: 0,
        labelSelector: 'app=cs-no-pvc-sample',
      });
      story.before = pods;
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'the seed revision is stored as a ControllerRevision owned by the CloneSet',
    async () => {
      const revisions = await controllerRevisions();
      expect(revisions.map((r) => r.metadata.name)).toEqual([story.firstRevision]);
      const [rev] = revisions;
      expect(rev.revision).toBe(1);
      expect(rev.metadata.labels).toEqual({
        app: 'cs-no-pvc-sample',
        'controller.kubernetes.io/hash': hashOf(story.firstRevision ?? ''),
      });
      expect(rev.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'CloneSet',
          name: SEED_NAME,
          uid: story.created?.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      const template = (rev.data as { spec: { template: { spec: { containers: { image: string }[] } } } })
        .spec.template;
      expect(template.spec.containers.map((c) => c.image)).toEqual(['nginx:1.18-alpine']);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'the seed edit (replicas 1, nginx:1.19-alpine) deletes one pod and updates the other in place',
    async () => {
      const before = story.before ?? [];
      const beforeUids = new Map(before.map((p) => [p.metadata.name, p.metadata.uid]));
      await patchCloneSet(ctx.custom, ctx.namespace, [
        { op: 'replace', path: '/spec/replicas', value: 1 },
        { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.19-alpine' },
      ]);

      // watch every pod that shows up until the story ends: an in-place update never creates a pod
      const seen = new Map<string, string | undefined>();
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          for (const p of await listPods(ctx.core, ctx.namespace).catch(() => []))
            seen.set(p.metadata.name ?? '', p.metadata.uid);
          await sleep(100);
        }
      })();
      try {
        const [kept] = await waitFor('one pod left (the other deleted)', 60_000, async () => {
          const pods = await listPods(ctx.core, ctx.namespace);
          return pods.length === 1 ? pods : undefined;
        });
        story.kept = kept;
        story.deleted = before.find((p) => p.metadata.name !== kept.metadata.name);
        expect(beforeUids.get(kept.metadata.name)).toBe(kept.metadata.uid);

        story.final = await waitFor(
          'DESIRED 1 UPDATED 1 UPDATED_READY 1 READY 1 TOTAL 1',
          60_000,
          async () => {
            const c = await getCloneSet(ctx.custom, ctx.namespace);
            const s = c.status;
            return s?.observedGeneration === 2 &&
              s.replicas === 1 &&
              s.updatedReplicas === 1 &&
              s.updatedReadyReplicas === 1 &&
              s.readyReplicas === 1 &&
              s.currentRevision === s.updateRevision
              ? c
              : undefined;
          },
        );
      } finally {
        watching = false;
        await watcher;
      }
      expect([...seen.entries()].sort()).toEqual(
        [...beforeUids.entries()].sort() as [string, string | undefined][],
      );

      const [pod] = await activePods(ctx.core, ctx.namespace);
      const updateRevision = story.final.status?.updateRevision ?? '';
      expect(updateRevision).toBe('cs-no-pvc-sample-6ccb957675');
      expect(pod.metadata.name).toBe(story.kept.metadata.name);
      expect(pod.metadata.uid).toBe(story.kept.metadata.uid);
      expect(pod.spec.containers.map((c) => [c.name, c.image, c.imagePullPolicy])).toEqual([
        ['nginx', 'nginx:1.19-alpine', 'Always'],
      ]);
      expect(pod.status?.containerStatuses?.map((s) => [s.image, s.restartCount])).toEqual([
        ['nginx:1.19-alpine', 1],
      ]);
      const state = JSON.parse(pod.metadata.annotations?.['apps.kruise.io/inplace-update-state'] ?? '{}') as {
        revision?: string;
      };
      expect(state.revision).toBe(updateRevision);
      expect(pod.metadata.labels).toMatchObject({
        'controller-revision-hash': updateRevision,
        'pod-template-hash': hashOf(updateRevision),
        'lifecycle.apps.kruise.io/state': 'Normal',
      });
      expect(podCondition(pod, 'InPlaceUpdateReady')?.status).toBe('True');
      expect(podCondition(pod, 'Ready')?.status).toBe('True');
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'the final status is DESIRED 1 UPDATED 1 UPDATED_READY 1 READY 1 on the new revision',
    async () => {
      const cs = await getCloneSet(ctx.custom, ctx.namespace);
      const updateRevision = cs.status?.updateRevision ?? '';
      expect(cs.spec.replicas).toBe(1);
      expect(cs.status).toMatchObject({
        observedGeneration: 2,
        replicas: 1,
        readyReplicas: 1,
        availableReplicas: 1,
        updatedReplicas: 1,
        updatedReadyReplicas: 1,
        updatedAvailableReplicas: 1,
        expectedUpdatedReplicas: 1,
        currentRevision: updateRevision,
      });
      expect(updateRevision).not.toBe(story.firstRevision);
      const revisions = await controllerRevisions();
      expect(revisions.map((r) => [r.metadata.name, r.revision])).toEqual([
        [story.firstRevision, 1],
        [updateRevision, 2],
      ]);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'the CloneSet records SuccessfulCreate ×2, SuccessfulDelete ×1 and SuccessfulUpdatePodInPlace ×1',
    async () => {
      const uid = story.created?.metadata.uid ?? '';
      const wanted = { SuccessfulCreate: 2, SuccessfulDelete: 1, SuccessfulUpdatePodInPlace: 1 };
      const events = await waitFor('the story Events', 15_000, async () => {
        const evs = await eventsOf(ctx.core, ctx.namespace, uid);
        const normal = countReasons(evs, 'Normal');
        return Object.entries(wanted).every(([r, n]) => (normal[r] ?? 0) >= n) ? evs : undefined;
      });
      expect(countReasons(events, 'Normal')).toEqual(wanted);
      const messages = (reason: string) =>
        events
          .filter((e) => e.reason === reason)
          .map((e) => e.message)
          .sort();
      expect(messages('SuccessfulCreate')).toEqual(
        (story.before ?? []).map((p) => `succeed to create pod ${p.metadata.name}`).sort(),
      );
      expect(messages('SuccessfulDelete')).toEqual([`succeed to delete pod ${story.deleted?.metadata.name}`]);
      expect(messages('SuccessfulUpdatePodInPlace')).toEqual([
        `successfully update pod ${story.kept?.metadata.name} in-place(revision cs-no-pvc-sample-6ccb957675)`,
      ]);
      for (const e of events) {
        expect(e.involvedObject).toMatchObject({
          kind: 'CloneSet',
          name: SEED_NAME,
          namespace: ctx.namespace,
        });
        expect(e.source?.component).toBe('kruiseless');
      }
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'the story leaves no FailedScale/FailedUpdate condition and no Warning Event (pod patches do not race the kubelet)',
    async () => {
      const cs = await getCloneSet(ctx.custom, ctx.namespace);
      expect((cs.status?.conditions ?? []).map((c) => c.type)).toEqual([]);
      const warnings = countReasons(
        await eventsOf(ctx.core, ctx.namespace, cs.metadata.uid ?? ''),
        'Warning',
      );
      expect(warnings).toEqual({});
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'a quiet watch pump writes at most one checkpoint per stream per 10 s (not one per flush)',
    async () => {
      const before = embedded.counts.dynamoWatch.UpdateItem ?? 0;
      await sleep(5000);
      // one stream per watched resource and selector of the registered controllers (8 with CloneSet, Advanced
      // StatefulSet and BroadcastJob); bookmarks move the resume point whenever anything in the cluster changes
      const streams = watchStreams(CONTROLLERS).length;
      expect(streams).toBeGreaterThanOrEqual(3);
      expect((embedded.counts.dynamoWatch.UpdateItem ?? 0) - before).toBeLessThanOrEqual(streams);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'stopping the embedded default ends its open watches instead of waiting for them to time out (50 s)',
    async () => {
      const t0 = Date.now();
      await embedded.stop();
      expect(Date.now() - t0).toBeLessThan(10_000);
    },
    STEP_TIMEOUT_MS,
  );
});
