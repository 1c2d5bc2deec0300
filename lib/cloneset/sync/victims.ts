/**
 * Scale-in victim ordering (spec §3.8): the deletion comparator, the same-node and topology-spread rankers, and
 * the split of victims between not-updated and updated pods. Pure functions; time comes in through the context.
 */
import type { Pod } from '../../api/types.js';
import { getPodCondition, isPodAvailable, isPodReady, podDeletionCost, timeMillis } from '../pods.js';
import type { PhaseContext } from '../types.js';

/** A pod's rank: higher ranks are deleted first (spec §3.8 step 6). Pods absent from the map rank 0. */
export type Ranks = Map<Pod, number>;

/** Options of {@link comparePodsForDeletion}. */
export interface DeletionOrderOptions {
  /** Rank of each pod (step 6); absent ⇒ every rank is 0. */
  ranks?: Ranks;
  /** The `available(pod, minReadySeconds)` predicate (step 3); absent ⇒ step 3 is skipped. */
  available?: (pod: Pod) => boolean;
}

/** Node labels by node name, for the topology-spread ranker (the planner itself has no Node objects). */
export type NodeLabels = Record<string, Record<string, string>>;

const HOSTNAME_KEY = 'kubernetes.io/hostname';

function phaseOrdinal(pod: Pod): number {
  const phase = pod.status?.phase;
  return phase === 'Running' ? 2 : phase === 'Unknown' ? 1 : 0;
}

function readyMillis(pod: Pod): number {
  const c = getPodCondition(pod, 'Ready');
  return c?.status === 'True' ? timeMillis(c.lastTransitionTime) : 0;
}

function maxRestarts(pod: Pod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
}

/** Negative when `a` (ms, 0 = zero time) sorts first: zero time first, otherwise the later time first. */
function afterOrZero(a: number, b: number): number {
  if (a === 0 || b === 0) return a === 0 ? -1 : 1;
  return b - a;
}

/**
 * The deletion comparator (spec §3.8 steps 1–10; OpenKruise's `ActivePodsWithRanks`): negative when `a` should
 * be deleted before `b`. Order: unscheduled first; phase Pending (and any unlisted phase) < Unknown < Running;
 * not available first (when `available` is given); not Ready first; lower pod-deletion-cost first; higher rank
 * first; when both Ready, more recent Ready transition first (zero time first); more container restarts first;
 * newer creationTimestamp first (zero first); otherwise 0.
 */
export function comparePodsForDeletion(a: Pod, b: Pod, opts: DeletionOrderOptions = {}): number {
  const na = a.spec.nodeName ?? '';
  const nb = b.spec.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '' ? -1 : 1;
  const pa = phaseOrdinal(a);
  const pb = phaseOrdinal(b);
  if (pa !== pb) return pa - pb;
  if (opts.available) {
    const aa = opts.available(a);
    if (aa !== opts.available(b)) return aa ? 1 : -1;
  }
  const ra = isPodReady(a);
  const rb = isPodReady(b);
  if (ra !== rb) return ra ? 1 : -1;
  const ca = podDeletionCost(a);
  const cb = podDeletionCost(b);
  if (ca !== cb) return ca - cb;
  const ka = opts.ranks?.get(a) ?? 0;
  const kb = opts.ranks?.get(b) ?? 0;
  if (ka !== kb) return kb - ka;
  if (ra && rb) {
    const ta = readyMillis(a);
    const tb = readyMillis(b);
    if (ta !== tb) return afterOrZero(ta, tb);
  }
  const xa = maxRestarts(a);
  const xb = maxRestarts(b);
  if (xa !== xb) return xb - xa;
  const cta = timeMillis(a.metadata.creationTimestamp);
  const ctb = timeMillis(b.metadata.creationTimestamp);
  if (cta !== ctb) return afterOrZero(cta, ctb);
  return 0;
}

/**
 * Same-node ranks (spec §3.8): for each node hosting ≥ 2 of `pods`, sort them with the comparator (no rank, no
 * availability step) and give the i-th (0-based) `(n − 1) − i`; the last one, and pods alone on a node or
 * unscheduled, get 0. Scenario 59: nodes a:{0,4,10}, b:{3,6}, c:{5}, d:{7,8,9} → `{0:2, 4:1, 3:1, 7:2, 8:1}`.
 */
export function sameNodeRanks(pods: Pod[]): Ranks {
  const ranks: Ranks = new Map();
  for (const group of groupBy(pods, (p) => p.spec.nodeName ?? '').values()) {
    if (group.length <= 1 || !group[0].spec.nodeName) continue;
    const sorted = stableSort(group, (a, b) => comparePodsForDeletion(a, b));
    sorted.slice(0, -1).forEach((p, i) => ranks.set(p, sorted.length - 1 - i));
  }
  return ranks;
}

/**
 * Topology-spread ranks (spec §3.8), used when the template has `topologySpreadConstraints`: for each constraint's
 * `topologyKey`, pods are grouped by their node's label value (pods on nodes without the key, or whose node labels
 * are unknown, get nothing for that key); each group is sorted with the comparator (with same-node ranks for keys
 * other than `kubernetes.io/hostname`) and the i-th pod of a group of n gains `(n − i) · ln(groups + 2)`.
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
    const opts: DeletionOrderOptions = key === HOSTNAME_KEY ? {} : { ranks: sameNode };
    for (const group of groups.values()) {
      const sorted = stableSort(group, (a, b) => comparePodsForDeletion(a, b, opts));
      sorted.forEach((p, i) => ranks.set(p, (ranks.get(p) ?? 0) + (sorted.length - i) * weight));
    }
  }
  return ranks;
}

/**
 * `pods` in deletion order (spec §3.8), first victim first. Ranks come from {@link spreadRanks} when the template
 * has topologySpreadConstraints and `nodeLabels` is given, else from {@link sameNodeRanks} (Kruiseless has no Node
 * objects in the planner; without node labels it falls back to the same-node ranker — a documented deviation).
 * Ties keep input order (OpenKruise's sort is unstable; ties have no defined order there).
 * @returns a new array; the input is not modified
 */
export function sortForDeletion(ctx: PhaseContext, pods: Pod[], nodeLabels?: NodeLabels): Pod[] {
  const keys = (ctx.cloneSet.spec.template.spec.topologySpreadConstraints ?? []).map((c) => c.topologyKey);
  const ranks = keys.length > 0 && nodeLabels ? spreadRanks(pods, keys, nodeLabels) : sameNodeRanks(pods);
  const available = (p: Pod) => isPodAvailable(p, ctx.strategy.minReadySeconds, ctx.now);
  return stableSort(pods, (a, b) => comparePodsForDeletion(a, b, { ranks, available }));
}

/**
 * Scale-in victims (spec §3.8): with `scaleDownNumOld ≥ scaleDownNum` all come from not-updated pods; with
 * `0 < scaleDownNumOld < scaleDownNum`, `scaleDownNumOld` from not-updated then the rest from updated; otherwise all
 * from updated. Within a group smaller than or equal to the count the whole group is taken (unsorted); otherwise
 * the first `count` of {@link sortForDeletion} (ranks computed within the group).
 * @param pods claimed active pods (list order)
 * @param scaleDownNum D, pods to remove (≥ 0)
 * @param scaleDownNumOld D_old, of which from not-updated pods
 * @param isUpdated the scale-phase predicate (spec §3.4)
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

function stableSort<T>(items: T[], cmp: (a: T, b: T) => number): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((x, y) => cmp(x.item, y.item) || x.i - y.i)
    .map(({ item }) => item);
}
