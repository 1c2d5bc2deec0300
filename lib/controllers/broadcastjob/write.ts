/**
 * The BroadcastJob's own writes over the generic client (lib/kube): its status through the status subresource
 * (OpenKruise's `updateJobStatus`), and its deletion after `ttlSecondsAfterFinished`.
 */
import { ignoreNotFound } from '../../kube/errors.js';
import type { KubeClient } from '../../kube/types.js';
import { BROADCASTJOB_RESOURCE } from './api/resource.js';
import type { BroadcastJob, BroadcastJobStatus } from './api/types.js';

/**
 * Replace `.status` through the status subresource: one PUT of `job` with `status`, its resourceVersion the
 * precondition (409 Conflict if the job changed since read).
 * @returns the job as stored after the write
 * @throws KubeApiError (Conflict, NotFound, ...)
 */
export function updateBroadcastJobStatus(
  kube: Pick<KubeClient, 'replace'>,
  job: BroadcastJob,
  status: BroadcastJobStatus,
): Promise<BroadcastJob> {
  return kube.replace(BROADCASTJOB_RESOURCE, { ...job, status }, { subresource: 'status' });
}

/**
 * DELETE the job (the API server's default propagation: the garbage collector removes its pods), with its UID as
 * precondition so a same-named successor is never deleted. Already gone counts as done.
 * @throws KubeApiError other than NotFound (409 when the UID changed)
 */
export async function deleteBroadcastJob(kube: Pick<KubeClient, 'delete'>, job: BroadcastJob): Promise<void> {
  const { namespace, name = '', uid } = job.metadata;
  await ignoreNotFound(
    kube.delete(
      BROADCASTJOB_RESOURCE,
      { ...(namespace !== undefined ? { namespace } : {}), name },
      uid ? { uid } : undefined,
    ),
  );
}
