/**
 * OpenKruise: pkg/controller/daemonset/daemonset_controller.go `syncDaemonSet` (when pre-download runs) and
 * daemonset_predownload_image.go `createImagePullJobsForInPlaceUpdate`, `diffImagesBetweenRevisions`;
 * pkg/util/imagejob/utilfunction `CreateJobForWorkload`, `DeleteJobsForWorkload`.
 *
 * Image pre-download for an Advanced DaemonSet's update, with gates `PreDownloadImageForDaemonSetUpdate` and
 * `KruiseDaemon` on and the ImagePullJob resource served. Where it differs from Advanced StatefulSet's
 * (../../statefulset/plan/preDownload.ts): it runs for every update type (not only in place) and any number of pods;
 * a job is made for every container whose image differs from that of some old revision (not only the current one);
 * the update is skipped as "all pods in one batch" when the partition is 0 and `maxUnavailable` (default 1, a
 * percentage rounded up) covers `status.desiredNumberScheduled`; `image-predownload-min-updated-ready-pods` is read
 * and not used, as upstream; and the jobs go once the stored status shows every pod updated to the current hash.
 * Pure.
 */
import {
  LABEL_IMAGE_PREDOWNLOAD_CREATED,
  LABEL_IMAGE_PREDOWNLOAD_IGNORED,
  type ImagePullJob,
} from '../../../api/imagePullJob.js';
import { scaledValueFromIntOrPercent } from '../../../api/intOrPercent.js';
import type { ControllerRevision } from '../../../api/types.js';
import { newControllerRef } from '../../../podset/ownership.js';
import {
  changedImagesFromAny,
  jobsControlledBy,
  preDownloadDecided,
  revisionImagePullJob,
  type ImagePullJobPlan,
} from '../../../podset/predownload/imagePullJobs.js';
import { createJobForWorkloadSettings } from '../../../podset/predownload/settings.js';
import { DAEMONSET_API_VERSION, DAEMONSET_KIND_NAME } from '../api/resource.js';
import type { DaemonSet } from '../api/types.js';

/**
 * Whether the update brings every pod over in one batch, so no pre-download is needed: partition 0 (rounded down
 * against `status.desiredNumberScheduled`) and `maxUnavailable` (default 1, rounded up) at least that many pods.
 * Undefined when the partition cannot be read (upstream returns an error and does nothing).
 * @param ds the defaulted DaemonSet
 */
export function allInOneBatch(ds: DaemonSet): boolean | undefined {
  const pods = ds.status?.desiredNumberScheduled ?? 0;
  const ru = ds.spec.updateStrategy?.rollingUpdate;
  try {
    const partition =
      ru?.partition === undefined ? 0 : scaledValueFromIntOrPercent(ru.partition, pods, 'down');
    const maxUnavailable = scaledValueFromIntOrPercent(ru?.maxUnavailable ?? 1, pods, 'up');
    return partition === 0 && maxUnavailable >= pods;
  } catch {
    return undefined;
  }
}

/**
 * The pre-download step of one pass (after the revisions, before the pods, as upstream):
 * - the stored status shows every pod updated (`updatedNumberScheduled` = `desiredNumberScheduled`) to the current
 *   hash (`updateRevision`): delete every ImagePullJob the DaemonSet controls;
 * - else, unless the current revision is already labelled created or ignored: label it ignored when every pod is
 *   updated in one batch ({@link allInOneBatch}), else create one job per changed image and label it created.
 * A DaemonSet without a `rollingUpdate` block (`OnDelete`) is left alone: upstream dereferences it here.
 * @param ds the defaulted DaemonSet
 * @param jobs the ImagePullJobs of the namespace; undefined when pre-download is off or the resource is not served
 * @returns the writes, or undefined when there is nothing to write; never throws
 */
export function planDaemonSetPreDownload(
  ds: DaemonSet,
  current: ControllerRevision,
  old: readonly ControllerRevision[],
  hash: string,
  jobs: readonly ImagePullJob[] | undefined,
): ImagePullJobPlan | undefined {
  if (jobs === undefined) return undefined;
  const status = ds.status;
  if (
    (status?.updatedNumberScheduled ?? 0) === (status?.desiredNumberScheduled ?? 0) &&
    hash === (status?.updateRevision ?? '')
  ) {
    const deleteJobs = jobsControlledBy(jobs, ds.metadata.uid);
    return deleteJobs.length > 0 ? { createJobs: [], deleteJobs } : undefined;
  }
  if (!ds.spec.updateStrategy?.rollingUpdate || preDownloadDecided(current)) return undefined;
  const revision = current.metadata.name ?? '';
  const oneBatch = allInOneBatch(ds);
  if (oneBatch === undefined) return undefined;
  if (oneBatch)
    return {
      createJobs: [],
      deleteJobs: [],
      revisionLabel: { revision, key: LABEL_IMAGE_PREDOWNLOAD_IGNORED },
      ignoredBecause: 'all pods update in one batch',
    };
  return {
    createJobs: changedImagesFromAny(old, current).map(([c, image]) =>
      revisionImagePullJob(
        ds,
        current,
        c,
        image,
        newControllerRef(DAEMONSET_API_VERSION, DAEMONSET_KIND_NAME, ds),
        { ...createJobForWorkloadSettings(ds), minUpdatedReadyPods: 0 },
      ),
    ),
    deleteJobs: [],
    revisionLabel: { revision, key: LABEL_IMAGE_PREDOWNLOAD_CREATED },
  };
}
