/**
 * Kubernetes: pkg/controller/daemon/util/daemonset_util.go `ReplaceDaemonSetPodNodeNameNodeAffinity`; OpenKruise:
 * pkg/controller/broadcastjob/broadcastjob_utils.go `getAssignedNode`.
 *
 * Pinning a pod to one node through required node affinity on the node's name, so kube-scheduler binds it there
 * (OpenKruise's default `--assign-bcj-pods-by-scheduler=true`; the DaemonSet controller does the same), and
 * reading the node a pod is pinned to. Pure.
 */
import type { Affinity, NodeSelector } from '../api/node.js';
import type { Pod } from '../api/types.js';
import { FIELD_OBJECT_NAME } from './nodeFit.js';

/** The required node selector pinning to `nodeName`: one term, one `matchFields` `metadata.name In [nodeName]`. */
function pinTo(nodeName: string): NodeSelector {
  return {
    nodeSelectorTerms: [{ matchFields: [{ key: FIELD_OBJECT_NAME, operator: 'In', values: [nodeName] }] }],
  };
}

/**
 * `affinity` with its required node affinity replaced by the pin to `nodeName`: every required term is dropped
 * (label terms included) and the one `matchFields` term put in their place; preferred terms, pod affinity and
 * anti-affinity are kept. Returns a new object; `affinity` is not modified.
 */
export function replaceNodeNameAffinity(affinity: Affinity | undefined, nodeName: string): Affinity {
  const required = pinTo(nodeName);
  if (!affinity) return { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } };
  const copy = structuredClone(affinity);
  if (!copy.nodeAffinity)
    return { ...copy, nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } };
  const existing = copy.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  copy.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = existing
    ? { ...existing, nodeSelectorTerms: required.nodeSelectorTerms }
    : required;
  return copy;
}

/**
 * The node a pod is on or pinned to (`getAssignedNode`): `spec.nodeName` when set, else the single value of the
 * first `metadata.name In [one value]` field requirement of its required node-affinity terms, else `''`.
 */
export function assignedNode(pod: Pod): string {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const affinity = pod.spec.affinity as Affinity | undefined;
  const terms =
    affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const t of terms)
    for (const r of t.matchFields ?? [])
      if (r.key === FIELD_OBJECT_NAME && r.operator === 'In' && r.values?.length === 1) return r.values[0];
  return '';
}
