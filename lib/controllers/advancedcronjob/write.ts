/**
 * The AdvancedCronJob's writes over the generic client (lib/kube): its status through the status subresource
 * (upstream's `updateAdvancedJobStatus`), and its children's creates and deletes (background propagation, as
 * upstream's `client.PropagationPolicy(metav1.DeletePropagationBackground)`: the garbage collector then removes a
 * Job's pods; a Job's own default would orphan them).
 */
import { ignoreNotFound } from '../../kube/errors.js';
import type { Resource } from '../../kube/resource.js';
import type { KubeClient } from '../../kube/types.js';
import { ACJ_RESOURCE } from './api/resource.js';
import type { AdvancedCronJob, AdvancedCronJobStatus, CronChild } from './api/types.js';

/**
 * Replace `.status`: one PUT of `acj` with `status`, its resourceVersion the precondition.
 * @throws KubeApiError (Conflict, NotFound, ...)
 */
export function updateStatus(
  kube: Pick<KubeClient, 'replace'>,
  acj: AdvancedCronJob,
  status: AdvancedCronJobStatus,
): Promise<AdvancedCronJob> {
  return kube.replace(ACJ_RESOURCE, { ...acj, status }, { subresource: 'status' });
}

/**
 * DELETE a child with background propagation and its UID as precondition. Already gone counts as done.
 * @throws KubeApiError other than NotFound
 */
export async function deleteChild(
  kube: Pick<KubeClient, 'delete'>,
  resource: Resource<CronChild>,
  child: CronChild,
): Promise<void> {
  const { namespace, name = '', uid } = child.metadata;
  await ignoreNotFound(
    kube.delete(
      resource,
      { ...(namespace !== undefined ? { namespace } : {}), name },
      uid ? { uid } : undefined,
      { propagationPolicy: 'Background' },
    ),
  );
}
