/**
 * OpenKruise: pkg/controller/workloadspread/reschedule.go `rescheduleSubset` and `PodUnscheduledTimeout`, the
 * Adaptive branch of `calculateWorkloadSpreadSubsetStatuses` (workloadspread_controller.go), the condition helpers of
 * workloadspread_controller_utils.go and pkg/controller/util/pod_condition_utils.go `GetTimeBeforePendingTimeout`
 * (v1.9.0).
 *
 * The Adaptive strategy, per subset, in spec order. It is on when `scheduleStrategy.type` is `Adaptive` and
 * `adaptive.rescheduleCriticalSeconds` is above 0; off, a subset carries no `Schedulable` condition. A pod of the subset
 * is unschedulable once it is Pending, unbound, not being deleted, with `PodScheduled=False` reason `Unschedulable`,
 * and its creation is more than `rescheduleCriticalSeconds` ago (until then the pass looks again at that moment).
 * Every subset but the last: with such a pod it is marked `Schedulable=False` reason `PodUnschedulable` and those pods
 * are deleted (so their workload creates them again, in another subset); without one it is marked `True` reason
 * `Sufficient` the first time, and a `False` mark older than 5 minutes turns back to `True` / `Sufficient` with a
 * Normal `RecoverSchedulable` Event (until then the pass looks again at that moment). The last subset is always
 * `True` / `Sufficient`. A mark keeps its `lastTransitionTime` while its status stays (a new `reason` replaces the old
 * one; the same reason keeps the whole old condition); a new status gets the pass's time at whole seconds and an
 * empty message. Pure.
 */
import type { Pod } from '../../../api/types.js';
import { CONDITION_SUBSET_SCHEDULABLE } from '../api/keys.js';
import type { WorkloadSpread, WorkloadSpreadSubsetCondition } from '../api/types.js';
import { rfc3339Seconds } from './ledger.js';

/** How long a subset stays marked unschedulable before it is tried again, ms (upstream's `MaxScheduledFailedDuration`). */
export const MAX_SCHEDULED_FAILED_DURATION_MS = 300_000;

/** The reason of a `Schedulable=False` mark. */
export const REASON_POD_UNSCHEDULABLE = 'PodUnschedulable';

/** The reason of a `Schedulable=True` mark. */
export const REASON_SUFFICIENT = 'Sufficient';

/** The Normal Event of a subset tried again after {@link MAX_SCHEDULED_FAILED_DURATION_MS}. */
export const REASON_RECOVER_SCHEDULABLE = 'RecoverSchedulable';

/**
 * `adaptive.rescheduleCriticalSeconds` when the strategy is `Adaptive`, else 0 (rescheduling off; upstream reads the
 * field only under that type).
 */
export function rescheduleCriticalSeconds(ws: WorkloadSpread): number {
  const strategy = ws.spec.scheduleStrategy;
  if (strategy?.type !== 'Adaptive') return 0;
  return strategy.adaptive?.rescheduleCriticalSeconds ?? 0;
}

/** Whether a pod waits on the scheduler, and how long it still may before it counts as unschedulable. */
export interface PendingTimeout {
  /** More than the critical time has passed since the pod's creation. */
  timedOut: boolean;
  /** Not yet timed out: ms until it is (absent when the pod is not an unschedulable pending pod, or right at it). */
  recheckAfterMs?: number;
}

/**
 * Whether `pod` has been unschedulable for longer than `criticalMs` since its creation (`GetTimeBeforePendingTimeout`):
 * Pending, no `nodeName`, no `deletionTimestamp`, a `PodScheduled` condition `False` reason `Unschedulable`.
 * @param criticalMs the critical time, ms
 * @param now ms since the epoch
 */
export function pendingTimeout(pod: Pod, criticalMs: number, now: number): PendingTimeout {
  if (pod.metadata.deletionTimestamp || pod.status?.phase !== 'Pending' || pod.spec.nodeName)
    return { timedOut: false };
  const failed = (pod.status.conditions ?? []).some(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );
  if (!failed) return { timedOut: false };
  const expires = Date.parse(pod.metadata.creationTimestamp ?? '') + criticalMs;
  if (expires < now) return { timedOut: true };
  return expires > now ? { timedOut: false, recheckAfterMs: expires - now } : { timedOut: false };
}

/**
 * `condition` laid over `current` (upstream's `setWorkloadSpreadSubsetCondition`): the same status and reason keep
 * `current` whole; the same status with another reason keeps `current`'s `lastTransitionTime`; anything else is
 * `condition` as given.
 */
export function mergeCondition(
  current: WorkloadSpreadSubsetCondition | undefined,
  condition: WorkloadSpreadSubsetCondition,
): WorkloadSpreadSubsetCondition {
  if (!current || current.status !== condition.status) return condition;
  if (current.reason === condition.reason) return current;
  const { lastTransitionTime: _t, ...rest } = condition;
  return current.lastTransitionTime !== undefined
    ? { ...rest, lastTransitionTime: current.lastTransitionTime }
    : rest;
}

/** What the Adaptive strategy decides for one subset. */
export interface SubsetSchedule {
  /** The subset's `Schedulable` condition; absent when the strategy is off. */
  condition?: WorkloadSpreadSubsetCondition;
  /** The subset's pods to delete, in the order given. */
  unschedulablePods: Pod[];
  /** The subset turned back to schedulable: the Normal Event's message. */
  recovered?: string;
  /** When to look again, ms from now (each a pod's timeout or the mark's expiry). */
  recheck: number[];
}

/** One subset's inputs to {@link planSubsetSchedule}. */
export interface SubsetScheduleInput {
  ws: WorkloadSpread;
  /** The subset's index in `spec.subsets`. */
  index: number;
  /** The subset's pods. */
  pods: readonly Pod[];
  /** The `Schedulable` condition of the subset's old status, if any. */
  old?: WorkloadSpreadSubsetCondition;
  /** ms since the epoch */
  now: number;
}

const fresh = (status: 'True' | 'False', reason: string, now: number): WorkloadSpreadSubsetCondition => ({
  type: CONDITION_SUBSET_SCHEDULABLE,
  status,
  reason,
  message: '',
  lastTransitionTime: rfc3339Seconds(new Date(now)),
});

/** The Adaptive strategy's decision for one subset (see the module doc). */
export function planSubsetSchedule(input: SubsetScheduleInput): SubsetSchedule {
  const { ws, index, pods, old, now } = input;
  const critical = rescheduleCriticalSeconds(ws);
  if (critical <= 0) return { unschedulablePods: [], recheck: [] };
  const sufficient = fresh('True', REASON_SUFFICIENT, now);
  if (index === ws.spec.subsets.length - 1)
    return { condition: mergeCondition(old, sufficient), unschedulablePods: [], recheck: [] };
  const recheck: number[] = [];
  const unschedulablePods: Pod[] = [];
  for (const pod of pods) {
    const t = pendingTimeout(pod, critical * 1000, now);
    if (t.timedOut) unschedulablePods.push(pod);
    else if (t.recheckAfterMs !== undefined) recheck.push(t.recheckAfterMs);
  }
  if (unschedulablePods.length > 0)
    return {
      condition: mergeCondition(old, fresh('False', REASON_POD_UNSCHEDULABLE, now)),
      unschedulablePods,
      recheck,
    };
  if (!old) return { condition: sufficient, unschedulablePods, recheck };
  if (old.status !== 'False') return { condition: old, unschedulablePods, recheck };
  // a mark without a time counts from Go's zero time: long expired
  const since = old.lastTransitionTime ? Date.parse(old.lastTransitionTime) : -Infinity;
  const expires = since + MAX_SCHEDULED_FAILED_DURATION_MS;
  if (expires < now) {
    const name = ws.spec.subsets[index]?.name ?? '';
    const { namespace = '', name: wsName = '' } = ws.metadata;
    return {
      condition: mergeCondition(old, sufficient),
      unschedulablePods,
      recovered: `Subset ${name} of WorkloadSpread ${namespace}/${wsName} is recovered from unschedulable to schedulable`,
      recheck,
    };
  }
  // right at the expiry upstream neither recovers nor requeues (its requeue store ignores 0)
  if (expires > now) recheck.push(expires - now);
  return { condition: old, unschedulablePods, recheck };
}
