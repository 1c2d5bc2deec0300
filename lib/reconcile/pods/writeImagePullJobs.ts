/**
 * OpenKruise: `createImagePullJobsForInPlaceUpdate` and `patchControllerRevisionLabels` of
 * pkg/controller/cloneset/cloneset_predownload_image.go and pkg/controller/statefulset/statefulset_predownload_image.go,
 * pkg/util/imagejob/utilfunction `DeleteJobsForWorkload`.
 *
 * The image pre-download writes of a pass, for every kind that pre-downloads (lib/podset/predownload): best effort —
 * a failure is logged (and, for a job create, told as an Event) and never stops the pass; the next pass tries again.
 */
import { EventReason } from '../../api/keys.js';
import type { Logger } from '../../core/logger.js';
import { classifyWriteError, type WriteErrorKind } from '../../kube/errors.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient, KubeEvent } from '../../kube/types.js';
import type { ImagePullJobPlan } from '../../podset/predownload/imagePullJobs.js';

/** What {@link writeImagePullJobs} did. */
export interface PreDownloadWritten {
  /** Writes the API server accepted. */
  writes: number;
  /** Events to record on the workload (`CreatedImagePullJob`, `FailedCreateImagePullJob`). */
  events: KubeEvent[];
}

/** One list of like writes: what to call each, the answer that counts as done, and whether a failure stops the rest. */
export interface WriteList<T> {
  /** What one write does, for the log line of a failure (e.g. `creating an ImagePullJob`). */
  what: string;
  items: readonly T[];
  nameOf: (item: T) => string;
  write: (item: T) => Promise<unknown>;
  /** The failure that means the write was already made: AlreadyExists for creates, NotFound for deletes. */
  alreadyDone: WriteErrorKind;
  /** Called on a success (e.g. to record an Event). */
  onSuccess?: (item: T) => void;
  /** Called on a failure (before `stopOnFailure` applies). */
  onFailure?: (item: T, error: Error) => void;
  stopOnFailure: boolean;
}

/**
 * The writes of `list` one by one, in order; an API error is logged as a warning and, unless `stopOnFailure`,
 * the next item is written.
 * @returns writes made (those answered `alreadyDone` are not counted)
 * @throws only errors that are not API-server errors
 */
export async function writeAll<T>(log: Logger, list: WriteList<T>): Promise<number> {
  let writes = 0;
  for (const item of list.items) {
    try {
      await list.write(item);
      writes++;
      list.onSuccess?.(item);
    } catch (e) {
      const kind = classifyWriteError(e);
      if (kind === 'notApi') throw e;
      if (kind === list.alreadyDone) continue;
      const error = e as Error;
      log.warn(`${list.what} failed`, { name: list.nameOf(item), error: error.message });
      list.onFailure?.(item, error);
      if (list.stopOnFailure) break;
    }
  }
  return writes;
}

/**
 * Creates the plan's ImagePullJobs one by one (AlreadyExists counts as done, silently; another error is logged and
 * told as a `FailedCreateImagePullJob` Event), then sets the revision label — after failed creates too, as OpenKruise
 * does, so that a job that cannot be created is not retried forever — then deletes the jobs to clean up (stopping at
 * the first failure).
 * @param namespace the workload's namespace
 * @returns writes made and the Events to record on the workload
 * @throws only errors that are not API-server errors
 */
export async function writeImagePullJobs(
  kube: KubeClient,
  log: Logger,
  namespace: string,
  plan: ImagePullJobPlan,
): Promise<PreDownloadWritten> {
  const events: KubeEvent[] = [];
  let writes = await writeAll(log, {
    what: 'creating an ImagePullJob',
    items: plan.createJobs,
    nameOf: (job) => job.metadata.name ?? '',
    write: (job) => kube.create(RESOURCES.imagepulljobs, job),
    alreadyDone: 'alreadyExists',
    onSuccess: (job) =>
      events.push({
        type: 'Normal',
        reason: EventReason.CreatedImagePullJob,
        message: `created ImagePullJob ${job.metadata.name ?? ''} for image: ${job.spec.image}`,
      }),
    onFailure: (job, error) =>
      events.push({
        type: 'Normal',
        reason: EventReason.FailedCreateImagePullJob,
        message: `failed to create ImagePullJob ${job.metadata.name ?? ''}: ${error.message}`,
      }),
    stopOnFailure: false,
  });
  const label = plan.revisionLabel;
  writes += await writeAll(log, {
    what: 'labelling the update revision',
    items: label ? [label] : [],
    nameOf: (l) => l.revision,
    write: (l) =>
      kube.patch(
        RESOURCES.controllerrevisions,
        { namespace, name: l.revision },
        { type: 'merge', body: { metadata: { labels: { [l.key]: 'true' } } } },
      ),
    alreadyDone: 'notApi',
    onSuccess: (l) => {
      if (plan.ignoredBecause)
        log.info('no image pre-download for this revision', {
          revision: l.revision,
          why: plan.ignoredBecause,
        });
    },
    stopOnFailure: true,
  });
  writes += await writeAll(log, {
    what: 'deleting an ImagePullJob',
    items: plan.deleteJobs,
    nameOf: (job) => job.name,
    write: (job) => kube.delete(RESOURCES.imagepulljobs, { namespace, name: job.name }, { uid: job.uid }),
    alreadyDone: 'notFound',
    stopOnFailure: true,
  });
  return { writes, events };
}
