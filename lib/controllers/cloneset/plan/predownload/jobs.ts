/**
 * OpenKruise: pkg/controller/cloneset/cloneset_controller.go `doReconcile` (the pre-download block),
 * pkg/controller/cloneset/cloneset_predownload_image.go `createImagePullJobsForInPlaceUpdate`,
 * pkg/util/imagejob/utilfunction `DeleteJobsForWorkload`.
 *
 * Image pre-download for in-place updates (docs/behaviour/cloneset.md#image-pre-download): which ImagePullJobs to
 * create for a new update revision, which label records the decision on that revision, and which jobs to delete once
 * the rollout is done. Pure.
 */
import {
  LABEL_IMAGE_PREDOWNLOAD_CREATED,
  LABEL_IMAGE_PREDOWNLOAD_IGNORED,
  type ImagePullJob,
} from '../../../../api/imagePullJob.js';
import { legacyScaledValue } from '../../../../api/intOrPercent.js';
import type { CloneSet } from '../../../../api/types.js';
import { calculateInPlaceUpdateSpec } from '../../../../podset/inplace/spec.js';
import {
  changedImages,
  jobsControlledBy,
  preDownloadDecided,
  revisionImagePullJob,
} from '../../../../podset/predownload/imagePullJobs.js';
import { preDownloadSettings } from '../../../../podset/predownload/settings.js';
import { inPlaceUpdateGates } from '../inPlaceOptions.js';
import { cloneSetControllerRef } from '../ownership.js';
import type { PhaseContext, PreDownloadPlan } from '../types.js';

/** CloneSets of this many replicas or fewer never pre-download (OpenKruise's `minimumReplicasToPreDownloadImage`). */
export const MIN_REPLICAS_TO_PREDOWNLOAD = 3;

/** {@link ignoreReason}'s answer for an unreadable partition. */
export const INVALID_PARTITION = Symbol('invalid partition');

/** A plan that writes nothing. */
export function emptyPreDownloadPlan(): PreDownloadPlan {
  return { createJobs: [], deleteJobs: [] };
}

/** Whether `plan` writes anything. */
export function hasPreDownloadWrites(plan: PreDownloadPlan): boolean {
  return (
    !!plan.revisionLabel ||
    plan.createJobs.length > 0 ||
    plan.deleteJobs.length > 0 ||
    (plan.prePull?.create.length ?? 0) > 0 ||
    (plan.prePull?.delete.length ?? 0) > 0
  );
}

/** What {@link planImagePullJobs} reads. */
export type PreDownloadContext = Pick<
  PhaseContext,
  'cloneSet' | 'strategy' | 'currentRevision' | 'updateRevision' | 'options'
>;

/**
 * Whether pre-download runs at all (OpenKruise's `Add`): gates `PreDownloadImageForInPlaceUpdate` and
 * `KruiseDaemon` on, and the ImagePullJob resource served (`jobs` listed).
 */
export function preDownloadEnabled(
  options: PreDownloadContext['options'],
  jobs: readonly ImagePullJob[] | undefined,
): boolean {
  return options.preDownloadImageForInPlaceUpdate && options.kruiseDaemon && jobs !== undefined;
}

/**
 * Why the update revision needs no pre-download, in OpenKruise's order of checks
 * (`createImagePullJobsForInPlaceUpdate`): a recreate update (ReCreate, or OnDelete); no more than
 * {@link MIN_REPLICAS_TO_PREDOWNLOAD} replicas; every pod updated in one batch (partition 0 and maxUnavailable —
 * default 20 %, rounded down — at least the replicas); a change that cannot be made in place. Undefined when it
 * needs one; {@link INVALID_PARTITION} when the partition cannot be read (nothing is decided then).
 */
export function ignoreReason(ctx: PreDownloadContext): string | undefined | typeof INVALID_PARTITION {
  const { strategy, cloneSet: cs } = ctx;
  if (strategy.updateType === 'ReCreate' || strategy.updateType === 'OnDelete') return 'recreate update';
  if (strategy.replicas <= MIN_REPLICAS_TO_PREDOWNLOAD) return `replicas ${strategy.replicas} <= 3`;
  if (strategy.partitionError) return INVALID_PARTITION;
  const maxUnavailable = legacyScaledValue(
    cs.spec.updateStrategy?.maxUnavailable ?? '20%',
    strategy.replicas,
    'down',
  );
  if (strategy.partition === 0 && maxUnavailable >= strategy.replicas) return 'all pods update in one batch';
  const spec = calculateInPlaceUpdateSpec(ctx.currentRevision, ctx.updateRevision, {
    gracePeriodSeconds: 0,
    ignoreVolumeClaimTemplatesHashDiff: strategy.updateType === 'InPlaceOnly',
    gates: inPlaceUpdateGates(ctx.options),
  });
  return spec ? undefined : 'cannot update in place';
}

/**
 * Whether the updated ready pods (`status.updatedReadyReplicas`, 0 while the status names another update revision)
 * reach the `image-predownload-min-updated-ready-pods` annotation (OpenKruise's `doReconcile`).
 */
export function minUpdatedReadyReached(cs: CloneSet, updateRevision: string): boolean {
  const updatedReady =
    cs.status?.updateRevision === updateRevision ? (cs.status.updatedReadyReplicas ?? 0) : 0;
  return preDownloadSettings(cs).minUpdatedReadyPods <= updatedReady;
}

/**
 * The pre-download step of one reconcile (OpenKruise's pre-download block in `doReconcile` and
 * `createImagePullJobsForInPlaceUpdate`), when {@link preDownloadEnabled}:
 * - every pod at one revision (current = update): delete every ImagePullJob the CloneSet controls;
 * - else, once the updated ready pods (`status.updatedReadyReplicas`, 0 while the status names another update
 *   revision) reach the `image-predownload-min-updated-ready-pods` annotation, and unless the update revision is
 *   already labelled created or ignored: label it ignored when no pre-download is needed (see `ignoreReason`), else
 *   create one job per changed image and label it created.
 * Nothing while the CloneSet is being deleted or its partition is invalid (OpenKruise returns an error there and
 * tries again next time).
 * @param jobs the ImagePullJobs of the namespace; undefined when the resource is not served
 * @returns the writes; never throws
 */
export function planImagePullJobs(
  ctx: PreDownloadContext,
  jobs: readonly ImagePullJob[] | undefined,
): PreDownloadPlan {
  const plan = emptyPreDownloadPlan();
  const cs = ctx.cloneSet;
  if (!preDownloadEnabled(ctx.options, jobs) || cs.metadata.deletionTimestamp) return plan;
  const update = ctx.updateRevision;
  const updateName = update.metadata.name ?? '';
  if (ctx.currentRevision.metadata.name === updateName) {
    plan.deleteJobs = jobsControlledBy(jobs ?? [], cs.metadata.uid);
    return plan;
  }
  const settings = preDownloadSettings(cs);
  const updatedReady = cs.status?.updateRevision === updateName ? (cs.status.updatedReadyReplicas ?? 0) : 0;
  if (settings.minUpdatedReadyPods > updatedReady) return plan;
  if (preDownloadDecided(update)) return plan;
  const ignored = ignoreReason(ctx);
  if (ignored === INVALID_PARTITION) return plan;
  if (ignored) {
    return {
      ...plan,
      revisionLabel: { revision: updateName, key: LABEL_IMAGE_PREDOWNLOAD_IGNORED },
      ignoredBecause: ignored,
    };
  }
  return {
    ...plan,
    revisionLabel: { revision: updateName, key: LABEL_IMAGE_PREDOWNLOAD_CREATED },
    // one job per changed container, with the annotations' parallelism and timeout (`CreateJobForWorkloadWithStrategy`)
    createJobs: changedImages(ctx.currentRevision, update).map(([c, image]) =>
      revisionImagePullJob(cs, update, c, image, cloneSetControllerRef(cs), preDownloadSettings(cs)),
    ),
  };
}
