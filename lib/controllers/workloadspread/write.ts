/**
 * The WorkloadSpread's writes over the generic client (lib/kube): its status through the status subresource
 * (OpenKruise's `writeWorkloadSpreadStatus`, `Status().Update`), and a pod's deletion cost (`patchPodDeletionCost`,
 * a strategic-merge patch of the annotation), the subset of a pod created before the WorkloadSpread
 * (`patchFavoriteSubsetMetadataToPod`, a strategic-merge patch of its metadata), and the deletion of an unschedulable
 * pod (`deletePodsForSubset`).
 */
import { RESOURCES } from '../../kube/resources.js';
import type { JsonObject } from '../../api/types.js';
import type { KubeClient } from '../../kube/types.js';
import { ANNOTATION_POD_DELETION_COST } from './api/keys.js';
import { WORKLOADSPREAD_RESOURCE } from './api/resource.js';
import type { WorkloadSpread, WorkloadSpreadStatus } from './api/types.js';

/**
 * Replace `.status`: one PUT of `ws` with `status`, its resourceVersion the precondition.
 * @returns the WorkloadSpread as stored
 * @throws KubeApiError (Conflict, NotFound, ...)
 */
export function updateWorkloadSpreadStatus(
  kube: Pick<KubeClient, 'replace'>,
  ws: WorkloadSpread,
  status: WorkloadSpreadStatus,
): Promise<WorkloadSpread> {
  return kube.replace(WORKLOADSPREAD_RESOURCE, { ...ws, status }, { subresource: 'status' });
}

/**
 * Set pod `name`'s deletion cost annotation to `cost`.
 * @throws KubeApiError (NotFound when the pod is gone, ...)
 */
export async function patchPodDeletionCost(
  kube: Pick<KubeClient, 'patch'>,
  namespace: string,
  name: string,
  cost: string,
): Promise<void> {
  await kube.patch(
    RESOURCES.pods,
    { namespace, name },
    {
      type: 'strategic-merge',
      body: { metadata: { annotations: { [ANNOTATION_POD_DELETION_COST]: cost } } },
    },
  );
}

/**
 * Record pod `name` in a subset: a strategic-merge patch of `{metadata}` (the matched-workloadspread annotation and
 * the subset patch's metadata).
 * @throws KubeApiError (NotFound when the pod is gone, ...)
 */
export async function patchPodSubset(
  kube: Pick<KubeClient, 'patch'>,
  namespace: string,
  name: string,
  body: { metadata: JsonObject },
): Promise<void> {
  await kube.patch(RESOURCES.pods, { namespace, name }, { type: 'strategic-merge', body });
}

/**
 * Delete pod `name` (the Adaptive strategy's rescheduling), its UID the precondition so a same-named successor is never
 * deleted (upstream deletes the object it read, without one).
 * @throws KubeApiError (NotFound when the pod is gone, Conflict when its UID changed, ...)
 */
export function deletePod(
  kube: Pick<KubeClient, 'delete'>,
  namespace: string,
  name: string,
  uid: string | undefined,
): Promise<void> {
  return kube.delete(RESOURCES.pods, { namespace, name }, uid ? { uid } : undefined);
}
