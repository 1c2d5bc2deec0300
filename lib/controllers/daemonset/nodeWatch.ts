/**
 * OpenKruise: pkg/controller/daemonset/daemonset_event_handler.go `nodeEventHandler` (Create, Update, Delete).
 *
 * The DaemonSet controller's Node watch: a changed Node names every DaemonSet of the cluster not being deleted.
 * Upstream names, on a node's creation, the DaemonSets that should run on it, and on an update those whose verdict
 * changed (heartbeat-only updates ignored); a Map watch sees only the new object, so Kruiseless names every
 * DaemonSet — a superset, whose extra passes find nothing to do (a node that stopped fitting must reach the
 * DaemonSet too). A deleted Node is reached the same way, and the status then drops it.
 */
import type { JsonObject } from '../../api/types.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import type { ObjectRef } from '../../kube/resource.js';
import type { MapReads } from '../../source/watchSpec.js';
import { DAEMONSET_RESOURCE } from './api/resource.js';

/**
 * The DaemonSets a changed Node concerns: every one in the cluster not being deleted (one paged LIST).
 * @throws KubeApiError when the list fails (the pump logs it and leaves the change to the resync)
 */
export async function daemonSetsForNode(_node: JsonObject, reads: MapReads): Promise<ObjectRef[]> {
  const list = await listAll(
    reads.kube,
    DAEMONSET_RESOURCE,
    { limit: LIST_PAGE_SIZE },
    (d) => !d.metadata.deletionTimestamp,
  );
  return list.items.map((d) => ({ namespace: d.metadata.namespace ?? '', name: d.metadata.name ?? '' }));
}
