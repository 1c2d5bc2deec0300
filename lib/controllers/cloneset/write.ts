/**
 * The CloneSet's own writes over the generic client (lib/kube): its status through the status subresource, the
 * `podsToDelete` truncation, and Events on it. Everything CloneSet-specific about the API calls is here, so the
 * file moves with the CloneSet controller as it is.
 */
import type { CloneSet, CloneSetStatus } from '../../api/types.js';
import type { KubeClient, KubeEvent } from '../../kube/types.js';
import { CLONESET_RESOURCE } from './api/resource.js';

/**
 * Replace `.status` through the status subresource (OpenKruise's `UpdateCloneSetStatus`): one PUT of `cloneSet`
 * with `status`, its resourceVersion the precondition (409 Conflict if the CloneSet changed since read). The API
 * server keeps everything but `.status`.
 * @returns the CloneSet as stored after the write
 * @throws KubeApiError (Conflict, NotFound, ...)
 */
export function updateCloneSetStatus(
  kube: Pick<KubeClient, 'replace'>,
  cloneSet: CloneSet,
  status: CloneSetStatus,
): Promise<CloneSet> {
  return kube.replace(CLONESET_RESOURCE, { ...cloneSet, status }, { subresource: 'status' });
}

/**
 * Merge PATCH of `spec.scaleStrategy.podsToDelete` (docs/behaviour/cloneset.md#after-status), the resourceVersion
 * of `cloneSet` the precondition; an empty list removes the field (OpenKruise's `truncatePodsToDelete` leaves a
 * nil slice, which is omitted).
 * @returns the CloneSet as stored after the write
 * @throws KubeApiError (Conflict, NotFound, ...)
 */
export function patchCloneSetPodsToDelete(
  kube: Pick<KubeClient, 'patch'>,
  cloneSet: CloneSet,
  podsToDelete: string[],
): Promise<CloneSet> {
  const { namespace = '', name = '', resourceVersion } = cloneSet.metadata;
  const value = podsToDelete.length > 0 ? podsToDelete : null;
  return kube.patch(
    CLONESET_RESOURCE,
    { namespace, name },
    { type: 'merge', body: { spec: { scaleStrategy: { podsToDelete: value } } } },
    resourceVersion === undefined ? {} : { preconditions: { resourceVersion } },
  );
}

/**
 * Record `event` on `cloneSet` (folded, best effort: never throws; see {@link KubeClient.recordEvent}).
 * @param aggregate `event` is its type and reason's aggregate (lib/kube/eventCorrelation.ts)
 */
export function recordCloneSetEvent(
  kube: Pick<KubeClient, 'recordEvent'>,
  cloneSet: CloneSet,
  event: KubeEvent,
  aggregate = false,
): Promise<void> {
  return kube.recordEvent(CLONESET_RESOURCE, cloneSet, event, aggregate ? { aggregate } : {});
}
