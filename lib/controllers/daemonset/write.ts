/**
 * The DaemonSet's own writes over the generic client (lib/kube): its status through the status subresource
 * (OpenKruise's `storeDaemonSetStatus`), and its ControllerRevisions (`snapshot`, the renumbering in
 * `constructHistory`).
 */
import type { ControllerRevision } from '../../api/types.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { DAEMONSET_RESOURCE } from './api/resource.js';
import type { DaemonSet, DaemonSetStatus } from './api/types.js';

/**
 * Replace `.status` through the status subresource: one PUT of `ds` with `status`, its resourceVersion the
 * precondition (409 Conflict if the DaemonSet changed since read).
 * @throws KubeApiError (Conflict, NotFound, ...)
 */
export function updateDaemonSetStatus(
  kube: Pick<KubeClient, 'replace'>,
  ds: DaemonSet,
  status: DaemonSetStatus,
): Promise<DaemonSet> {
  return kube.replace(DAEMONSET_RESOURCE, { ...ds, status }, { subresource: 'status' });
}

/**
 * Create `revision`, or replace it when `existing` (a renumbering, the read resourceVersion the precondition).
 * @throws KubeApiError (AlreadyExists on a hash collision, Conflict, ...)
 */
export async function writeRevision(
  kube: Pick<KubeClient, 'create' | 'replace'>,
  revision: ControllerRevision,
  existing: boolean,
): Promise<void> {
  if (existing) await kube.replace(RESOURCES.controllerrevisions, revision);
  else await kube.create(RESOURCES.controllerrevisions, revision);
}
