/**
 * OpenKruise: pkg/util/workloadspread/workloadspread.go `injectWorkloadSpreadIntoPod` (v1.9.0).
 *
 * What a subset adds to a pod at creation, in upstream's order: its tolerations appended; an empty node affinity
 * created when absent; its preferred terms appended; its required term as the pod's only required term, or ANDed into
 * each of the pod's terms (expressions and fields appended); its `patch` applied as a strategic merge (and, when the
 * patch changed `priorityClassName`, `priority` removed so the API server's priority plugin sets it again); then the
 * matched-workloadspread annotation.
 */
import type { Affinity, NodeAffinity, NodeSelectorTerm } from '../../../api/node.js';
import type { JsonObject, Pod } from '../../../api/types.js';
import { ANNOTATION_MATCHED_WORKLOADSPREAD } from '../api/keys.js';
import type { WorkloadSpread } from '../api/types.js';
import { injectedAnnotation } from './injected.js';
import { strategicMergePod } from './strategicMerge.js';

/** The required term ANDed into `term` (its expressions and fields appended). */
function andTerm(term: NodeSelectorTerm, add: NodeSelectorTerm): NodeSelectorTerm {
  const out: NodeSelectorTerm = { ...term };
  const expressions = [...(term.matchExpressions ?? []), ...(add.matchExpressions ?? [])];
  const fields = [...(term.matchFields ?? []), ...(add.matchFields ?? [])];
  if (expressions.length > 0) out.matchExpressions = expressions;
  if (fields.length > 0) out.matchFields = fields;
  return out;
}

/**
 * The pod as the subset `subsetName` of `ws` places it (see the module doc); undefined when `ws` has no such subset
 * (upstream then leaves the pod unchanged).
 * @param pod the pod being created; not modified
 * @param uid the id the webhook generated for a pod without a name ('' for none)
 */
export function injectSubset(ws: WorkloadSpread, pod: Pod, subsetName: string, uid: string): Pod | undefined {
  const subset = ws.spec.subsets.find((s) => s.name === subsetName);
  if (!subset) return undefined;
  const spec = { ...pod.spec };
  if (subset.tolerations && subset.tolerations.length > 0)
    spec.tolerations = [...((spec.tolerations as unknown[] | undefined) ?? []), ...subset.tolerations];
  const affinity: Affinity = { ...((spec.affinity as Affinity | undefined) ?? {}) };
  const nodeAffinity: NodeAffinity = { ...(affinity.nodeAffinity ?? {}) };
  if (subset.preferredNodeSelector && subset.preferredNodeSelector.length > 0)
    nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution = [
      ...((nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution as unknown[] | undefined) ?? []),
      ...subset.preferredNodeSelector,
    ];
  if (subset.requiredNodeSelector) {
    const required = subset.requiredNodeSelector;
    const terms = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
    nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
      ...(nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution ?? {}),
      nodeSelectorTerms: terms.length === 0 ? [required] : terms.map((t) => andTerm(t, required)),
    };
  }
  affinity.nodeAffinity = nodeAffinity;
  spec.affinity = affinity;
  let out: Pod = { ...pod, spec };
  if (subset.patch && Object.keys(subset.patch).length > 0) {
    const patched = strategicMergePod(out as unknown as JsonObject, subset.patch) as unknown as Pod;
    if (patched.spec.priorityClassName !== out.spec.priorityClassName) {
      const { priority: _p, ...rest } = patched.spec;
      patched.spec = rest;
    }
    out = patched;
  }
  return {
    ...out,
    metadata: {
      ...out.metadata,
      annotations: {
        ...(out.metadata.annotations ?? {}),
        [ANNOTATION_MATCHED_WORKLOADSPREAD]: injectedAnnotation({
          name: ws.metadata.name ?? '',
          subset: subsetName,
          uid,
        }),
      },
    },
  };
}
