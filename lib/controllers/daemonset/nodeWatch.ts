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
 *
 * Upstream also names a DaemonSet when the node came into or left its `rollingUpdate.selector`
 * (`NodeShouldUpdateBySelector`): a node labelled into a canary selector gets its pod updated at once. Kruiseless names
 * it when the selector matches the node and the DaemonSet's pod there is not at `status.updateRevision` — the update
 * that label lets go ahead; a node leaving the selector changes nothing a pass would do, so it names none.
 */
import type { Node } from '../../api/node.js';
import { isEmptySelector, selectorMatches } from '../../api/selector.js';
import type { JsonObject, Pod } from '../../api/types.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import type { ObjectRef } from '../../kube/resource.js';
import { controllerRef } from '../../podset/ownership.js';
import { readNodeNow } from '../../source/nodeReads.js';
import type { MapReads } from '../../source/watchSpec.js';
import { DAEMONSET_RESOURCE } from './api/resource.js';
import { withDefaults } from './api/defaults.js';
import type { DaemonSet } from './api/types.js';
import { isPodUpdated, nodeShouldRunDaemonPod, templateGeneration } from './plan/index.js';

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
  const owned = new Map<string | undefined, Pod[]>();
  for (const p of pods.filter((x) => !x.metadata.deletionTimestamp)) {
    const uid = controllerRef(p.metadata.ownerReferences)?.uid;
    owned.set(uid, [...(owned.get(uid) ?? []), p]);
  }
  return sets
    .filter((d) => {
      const mine = owned.get(d.metadata.uid) ?? [];
      return (
        nodeShouldRunDaemonPod(current, d).shouldRun !== mine.length > 0 ||
        selectorUpdatePending(current, d, mine)
      );
    })
    .map(refOf);
}

/**
 * Whether `node` is in `ds`'s rolling-update selector (a non-empty `rollingUpdate.selector` of a `RollingUpdate`
 * DaemonSet, as upstream's `NodeShouldUpdateBySelector`) while one of `pods`, the DaemonSet's live pods on the node,
 * is not at its `status.updateRevision`: the node's labels let an update go ahead that no pass has made yet. The
 * strategy is read with OpenKruise's defaults (type `RollingUpdate` when absent).
 */
export function selectorUpdatePending(node: Node, ds: DaemonSet, pods: readonly Pod[]): boolean {
  const strategy = withDefaults(ds).spec.updateStrategy;
  const selector = strategy?.type === 'RollingUpdate' ? strategy.rollingUpdate?.selector : undefined;
  if (!selector || isEmptySelector(selector) || !selectorMatches(selector, node.metadata.labels ?? {}))
    return false;
  const hash = ds.status?.updateRevision ?? '';
  return pods.some((p) => !isPodUpdated(p, hash, templateGeneration(ds)));
}
