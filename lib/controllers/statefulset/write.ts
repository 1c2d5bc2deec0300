/**
 * The Advanced StatefulSet's own writes over the generic client (lib/kube): its status through the status
 * subresource (OpenKruise's `realStatefulSetStatusUpdater.UpdateStatefulSetStatus`).
 */
import type { KubeClient } from '../../kube/types.js';
import { STATEFULSET_RESOURCE } from './api/resource.js';
import type { StatefulSet, StatefulSetStatus } from './api/types.js';

/**
 * Replace `.status` through the status subresource: one PUT of `sts` with `status`, its resourceVersion the
 * precondition (409 Conflict if the set changed since read). The API server keeps everything but `.status`.
 * @returns the StatefulSet as stored after the write
 * @throws KubeApiError (Conflict, NotFound, ...)
 */
export function updateStatefulSetStatus(
  kube: Pick<KubeClient, 'replace'>,
  sts: StatefulSet,
  status: StatefulSetStatus,
): Promise<StatefulSet> {
  return kube.replace(STATEFULSET_RESOURCE, { ...sts, status }, { subresource: 'status' });
}
