/**
 * OpenKruise: pkg/controller/cloneset/sync/cloneset_scale.go `choosePodsToDelete`;
 * pkg/controller/cloneset/utils/pod_sorter.go `NewSameNodeRanker`, `NewSpreadConstraintsRanker`.
 *
 * Scale-in victim ordering (docs/behaviour/cloneset.md#scale-in-victims): the deletion comparator, the
 * same-node and topology-spread rankers, and the split of victims between not-updated and updated pods. Pure
 * functions; time comes in through the context.
 */
import type { Pod } from '../../../../api/types.js';
import { isPodAvailable } from '../../../../podset/pods.js';
import {
  activePodKey,
  compareActivePodKeys,
  stableSortBy,
  type ActivePodsOrder,
  type Ranks,
} from '../../../../podset/podOrder.js';
import type { NodeLabels, PhaseContext } from '../types.js';

export type { NodeLabels } from '../types.js';

const HOSTNAME_KEY = 'kubernetes.io/hostname';

/**
 * Same-node ranks (docs/behaviour/cloneset.md#scale-in-victims): for each node hosting ≥ 2 of `pods`, sort
 * them with the comparator (no rank, no availability step) and give the i-th (0-based) `(n − 1) − i`; the
 * last one, and pods alone on a node or unscheduled, get 0. Scenario 59: nodes a:{0,4,10}, b:{3,6}, c:{5},
 * d:{7,8,9} → `{0:2, 4:1, 3:1, 7:2, 8:1}`.
 */
export function sameNodeRanks(pods: Pod[]): Ranks {
  const ranks: Ranks = new Map();
  for (const group of groupBy(pods, (p) => p.spec.nodeName ?? '').values()) {
    if (group.length <= 1 || !group[0].spec.nodeName) continue;
    const sorted = sortByDeletionOrder(group, {});
    sorted.slice(0, -1).forEach((p, i) => ranks.set(p, sorted.length - 1 - i));
  }
  return ranks;
}

/**
 * Topology-spread ranks (docs/behaviour/cloneset.md#scale-in-victims), used when the template has
 * `topologySpreadConstraints`: for each constraint's `topologyKey`, pods are grouped by their node's label
 * value (pods on nodes without the key, or whose node labels are unknown, get nothing for that key); each
 * group is sorted with the comparator (with same-node ranks for keys other than `kubernetes.io/hostname`) and
 * the i-th pod of a group of n gains `(n − i) · ln(groups + 2)`.
 * @param nodeLabels labels of the pods' nodes, by node name
 */
export function spreadRanks(pods: Pod[], topologyKeys: string[], nodeLabels: NodeLabels): Ranks {
  const ranks: Ranks = new Map();
  const sameNode = sameNodeRanks(pods);
  for (const key of topologyKeys) {
    const groups = groupBy(
      pods.filter((p) => p.spec.nodeName && nodeLabels[p.spec.nodeName]?.[key] !== undefined),
      (p) => nodeLabels[p.spec.nodeName ?? '']?.[key] ?? '',
    );
    const weight = Math.log(groups.size + 2);
    const opts: ActivePodsOrder = key === HOSTNAME_KEY ? {} : { ranks: sameNode };
    for (const group of groups.values()) {
      const sorted = sortByDeletionOrder(group, opts);
      sorted.forEach((p, i) => ranks.set(p, (ranks.get(p) ?? 0) + (sorted.length - i) * weight));
    }
  }
  return ranks;
}

/**
 * `pods` in deletion order (docs/behaviour/cloneset.md#scale-in-victims), first victim first. Ranks come from
 * {@link spreadRanks} when the template has topologySpreadConstraints and `nodeLabels` is given, else from
 * {@link sameNodeRanks} (Kruiseless has no Node objects in the planner; without node labels it falls back to
 * the same-node ranker — a documented deviation). Ties keep input order (OpenKruise's sort is unstable; ties
 * have no defined order there).
 * @returns a new array; the input is not modified
 */
export function sortForDeletion(ctx: PhaseContext, pods: Pod[], nodeLabels?: NodeLabels): Pod[] {
  const keys = (ctx.cloneSet.spec.template.spec.topologySpreadConstraints ?? []).map((c) => c.topologyKey);
  const ranks = keys.length > 0 && nodeLabels ? spreadRanks(pods, keys, nodeLabels) : sameNodeRanks(pods);
  const available = (p: Pod) => isPodAvailable(p, ctx.strategy.minReadySeconds, ctx.now);
  return sortByDeletionOrder(pods, { ranks, available });
}

/**
 * Scale-in victims (docs/behaviour/cloneset.md#scale-in-victims): with `scaleDownNumOld ≥ scaleDownNum` all
 * come from not-updated pods; with `0 < scaleDownNumOld < scaleDownNum`, `scaleDownNumOld` from not-updated
 * then the rest from updated; otherwise all from updated. Within a group smaller than or equal to the count
 * the whole group is taken (unsorted); otherwise the first `count` of {@link sortForDeletion} (ranks computed
 * within the group).
 * @param pods claimed active pods (list order)
 * @param scaleDownNum D, pods to remove (≥ 0)
 * @param scaleDownNumOld D_old, of which from not-updated pods
 * @param isUpdated the scale-phase predicate (docs/behaviour/cloneset.md#pod-predicates)
 * @param nodeLabels optional node labels for the topology-spread ranker
 * @returns victims, not-updated ones first, each group in deletion order
 */
export function chooseScaleDownVictims(
  ctx: PhaseContext,
  pods: Pod[],
  scaleDownNum: number,
  scaleDownNumOld: number,
  isUpdated: (pod: Pod) => boolean,
  nodeLabels?: NodeLabels,
): Pod[] {
  const updated = pods.filter((p) => isUpdated(p));
  const notUpdated = pods.filter((p) => !isUpdated(p));
  const choose = (group: Pod[], n: number): Pod[] =>
    n >= group.length ? [...group] : sortForDeletion(ctx, group, nodeLabels).slice(0, n);
  if (scaleDownNumOld >= scaleDownNum) return choose(notUpdated, scaleDownNum);
  if (scaleDownNumOld > 0) {
    return [...choose(notUpdated, scaleDownNumOld), ...choose(updated, scaleDownNum - scaleDownNumOld)];
  }
  return choose(updated, scaleDownNum);
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** `pods` stably sorted by OpenKruise's `ActivePodsWithRanks` order (deletion cost always compared). */
function sortByDeletionOrder(pods: Pod[], order: Omit<ActivePodsOrder, 'deletionCost'>): Pod[] {
  const withCost: ActivePodsOrder = { ...order, deletionCost: true };
  return stableSortBy(pods, (p) => activePodKey(p, withCost), compareActivePodKeys);
}
