/**
 * The image pre-download writes of a plan (docs/behaviour/cloneset.md#image-pre-download), as OpenKruise's
 * `createImagePullJobsForInPlaceUpdate`, `patchControllerRevisionLabels` and `DeleteJobsForWorkload` make them:
 * best effort — a failure is logged (and, for a create, told as an Event) and never stops the pass; the next
 * reconcile tries again.
 */
import { EventReason } from '../api/keys.js';
import type { PreDownloadPlan } from '../cloneset/index.js';
import type { Logger } from '../core/logger.js';
import { classifyWriteError } from '../kube/errors.js';
import type { CloneSetEvent, KubeClient } from '../kube/types.js';

/** What {@link writePreDownload} did. */
export interface PreDownloadWritten {
  writes: number;
  events: CloneSetEvent[];
}

/** Rethrows what is not an API-server error (state store, a bug); API errors are the caller's to log. */
function apiErrorOnly(e: unknown): Error {
  if (classifyWriteError(e) === 'notApi') throw e;
  return e as Error;
}

/**
 * Creates the plan's ImagePullJobs one by one (AlreadyExists counts as done, silently; another error is logged and
 * told as a `FailedCreateImagePullJob` Event), then sets the revision label — after failed creates too, as OpenKruise
 * does, so that a job that cannot be created is not retried forever — then deletes the jobs to clean up (stopping at
 * the first failure); then the pre-pull pods are created and deleted (AlreadyExists / NotFound count as done; the first
 * other failure stops that list).
 * @param namespace the CloneSet's namespace
 * @returns writes made and the Events to record
 * @throws only errors that are not API-server errors
 */
export async function writePreDownload(
  kube: KubeClient,
  log: Logger,
  namespace: string,
  plan: PreDownloadPlan,
): Promise<PreDownloadWritten> {
  const out: PreDownloadWritten = { writes: 0, events: [] };
  for (const job of plan.createJobs) {
    const name = job.metadata.name ?? '';
    try {
      await kube.createImagePullJob(job);
      out.writes++;
      out.events.push({
        type: 'Normal',
        reason: EventReason.CreatedImagePullJob,
        message: `created ImagePullJob ${name} for image: ${job.spec.image}`,
      });
    } catch (e) {
      const err = apiErrorOnly(e);
      if (classifyWriteError(err) === 'alreadyExists') continue;
      log.warn('creating an ImagePullJob failed', { job: name, error: err.message });
      out.events.push({
        type: 'Normal',
        reason: EventReason.FailedCreateImagePullJob,
        message: `failed to create ImagePullJob ${name}: ${err.message}`,
      });
    }
  }
  if (plan.revisionLabel) {
    const { revision, key } = plan.revisionLabel;
    try {
      await kube.patchControllerRevisionLabels(namespace, revision, { [key]: 'true' });
      out.writes++;
      if (plan.ignoredBecause)
        log.info('no image pre-download for this revision', { revision, why: plan.ignoredBecause });
    } catch (e) {
      log.warn('labelling the update revision failed', { revision, error: apiErrorOnly(e).message });
    }
  }
  for (const job of plan.deleteJobs) {
    try {
      await kube.deleteImagePullJob(namespace, job.name, job.uid);
      out.writes++;
    } catch (e) {
      const err = apiErrorOnly(e);
      if (classifyWriteError(err) === 'notFound') continue;
      log.warn('deleting an ImagePullJob failed', { job: job.name, error: err.message });
      break;
    }
  }
  for (const pod of plan.prePull?.create ?? []) {
    try {
      await kube.createPod(pod);
      out.writes++;
    } catch (e) {
      const err = apiErrorOnly(e);
      if (classifyWriteError(err) === 'alreadyExists') continue;
      log.warn('creating a pre-pull pod failed', { pod: pod.metadata.name, error: err.message });
      break;
    }
  }
  for (const pod of plan.prePull?.delete ?? []) {
    try {
      await kube.deletePod(namespace, pod.name, pod.uid);
      out.writes++;
    } catch (e) {
      const err = apiErrorOnly(e);
      if (classifyWriteError(err) === 'notFound') continue;
      log.warn('deleting a pre-pull pod failed', { pod: pod.name, error: err.message });
      break;
    }
  }
  return out;
}
