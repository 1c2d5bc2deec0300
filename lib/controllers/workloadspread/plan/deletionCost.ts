/**
 * OpenKruise: pkg/controller/workloadspread/update_pod_deletion_cost.go `updateDeletionCost`,
 * `updateDeletionCostBySubset`, `syncSubsetPodDeletionCost` and `patchPodDeletionCost` (v1.9.0).
 *
 * The scale-down order a WorkloadSpread imposes on a CloneSet's, Deployment's or ReplicaSet's pods through the
 * `controller.kubernetes.io/pod-deletion-cost` annotation. Per version, subsets in spec order (reversed for a version
 * other than the workload's latest): the active pods of subset `i` within its maximum cost `100 × (n - i)`; those over
 * it (the first ones in Kubernetes' `ActivePods` order: unscheduled, pending, not ready, … first) cost
 * `-100 × (i + 1)`; a subset without a maximum keeps all its pods positive; the fake subset's pods cost
 * `-100 × (n + 1)`. Only pods whose annotation differs are patched. Only a target of Kind ReplicaSet, Deployment or
 * CloneSet gets costs (`isEffectiveKindForDeletionCost`, the Kind alone compared): a StatefulSet removes its highest
 * ordinals whatever the annotation says.
 */
import type { Pod } from '../../../api/types.js';
import { activePodsLess } from '../../../podset/podOrder.js';
import { isPodActive } from '../../../podset/pods.js';
import {
  ANNOTATION_POD_DELETION_COST,
  FAKE_SUBSET_NAME,
  POD_DELETION_COST_NEGATIVE,
  POD_DELETION_COST_POSITIVE,
} from '../api/keys.js';
import type { WorkloadSpread } from '../api/types.js';
import { subsetMax } from './status.js';
import type { SubsetPods } from './subsetPods.js';

/** One annotation to write: the pod's name and the cost, as the annotation's string. */
export interface DeletionCostPatch {
  pod: string;
  cost: string;
}

/** The target Kinds whose pods get deletion costs (upstream's `isEffectiveKindForDeletionCost`). */
const COST_TARGET_KINDS: ReadonlySet<string> = new Set(['ReplicaSet', 'Deployment', 'CloneSet']);

/** Stable sort in Kubernetes' `ActivePods` order (least valuable first). */
function activeOrder(pods: readonly Pod[]): Pod[] {
  return pods
    .map((p, i) => [p, i] as const)
    .sort(([a, i], [b, j]) => (activePodsLess(a, b) ? -1 : activePodsLess(b, a) ? 1 : i - j))
    .map(([p]) => p);
}

function costPatches(pods: readonly Pod[], cost: number): DeletionCostPatch[] {
  const value = String(cost);
  return pods
    .filter((p) => {
      const current = p.metadata.annotations?.[ANNOTATION_POD_DELETION_COST];
      return current === undefined ? value !== '0' : current !== value;
    })
    .map((p) => ({ pod: p.metadata.name ?? '', cost: value }));
}

/**
 * The annotations to write (see the module doc).
 * @param byVersion the target's pods by version, then subset (./subsetPods.ts)
 * @param latestVersion the workload's latest version (`versionIgnored` for a CloneSet)
 * @param replicas the workload's replicas, for percentages
 */
export function planDeletionCosts(
  ws: WorkloadSpread,
  byVersion: ReadonlyMap<string, SubsetPods>,
  latestVersion: string,
  replicas: number,
): DeletionCostPatch[] {
  if (!COST_TARGET_KINDS.has(ws.spec.targetRef?.kind ?? '')) return [];
  const n = ws.spec.subsets.length;
  const out: DeletionCostPatch[] = [];
  for (const [version, podMap] of byVersion) {
    const reverse = version !== latestVersion;
    ws.spec.subsets.forEach((subset, idx) => {
      const index = reverse ? n - idx - 1 : idx;
      const active = (podMap.get(subset.name) ?? []).filter(isPodActive);
      const max = subsetMax(subset, replicas);
      if (max === undefined) return;
      let positive: Pod[] = active;
      let negative: Pod[] = [];
      if (max !== -1 && active.length > max) {
        const ordered = activeOrder(active);
        negative = ordered.slice(0, active.length - max);
        positive = ordered.slice(active.length - max);
      }
      out.push(...costPatches(positive, POD_DELETION_COST_POSITIVE * (n - index)));
      out.push(...costPatches(negative, POD_DELETION_COST_NEGATIVE * (index + 1)));
    });
    const fake = (podMap.get(FAKE_SUBSET_NAME) ?? []).filter(isPodActive);
    if (fake.length > 0) out.push(...costPatches(fake, POD_DELETION_COST_NEGATIVE * (n + 1)));
  }
  return out;
}
