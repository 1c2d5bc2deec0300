/**
 * OpenKruise: pkg/controller/statefulset/stateful_set_control.go `doPreDownload`,
 * pkg/controller/statefulset/statefulset_predownload_image.go `createImagePullJobsForInPlaceUpdate`,
 * pkg/util/imagejob/utilfunction `CreateJobForWorkload` (the annotations it reads) and `DeleteJobsForWorkload`;
 * pkg/controller/statefulset/statefulset_controller.go `Add` (when pre-download runs at all).
 *
 * Image pre-download for an Advanced StatefulSet's in-place updates (docs/parity.md, "Advanced StatefulSet"): which
 * ImagePullJobs a new update revision gets, which label records the decision on that revision, and which jobs go
 * once every pod is at one revision. Where it differs from CloneSet's (lib/controllers/cloneset/plan/predownload):
 * `image-predownload-min-updated-ready-pods` may be a percentage of the replicas, `image-predownload-parallelism`
 * counts only as an integer, maxUnavailable defaults to 1, the partition is a plain count, and a set being deleted
 * is not exempt. Pure.
 */
import {
  LABEL_IMAGE_PREDOWNLOAD_CREATED,
  LABEL_IMAGE_PREDOWNLOAD_IGNORED,
  type ImagePullJob,
} from '../../../api/imagePullJob.js';
import { legacyScaledValue, scaledValueFromIntOrPercent } from '../../../api/intOrPercent.js';
import { parseGoInt } from '../../../api/int32.js';
import type { ControllerRevision, IntOrString } from '../../../api/types.js';
import { ANNOTATION_IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS } from '../../../api/v1beta1.js';
import { calculateInPlaceUpdateSpec } from '../../../podset/inplace/spec.js';
import { newControllerRef } from '../../../podset/ownership.js';
import {
  changedImages,
  jobsControlledBy,
  preDownloadDecided,
  revisionImagePullJob,
  type ImagePullJobPlan,
} from '../../../podset/predownload/imagePullJobs.js';
import { createJobForWorkloadSettings } from '../../../podset/predownload/settings.js';
import { STATEFULSET_API_VERSION, STATEFULSET_KIND_NAME } from '../api/resource.js';
import type { StatefulSet } from '../api/types.js';
import type { StatefulSetPlannerOptions } from './types.js';

/** Sets of this many replicas or fewer never pre-download (OpenKruise's `minimumReplicasToPreDownloadImage`). */
export const MIN_REPLICAS_TO_PREDOWNLOAD = 3;

/**
 * The set's `image-predownload-min-updated-ready-pods` as OpenKruise's `doPreDownload` reads it: an integer, or a
 * percentage of `spec.replicas` rounded up (Go's `intstr.Parse` then `GetScaledValueFromIntOrPercent`); absent or
 * unreadable → 0.
 */
export function minUpdatedReadyPods(sts: StatefulSet, replicas: number): number {
  const text = sts.metadata.annotations?.[ANNOTATION_IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS];
  if (text === undefined) return 0;
  const asInt = parseGoInt(text);
  const value: IntOrString = asInt ?? text;
  try {
    return scaledValueFromIntOrPercent(value, replicas, 'up');
  } catch {
    return 0;
  }
}

/**
 * Why the update revision needs no pre-download, in OpenKruise's order of checks
 * (`createImagePullJobsForInPlaceUpdate`): `OnDelete`, no rolling-update block or `podUpdatePolicy` ReCreate; no
 * more than {@link MIN_REPLICAS_TO_PREDOWNLOAD} replicas; every pod updated in one batch (partition 0 and
 * maxUnavailable — default 1, a percentage rounded down — at least the replicas); a change that cannot be made in
 * place. Undefined when it needs one.
 * @param sts the defaulted set
 */
export function ignoreReason(
  sts: StatefulSet,
  current: ControllerRevision,
  update: ControllerRevision,
  options: Pick<StatefulSetPlannerOptions, 'inPlaceUpdateEnvFromMetadata' | 'inPlaceWorkloadVerticalScaling'>,
): string | undefined {
  const strategy = sts.spec.updateStrategy;
  const ru = strategy?.rollingUpdate;
  if (strategy?.type === 'OnDelete' || !ru || (ru.podUpdatePolicy ?? 'ReCreate') === 'ReCreate')
    return 'recreate update';
  const replicas = sts.spec.replicas ?? 1;
  if (replicas <= MIN_REPLICAS_TO_PREDOWNLOAD)
    return `replicas ${replicas} <= ${MIN_REPLICAS_TO_PREDOWNLOAD}`;
  const maxUnavailable = legacyScaledValue(ru.maxUnavailable ?? 1, replicas, 'down');
  if ((ru.partition ?? 0) === 0 && maxUnavailable >= replicas) return 'all pods update in one batch';
  const spec = calculateInPlaceUpdateSpec(current, update, {
    gracePeriodSeconds: ru.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0,
    ignoreVolumeClaimTemplatesHashDiff: false,
    gates: {
      inPlaceUpdateEnvFromMetadata: options.inPlaceUpdateEnvFromMetadata,
      inPlaceWorkloadVerticalScaling: options.inPlaceWorkloadVerticalScaling,
      recreatePodWhenChangeVCTInCloneSet: false,
    },
  });
  return spec ? undefined : 'cannot update in place';
}

/**
 * The pre-download step of one pass (OpenKruise's `doPreDownload`), when gates `PreDownloadImageForInPlaceUpdate`
 * and `KruiseDaemon` are on and the ImagePullJob resource is served (`jobs` listed):
 * - current = update revision: delete every ImagePullJob the set controls;
 * - else, once the updated ready pods (`status.updatedReadyReplicas`, 0 while the status names another update
 *   revision) reach {@link minUpdatedReadyPods}, and unless the update revision is already labelled created or
 *   ignored: label it ignored when no pre-download is needed ({@link ignoreReason}), else create one job per
 *   changed image and label it created.
 * @param sts the defaulted set
 * @param jobs the ImagePullJobs of the namespace; undefined when not listed or the resource is not served
 * @returns the writes, or undefined when pre-download is off or there is nothing to write; never throws
 */
export function planStatefulSetPreDownload(
  sts: StatefulSet,
  current: ControllerRevision,
  update: ControllerRevision,
  jobs: readonly ImagePullJob[] | undefined,
  options: StatefulSetPlannerOptions,
): ImagePullJobPlan | undefined {
  if (!options.preDownloadImageForInPlaceUpdate || !options.kruiseDaemon || jobs === undefined)
    return undefined;
  const updateName = update.metadata.name ?? '';
  if (current.metadata.name === updateName) {
    const deleteJobs = jobsControlledBy(jobs, sts.metadata.uid);
    return deleteJobs.length > 0 ? { createJobs: [], deleteJobs } : undefined;
  }
  const replicas = sts.spec.replicas ?? 1;
  const updatedReady = sts.status?.updateRevision === updateName ? (sts.status.updatedReadyReplicas ?? 0) : 0;
  if (minUpdatedReadyPods(sts, replicas) > updatedReady || preDownloadDecided(update)) return undefined;
  const ignored = ignoreReason(sts, current, update, options);
  if (ignored)
    return {
      createJobs: [],
      deleteJobs: [],
      revisionLabel: { revision: updateName, key: LABEL_IMAGE_PREDOWNLOAD_IGNORED },
      ignoredBecause: ignored,
    };
  return {
    // one job per changed container, with the annotations' parallelism and timeout (`CreateJobForWorkload`)
    createJobs: changedImages(current, update).map(([c, image]) =>
      revisionImagePullJob(
        sts,
        update,
        c,
        image,
        newControllerRef(STATEFULSET_API_VERSION, STATEFULSET_KIND_NAME, sts),
        { ...createJobForWorkloadSettings(sts), minUpdatedReadyPods: 0 },
      ),
    ),
    deleteJobs: [],
    revisionLabel: { revision: updateName, key: LABEL_IMAGE_PREDOWNLOAD_CREATED },
  };
}
