/**
 * The image pre-download writes of a CloneSet plan (docs/behaviour/cloneset.md#image-pre-download): the ImagePullJob
 * writes every kind makes (lib/reconcile/pods/writeImagePullJobs.ts), then Kruiseless's pre-pull pods — best effort
 * all: a failure is logged and never stops the pass; the next reconcile tries again.
 */
import type { PreDownloadPlan } from './plan/index.js';
import type { Logger } from '../../core/logger.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import {
  writeAll,
  writeImagePullJobs,
  type PreDownloadWritten,
} from '../../reconcile/pods/writeImagePullJobs.js';

export type { PreDownloadWritten };

/**
 * The ImagePullJob writes ({@link writeImagePullJobs}: creates, the revision label, deletes), then the pre-pull pods
 * are created and deleted (AlreadyExists / NotFound count as done; the first other failure stops that list).
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
  const jobs = await writeImagePullJobs(kube, log, namespace, plan);
  let writes = jobs.writes;
  writes += await writeAll(log, {
    what: 'creating a pre-pull pod',
    items: plan.prePull?.create ?? [],
    nameOf: (pod) => pod.metadata.name ?? '',
    write: (pod) => kube.create(RESOURCES.pods, pod),
    alreadyDone: 'alreadyExists',
    stopOnFailure: true,
  });
  writes += await writeAll(log, {
    what: 'deleting a pre-pull pod',
    items: plan.prePull?.delete ?? [],
    nameOf: (pod) => pod.name,
    write: (pod) => kube.delete(RESOURCES.pods, { namespace, name: pod.name }, { uid: pod.uid }),
    alreadyDone: 'notFound',
    stopOnFailure: true,
  });
  return { writes, events: jobs.events };
}
