/**
 * OpenKruise: pkg/controller/workloadspread/workloadspread_controller.go `groupPodBySubset`,
 * `getSuitableSubsetNameForPod`, `getAndUpdateSuitableSubsetName` and `patchFavoriteSubsetMetadataToPod`, over
 * workloadspread_controller_utils.go `matchesSubset`, `podPreferredScore` and
 * `matchesSubsetRequiredAndToleration` (v1.9.0).
 *
 * The controller's grouping of one version's pods by subset, taking in the pods no subset of this WorkloadSpread
 * placed (created before it, or placed by another): such a pod on a node goes to the subset that fits it best, and
 * gets the subset's annotation (and the `metadata` of the subset's `patch`, unless the WorkloadSpread is annotated
 * `workloadspread.kruise.io/ignore-patch-existing-pods-metadata: "true"`) by a strategic-merge patch.
 *
 * A subset fits when the node's taints are all tolerated by the pod's tolerations with the subset's, and the node
 * matches the pod's required node terms each ANDed with the subset's `requiredNodeSelector` (without pod terms: the
 * subset's term alone; without a subset term: any node). Among fitting subsets, in spec order, the first with the
 * highest score wins: 100 × the weights of the subset's preferred terms the node matches, + 10 when applying the
 * subset's patch would not change the pod (annotations aside), + 1 while the subset still misses pods (its maximum,
 * or 2³¹-1 without one, minus the pods already placed in it and taken in so far). A pod without a node, on a node
 * that no longer exists, or that fits no subset goes to the fake subset; so does a pod placed in a subset the spec no
 * longer has.
 */
import { scaledValueFromIntOrPercent } from '../../../api/intOrPercent.js';
import type { Node, NodeSelectorTerm, Toleration } from '../../../api/node.js';
import type { JsonObject, Pod } from '../../../api/types.js';
import { nodeSelectorTermMatches, untoleratedTaint } from '../../../podset/nodeFit.js';
import {
  ANNOTATION_IGNORE_PATCH_EXISTING_PODS,
  ANNOTATION_MATCHED_WORKLOADSPREAD,
  FAKE_SUBSET_NAME,
} from '../api/keys.js';
import type { WorkloadSpread, WorkloadSpreadSubset } from '../api/types.js';
import { injectedAnnotation, placedBy } from './injected.js';
import { strategicMergePod } from './strategicMerge.js';
import { canonicalJson } from './canonical.js';

/** Subset name (or the fake subset) → its pods, in input order. */
export type SubsetPods = Map<string, Pod[]>;

/** A pod taken into a subset: the strategic-merge patch body that records it. */
export interface PodAdoption {
  pod: string;
  subset: string;
  patch: { metadata: JsonObject };
}

/** Go's `math.MaxInt32`: the room of a subset without a maximum. */
const MAX_INT32 = 2_147_483_647;

/** Whether the subset's required term and tolerations let the pod be on `node`. */
function fitsRequired(pod: Pod, node: Node, subset: WorkloadSpreadSubset): boolean {
  const podTolerations = (pod.spec?.tolerations as Toleration[] | undefined) ?? [];
  const tolerations = [...podTolerations, ...(subset.tolerations ?? [])];
  if (untoleratedTaint(node.spec?.taints ?? [], tolerations, () => true)) return false;
  const required = subset.requiredNodeSelector;
  if (!required) return true;
  const affinity = pod.spec?.affinity as
    | {
        nodeAffinity?: {
          requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
        };
      }
    | undefined;
  const podTerms =
    affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const terms: NodeSelectorTerm[] =
    podTerms.length === 0
      ? [required]
      : podTerms.map((t) => ({
          matchExpressions: [...(t.matchExpressions ?? []), ...(required.matchExpressions ?? [])],
          matchFields: [...(t.matchFields ?? []), ...(required.matchFields ?? [])],
        }));
  return terms.some((t) => nodeSelectorTermMatches(t, node));
}

/** 1 when the subset's patch leaves the pod as it is (annotations aside), else 0. */
function patchScore(pod: Pod, patch: JsonObject): number {
  let patched: JsonObject;
  try {
    patched = strategicMergePod(pod as unknown as JsonObject, patch);
  } catch {
    return 0;
  }
  const meta = { ...((patched.metadata as JsonObject | undefined) ?? {}) };
  if (pod.metadata.annotations === undefined) delete meta.annotations;
  else meta.annotations = pod.metadata.annotations;
  return canonicalJson({ ...patched, metadata: meta }) === canonicalJson(pod) ? 1 : 0;
}

/** The subset's score for the pod on `node`, or undefined when it does not fit (see the module doc). */
function subsetScore(
  pod: Pod,
  node: Node,
  subset: WorkloadSpreadSubset,
  missing: number,
): number | undefined {
  if (!fitsRequired(pod, node, subset)) return undefined;
  const preferred = (subset.preferredNodeSelector ?? [])
    .filter((t) => t.weight !== 0 && nodeSelectorTermMatches(t.preference, node))
    .reduce((sum, t) => sum + t.weight, 0);
  const podScore = subset.patch ? patchScore(pod, subset.patch) : 0;
  return preferred * 100 + podScore * 10 + (missing > 0 ? 1 : 0);
}

/** The patch that records the pod in `subset` (see the module doc). */
function adoptionPatch(ws: WorkloadSpread, subset: WorkloadSpreadSubset): { metadata: JsonObject } {
  const ignore =
    (ws.metadata.annotations?.[ANNOTATION_IGNORE_PATCH_EXISTING_PODS] ?? '').toLowerCase() === 'true';
  const fromPatch = subset.patch && !ignore ? subset.patch.metadata : undefined;
  const metadata: JsonObject =
    fromPatch && typeof fromPatch === 'object' && !Array.isArray(fromPatch) ? { ...fromPatch } : {};
  const annotations = metadata.annotations;
  const value = injectedAnnotation({ name: ws.metadata.name ?? '', subset: subset.name });
  metadata.annotations =
    annotations && typeof annotations === 'object' && !Array.isArray(annotations)
      ? { ...annotations, [ANNOTATION_MATCHED_WORKLOADSPREAD]: value }
      : { [ANNOTATION_MATCHED_WORKLOADSPREAD]: value };
  return { metadata };
}

/**
 * One version's pods by subset, with the pods taken in and their patches (see the module doc).
 * @param replicas the target's replicas, for percentages
 * @param nodes the nodes of the pods not placed by this WorkloadSpread, by name (a missing one: gone)
 */
export function groupWithExisting(
  ws: WorkloadSpread,
  pods: readonly Pod[],
  replicas: number,
  nodes: ReadonlyMap<string, Node>,
): { podMap: SubsetPods; adoptions: PodAdoption[] } {
  const name = ws.metadata.name ?? '';
  const podMap: SubsetPods = new Map([[FAKE_SUBSET_NAME, []]]);
  const missing = new Map<string, number>();
  for (const s of ws.spec.subsets) {
    podMap.set(s.name, []);
    let max: number;
    try {
      max = scaledValueFromIntOrPercent(s.maxReplicas ?? MAX_INT32, replicas, 'up');
    } catch {
      max = 0;
    }
    missing.set(s.name, max);
  }
  for (const pod of pods) {
    const subset = placedBy(pod, name)?.subset;
    if (subset !== undefined && missing.has(subset)) missing.set(subset, (missing.get(subset) ?? 0) - 1);
  }
  const adoptions: PodAdoption[] = [];
  for (const pod of pods) {
    const placed = placedBy(pod, name);
    let subset: string | undefined = placed?.subset;
    if (!placed) {
      const node = pod.spec?.nodeName ? nodes.get(pod.spec.nodeName) : undefined;
      let best: WorkloadSpreadSubset | undefined;
      let bestScore = -1;
      for (const s of node ? ws.spec.subsets : []) {
        const score = subsetScore(pod, node as Node, s, missing.get(s.name) ?? 0);
        if (score !== undefined && score > bestScore) {
          best = s;
          bestScore = score;
        }
      }
      if (best) {
        adoptions.push({ pod: pod.metadata.name ?? '', subset: best.name, patch: adoptionPatch(ws, best) });
        missing.set(best.name, (missing.get(best.name) ?? 0) - 1);
        subset = best.name;
      }
    }
    const list = (subset !== undefined ? podMap.get(subset) : undefined) ?? podMap.get(FAKE_SUBSET_NAME);
    list?.push(pod);
  }
  return { podMap, adoptions };
}
