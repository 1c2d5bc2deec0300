/**
 * OpenKruise: pkg/controller/cloneset/utils/pod_sorter.go `ActivePodsWithRanks.Less`, `afterOrZero`,
 * `podReadyTime`, `maxContainerRestarts`; Kubernetes pkg/controller/controller_utils.go `ActivePods.Less`.
 *
 * The active-pods order, which is Kubernetes' order plus the availability, deletion-cost and rank steps
 * (OpenKruise's `commonControl.GetPodsSortFunc` uses the Kubernetes order for update candidates). One
 * comparator serves both the scale-in victim order and the update order (for CloneSet lib/controllers/cloneset/plan/sync/victims.ts
 * and sync/updateSort.ts); see docs/behaviour/cloneset.md#scale-in-victims and
 * docs/behaviour/cloneset.md#update-order. Pure functions; inputs are not modified.
 */
import type { Pod } from '../api/types.js';
import { getPodCondition, isPodReady, podDeletionCost, timeMillis } from './pods.js';

/** A pod's rank: higher ranks sort first (are deleted first). Pods absent from the map rank 0. */
export type Ranks = Map<Pod, number>;

/** Which optional steps of the order apply. With none set the order is Kubernetes' `ActivePods`. */
export interface ActivePodsOrder {
  /** Compare `controller.kubernetes.io/pod-deletion-cost` (lower first), as `ActivePodsWithRanks` does. */
  deletionCost?: boolean;
  /** Rank of each pod (higher first); absent ⇒ every rank is 0. */
  ranks?: Ranks;
  /** The `available(pod)` predicate (not available first); absent ⇒ the step is skipped. */
  available?: (pod: Pod) => boolean;
}

/** What the order reads from a pod, extracted once per pod (see {@link activePodKey}). */
export interface ActivePodKey {
  scheduled: boolean;
  /** Pending (and any unlisted phase) 0, Unknown 1, Running 2. */
  phase: number;
  /** `available(pod)`, or `true` when the order has no availability step. */
  available: boolean;
  ready: boolean;
  /** Pod deletion cost, or 0 when the order has no cost step. */
  cost: number;
  rank: number;
  /** Ready transition time, ms since the epoch (0 = zero time); only compared when both pods are ready. */
  readyTime: number;
  restarts: number;
  /** Creation time, ms since the epoch (0 = zero time). */
  created: number;
}

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** The order's view of `pod` under `order`. */
export function activePodKey(pod: Pod, order: ActivePodsOrder = {}): ActivePodKey {
  const ready = isPodReady(pod);
  return {
    scheduled: (pod.spec.nodeName ?? '') !== '',
    phase: PHASE_ORDINAL[pod.status?.phase ?? ''] ?? 0,
    available: order.available ? order.available(pod) : true,
    ready,
    cost: order.deletionCost ? podDeletionCost(pod) : 0,
    rank: order.ranks?.get(pod) ?? 0,
    readyTime: ready ? timeMillis(getPodCondition(pod, 'Ready')?.lastTransitionTime) : 0,
    restarts: Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0)),
    created: timeMillis(pod.metadata.creationTimestamp),
  };
}

/**
 * Go's `afterOrZero` as a comparator on ms (0 = zero time): the zero time first, otherwise the later time
 * first.
 */
function afterOrZero(a: number, b: number): number {
  if (a === 0 || b === 0) return a === 0 ? -1 : 1;
  return b - a;
}

/**
 * Compares two extracted keys: negative when `a` is the less valuable pod (sorts first). Order: unscheduled
 * first; phase Pending < Unknown < Running; not available first; not Ready first; lower deletion cost first;
 * higher rank first; when both Ready, more recent Ready transition first (zero time first); more container
 * restarts first; newer creationTimestamp first (zero time first); otherwise 0.
 */
export function compareActivePodKeys(a: ActivePodKey, b: ActivePodKey): number {
  if (a.scheduled !== b.scheduled) return a.scheduled ? 1 : -1;
  if (a.phase !== b.phase) return a.phase - b.phase;
  if (a.available !== b.available) return a.available ? 1 : -1;
  if (a.ready !== b.ready) return a.ready ? 1 : -1;
  if (a.cost !== b.cost) return a.cost - b.cost;
  if (a.rank !== b.rank) return b.rank - a.rank;
  if (a.ready && b.ready && a.readyTime !== b.readyTime) return afterOrZero(a.readyTime, b.readyTime);
  if (a.restarts !== b.restarts) return b.restarts - a.restarts;
  if (a.created !== b.created) return afterOrZero(a.created, b.created);
  return 0;
}

/**
 * The scale-in comparator, as OpenKruise's `ActivePodsWithRanks.Less` (deletion cost always compared):
 * negative when `a` should be deleted before `b`. `opts.ranks` and `opts.available` add the rank and
 * availability steps.
 */
export function comparePodsForDeletion(
  a: Pod,
  b: Pod,
  opts: Omit<ActivePodsOrder, 'deletionCost'> = {},
): number {
  const order: ActivePodsOrder = { ...opts, deletionCost: true };
  return compareActivePodKeys(activePodKey(a, order), activePodKey(b, order));
}

/**
 * Kubernetes' `ActivePods.Less`: whether `a` is less valuable than `b` (no cost, rank or availability step).
 */
export function activePodsLess(a: Pod, b: Pod): boolean {
  return compareActivePodKeys(activePodKey(a), activePodKey(b)) < 0;
}

/**
 * Stable sort of `items` by `compare` on a key read once per item (decorate, sort, undecorate), so
 * comparisons do not re-read pods; ties keep input order (Go's `sort.Sort` is unstable: ties have no defined
 * order there).
 * @returns a new array; the input is not modified
 */
export function stableSortBy<T, K>(
  items: readonly T[],
  keyOf: (item: T) => K,
  compare: (a: K, b: K) => number,
): T[] {
  return items
    .map((item, pos) => ({ item, pos, key: keyOf(item) }))
    .sort((x, y) => compare(x.key, y.key) || x.pos - y.pos)
    .map((x) => x.item);
}
