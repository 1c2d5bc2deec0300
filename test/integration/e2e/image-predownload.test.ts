/**
 * Image pre-download on the real control plane (docs/behaviour/cloneset.md#image-pre-download), through the whole
 * pipeline, as OpenKruise's e2e spec "pre-download for new image" drives it: 5 replicas, partition 1, an image change
 * with parallelism 2. With gate `PreDownloadImageForInPlaceUpdate` on, the exact ImagePullJob (spec, labels, owner)
 * is created, the update revision is labelled `apps.kruise.io/pre-predownload-created`, a `CreatedImagePullJob` Event
 * is recorded, and once every pod is updated the job is deleted; with the gate off, no job and no label.
 * Asserted from API objects only.
 */
import { AppsV1Api } from '@kubernetes/client-node';
import type { Embedded } from '../../../lib/local/embedded.js';
import type { ImagePullJob } from '../../../lib/api/imagePullJob.js';
import type { CloneSet } from '../../../lib/api/types.js';
import { useTestNamespace, type TestCluster } from '../support/cluster.js';
import {
  SEED_NAME,
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
let onPipeline: Embedded;
let offPipeline: Embedded;

beforeAll(async () => {
  onPipeline = await startPipeline(on.namespace, undefined, { preDownloadImageForInPlaceUpdate: true });
  offPipeline = await startPipeline(off.namespace);
}, 30_000);

afterAll(async () => {
  await onPipeline?.stop();
  await offPipeline?.stop();
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
      const cs = await getCloneSet(on.custom, on.namespace);
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
          apiVersion: 'apps.kruise.io/v1alpha1',
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
});
