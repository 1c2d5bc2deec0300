/**
 * Image pre-download on the real control plane (docs/behaviour/cloneset.md#image-pre-download), through the whole
 * pipeline, as OpenKruise's e2e spec "pre-download for new image" drives it: 5 replicas, partition 1, an image change
 * with parallelism 2. With gate `PreDownloadImageForInPlaceUpdate` on, the exact ImagePullJob (spec, labels, owner)
 * is created, the update revision is labelled `apps.kruise.io/pre-predownload-created`, a `CreatedImagePullJob` Event
 * is recorded, and once every pod is updated the job is deleted; with the gate off, no job and no label. With
 * Kruiseless's `PreDownloadImageWithPods` gate too and no node agent (no NodeImages on the local control plane), one
 * pre-pull pod per node of the CloneSet's pods, removed when the rollout is done.
 * Asserted from API objects only.
 */
import { AppsV1Api } from '@kubernetes/client-node';
import type { Embedded } from '../../../lib/local/embedded.js';
import type { ImagePullJob } from '../../../lib/api/imagePullJob.js';
import type { CloneSet, Pod } from '../../../lib/api/types.js';
import { useTestNamespace, type TestCluster } from '../support/cluster.js';
import {
  SEED_NAME,
  activePods,
  applySeed,
  eventsOf,
  getCloneSet,
  patchCloneSet,
  startPipeline,
} from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const STEP_TIMEOUT_MS = 180_000;
const OLD_IMAGE = 'nginx:1.18-alpine';
const NEW_IMAGE = 'nginx:1.19-alpine';

const on = useTestNamespace('e2e-predl-on');
const off = useTestNamespace('e2e-predl-off');
const withPods = useTestNamespace('e2e-predl-pods');
let onPipeline: Embedded;
let offPipeline: Embedded;
let podsPipeline: Embedded;

beforeAll(async () => {
  onPipeline = await startPipeline(on.namespace, undefined, { preDownloadImageForInPlaceUpdate: true });
  offPipeline = await startPipeline(off.namespace);
  podsPipeline = await startPipeline(withPods.namespace, undefined, {
    preDownloadImageForInPlaceUpdate: true,
    preDownloadImageWithPods: true,
  });
}, 30_000);

afterAll(async () => {
  await onPipeline?.stop();
  await offPipeline?.stop();
  await podsPipeline?.stop();
});

async function listJobs(ctx: TestCluster): Promise<ImagePullJob[]> {
  const list = (await ctx.custom.listNamespacedCustomObject({
    group: 'apps.kruise.io',
    version: 'v1alpha1',
    namespace: ctx.namespace,
    plural: 'imagepulljobs',
  })) as { items: ImagePullJob[] };
  return list.items;
}

/** The e2e spec's CloneSet: 5 replicas, InPlaceIfPossible, partition 1, settled at the old image. */
async function fiveReady(ctx: TestCluster): Promise<CloneSet> {
  await applySeed(ctx.custom, ctx.namespace, (cs) => {
    cs.spec.replicas = 5;
    cs.spec.updateStrategy = { ...cs.spec.updateStrategy, partition: 1 };
  });
  return waitFor('5 pods Ready', 90_000, async () => {
    const cs = await getCloneSet(ctx.custom, ctx.namespace);
    const s = cs.status;
    return s?.readyReplicas === 5 && s.updatedReadyReplicas === 5 ? cs : undefined;
  });
}

/** Parallelism 2 (the annotation v1beta1's `imagePreDownloadParallelism` is stored as) and the new image. */
async function updateImage(ctx: TestCluster): Promise<void> {
  await patchCloneSet(ctx.custom, ctx.namespace, [
    {
      op: 'add',
      path: '/metadata/annotations',
      value: { 'apps.kruise.io/image-predownload-parallelism': '2' },
    },
    { op: 'replace', path: '/spec/template/spec/containers/0/image', value: NEW_IMAGE },
  ]);
}

async function revisionLabels(ctx: TestCluster, name: string): Promise<Record<string, string>> {
  const apps = ctx.kc.makeApiClient(AppsV1Api);
  const rev = await apps.readNamespacedControllerRevision({ name, namespace: ctx.namespace });
  return rev.metadata?.labels ?? {};
}

/**
 * The CloneSet once its `status.updateRevision` is set and differs from `previous`: the reconcile pass creates
 * ImagePullJobs and pre-pull pods before it writes the status, so a test that saw them may still read the old one.
 */
async function movedRevision(c: TestCluster, previous: string | undefined): Promise<CloneSet> {
  return waitFor('status.updateRevision to name the new revision', 30_000, async () => {
    const cs = await getCloneSet(c.custom, c.namespace);
    const now = cs.status?.updateRevision;
    return now && now !== previous ? cs : undefined;
  });
}

describe('image pre-download through the whole pipeline', () => {
  test(
    'gate on: the image change creates exactly one ImagePullJob as OpenKruise does; deleted once all pods are updated',
    async () => {
      const before = await fiveReady(on);
      expect(before.spec.template.spec.containers[0].image).toBe(OLD_IMAGE);
      await updateImage(on);
      const jobs = await waitFor('an ImagePullJob', 60_000, async () => {
        const l = await listJobs(on);
        return l.length > 0 ? l : undefined;
      });
      // the job is created before the pass's status write: wait for the status to name the new revision
      const cs = await movedRevision(on, before.status?.updateRevision);
      const updateRevision = cs.status?.updateRevision ?? '';
      const labels = await revisionLabels(on, updateRevision);
      const hash = labels['controller.kubernetes.io/hash'];
      expect(updateRevision).toBe(`${SEED_NAME}-${hash}`);
      expect(jobs).toHaveLength(1);
      const job = jobs[0];
      expect(job.metadata.name).toBe(`${updateRevision}-nginx`);
      expect(job.metadata.labels).toEqual({ app: SEED_NAME, 'controller.kubernetes.io/hash': hash });
      expect(job.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'CloneSet',
          name: SEED_NAME,
          uid: cs.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      expect(job.spec).toEqual({
        image: NEW_IMAGE,
        podSelector: {
          matchLabels: { app: SEED_NAME },
          matchExpressions: [
            { key: 'controller-revision-hash', operator: 'NotIn', values: [updateRevision, hash] },
          ],
        },
        parallelism: 2,
        pullPolicy: { backoffLimit: 1, timeoutSeconds: 300 },
        completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
        sandboxConfig: { labels: { app: SEED_NAME, 'controller.kubernetes.io/hash': hash } },
        imagePullPolicy: 'IfNotPresent',
      });
      expect(labels['apps.kruise.io/pre-predownload-created']).toBe('true');
      const events = await waitFor('the CreatedImagePullJob Event', 30_000, async () => {
        const evs = (await eventsOf(on.core, on.namespace, cs.metadata.uid ?? '')).filter(
          (e) => e.reason === 'CreatedImagePullJob',
        );
        return evs.length > 0 ? evs : undefined;
      });
      expect(events.map((e) => [e.type, e.message])).toEqual([
        ['Normal', `created ImagePullJob ${updateRevision}-nginx for image: ${NEW_IMAGE}`],
      ]);

      // the rollout finishes (partition 0): current = update, and the job goes
      await waitFor('4 pods updated (partition 1)', 90_000, async () => {
        const s = (await getCloneSet(on.custom, on.namespace)).status;
        return s?.updatedReadyReplicas === 4;
      });
      expect(await listJobs(on)).toHaveLength(1);
      await patchCloneSet(on.custom, on.namespace, [
        { op: 'replace', path: '/spec/updateStrategy/partition', value: 0 },
      ]);
      await waitFor('every pod updated and the ImagePullJob deleted', 90_000, async () => {
        const s = (await getCloneSet(on.custom, on.namespace)).status;
        return s?.currentRevision === updateRevision && (await listJobs(on)).length === 0;
      });
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'gate off: the same image change creates no ImagePullJob and labels no revision',
    async () => {
      await fiveReady(off);
      await updateImage(off);
      await waitFor('4 pods updated (partition 1)', 90_000, async () => {
        const s = (await getCloneSet(off.custom, off.namespace)).status;
        return s?.updatedReadyReplicas === 4;
      });
      expect(await listJobs(off)).toEqual([]);
      const cs = await getCloneSet(off.custom, off.namespace);
      const labels = await revisionLabels(off, cs.status?.updateRevision ?? '');
      expect(Object.keys(labels).filter((k) => k.includes('predownload'))).toEqual([]);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    'PreDownloadImageWithPods, no node agent: one pre-pull pod per node of the pods to update, gone after the rollout',
    async () => {
      const cs = await fiveReady(withPods);
      const nodes = [
        ...new Set((await activePods(withPods.core, withPods.namespace)).map((p) => p.spec.nodeName ?? '')),
      ].sort();
      expect(nodes.length).toBeGreaterThan(0);
      await updateImage(withPods);
      const selector = `kruiseless.io/image-prepull-for=${cs.metadata.uid}`;
      const prePulls = async () =>
        (await withPods.core.listNamespacedPod({ namespace: withPods.namespace, labelSelector: selector }))
          .items as unknown as Pod[];
      const created = await waitFor('a pre-pull pod on every node (parallelism 2)', 60_000, async () => {
        const l = await prePulls();
        return l.length === nodes.length ? l : undefined;
      });
      const revision =
        (await movedRevision(withPods, cs.status?.updateRevision)).status?.updateRevision ?? '';
      expect(created.map((p) => p.spec.nodeName).sort()).toEqual(nodes);
      for (const p of created) {
        expect(p.metadata.name).toMatch(new RegExp(`^${revision}-prepull-[0-9a-z]+$`));
        expect(p.metadata.ownerReferences).toEqual([
          {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'CloneSet',
            name: SEED_NAME,
            uid: cs.metadata.uid,
            controller: false,
            blockOwnerDeletion: false,
          },
        ]);
        expect(p.spec).toMatchObject({
          restartPolicy: 'Never',
          activeDeadlineSeconds: 300,
          containers: [
            expect.objectContaining({ name: 'nginx', image: NEW_IMAGE, command: ['sh', '-c', 'exit 0'] }),
          ],
        });
      }
      // the ImagePullJob is created as well (a node agent installed later would act on it)
      expect((await listJobs(withPods)).map((j) => j.metadata.name)).toEqual([`${revision}-nginx`]);
      // not CloneSet pods: replicas stay 5
      expect((await getCloneSet(withPods.custom, withPods.namespace)).status?.replicas).toBe(5);

      await waitFor('4 pods updated (partition 1)', 90_000, async () => {
        const s = (await getCloneSet(withPods.custom, withPods.namespace)).status;
        return s?.updatedReadyReplicas === 4;
      });
      await patchCloneSet(withPods.custom, withPods.namespace, [
        { op: 'replace', path: '/spec/updateStrategy/partition', value: 0 },
      ]);
      await waitFor('rollout done, pre-pull pods and job gone', 90_000, async () => {
        const s = (await getCloneSet(withPods.custom, withPods.namespace)).status;
        const left = (await prePulls()).filter((p) => !p.metadata.deletionTimestamp);
        return (
          s?.currentRevision === revision && left.length === 0 && (await listJobs(withPods)).length === 0
        );
      });
      expect((await getCloneSet(withPods.custom, withPods.namespace)).status?.replicas).toBe(5);
    },
    STEP_TIMEOUT_MS,
  );
});
