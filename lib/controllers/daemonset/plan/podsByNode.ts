/**
 * OpenKruise: pkg/controller/daemonset/daemonset_controller.go `getNodesToDaemonPods`, `podByCreationTimestampAndPhase`,
 * daemonset_util.go `getUnscheduledPodsWithoutNode`; Kubernetes pkg/controller/daemon/util `GetTargetNodeName`.
 *
 * A DaemonSet's pods grouped by the node each runs on or is pinned to, and their order on a node.
 */
import type { Pod } from '../../../api/types.js';
import { assignedNode } from '../../../podset/nodePin.js';

/**
 * Node name → the pods there, in listed order (`getNodesToDaemonPods`); a pod neither scheduled nor pinned by a
 * `metadata.name` field requirement is left out, as upstream skips it.
 */
export function podsByNode(pods: readonly Pod[]): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const pod of pods) {
    const node = assignedNode(pod);
    if (!node) continue;
    const list = out.get(node) ?? [];
    list.push(pod);
    out.set(node, list);
  }
  return out;
}

const ts = (p: Pod) => (p.metadata.creationTimestamp ? Date.parse(p.metadata.creationTimestamp) : 0);

/**
 * `podByCreationTimestampAndPhase`: scheduled pods (with `spec.nodeName`) first, then older first, then by name.
 * Returns a new array.
 */
export function sortDaemonPods(pods: readonly Pod[]): Pod[] {
  return [...pods].sort((a, b) => {
    const sa = a.spec.nodeName ? 0 : 1;
    const sb = b.spec.nodeName ? 0 : 1;
    if (sa !== sb) return sa - sb;
    if (ts(a) !== ts(b)) return ts(a) - ts(b);
    const na = a.metadata.name ?? '';
    const nb = b.metadata.name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
}

/**
 * `getUnscheduledPodsWithoutNode`: the pods pinned to a node that is not in `nodeNames` and not yet bound (no
 * `spec.nodeName`), which the pod garbage collector would never remove.
 */
export function unscheduledPodsWithoutNode(
  byNode: ReadonlyMap<string, Pod[]>,
  nodeNames: ReadonlySet<string>,
): Pod[] {
  const out: Pod[] = [];
  for (const [node, pods] of byNode)
    if (!nodeNames.has(node)) for (const p of pods) if (!p.spec.nodeName) out.push(p);
  return out;
}
