/**
 * OpenKruise: pkg/controller/daemonset/daemonset_event_handler.go `nodeEventHandler` (Create, Update, Delete).
 *
 * The DaemonSet controller's Node watch. Upstream names, on a node's creation, the DaemonSets that should run on it,
 * on an update those whose verdict (`nodeShouldRunDaemonPod`) changed — a heartbeat names none — and on a deletion
 * those that should have run there. A Map watch sees only the new object, so Kruiseless asks the cluster instead of
 * the old object: a DaemonSet is named when the node's verdict for it disagrees with what is on the node — it should
 * run there and has no pod on it, or it has a pod there and should not run there — and every DaemonSet is named when
 * the node is gone or going. A node whose DaemonSets are all where their verdicts put them makes no reconcile,
 * which is what a heartbeat is; a node that stopped fitting while its pod may stay (a new NoSchedule taint) is named
 * on each of its updates until the pod goes, a superset of upstream's one.
 */
import type { Node } from '../../api/node.js';
import type { JsonObject } from '../../api/types.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import type { ObjectRef } from '../../kube/resource.js';
import { controllerRef } from '../../podset/ownership.js';
import { readNodeNow } from '../../source/nodeReads.js';
import type { MapReads } from '../../source/watchSpec.js';
import { DAEMONSET_RESOURCE } from './api/resource.js';
import { nodeShouldRunDaemonPod } from './plan/index.js';

/**
 * The DaemonSets a changed Node concerns (see the module doc). Reads: the cluster's DaemonSets (one paged LIST), the
 * node as it is now (a LIST by name: the watch role lists nodes), and the pods bound to it (a LIST by
 * `spec.nodeName`, all namespaces).
 * @throws KubeApiError when a read fails (the pump logs it and leaves the change to the resync)
 */
export async function daemonSetsForNode(obj: JsonObject, reads: MapReads): Promise<ObjectRef[]> {
  const changed = obj as unknown as Node;
  const name = changed.metadata.name ?? '';
  const sets = (
    await listAll(
      reads.kube,
      DAEMONSET_RESOURCE,
      { limit: LIST_PAGE_SIZE },
      (d) => !d.metadata.deletionTimestamp,
    )
  ).items;
  const refOf = (d: (typeof sets)[number]): ObjectRef => ({
    namespace: d.metadata.namespace ?? '',
    name: d.metadata.name ?? '',
  });
  if (sets.length === 0) return [];
  const { node: current, pods } = await readNodeNow(reads, name);
  if (!current || current.metadata.deletionTimestamp) return sets.map(refOf);
  const owners = new Set(
    pods
      .filter((p) => !p.metadata.deletionTimestamp)
      .map((p) => controllerRef(p.metadata.ownerReferences)?.uid),
  );
  return sets
    .filter((d) => nodeShouldRunDaemonPod(current, d).shouldRun !== owners.has(d.metadata.uid))
    .map(refOf);
}
