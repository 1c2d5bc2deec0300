/**
 * OpenKruise: pkg/controller/statefulset/stateful_set_utils.go `isRunningAndAvailable`, `isRunningAndReady`,
 * `isCreated`, `isPending`, `isFailed`, `isSucceeded`, `isTerminating`, `isHealthy`, `getPodRevision`,
 * `getMinReadySeconds`, `allowsBurst`.
 *
 * The pod predicates of the Advanced StatefulSet controller (they differ from CloneSet's: `isHealthy` ignores the
 * in-place readiness gate, and availability waits return the remaining time).
 */
import { LifecycleState } from '../../../api/keys.js';
import type { Pod } from '../../../api/types.js';
import { getPodCondition, isRunningReady, lifecycleState } from '../../../podset/pods.js';
import { LABEL_STATEFULSET_REVISION } from '../api/keys.js';
import type { StatefulSet } from '../api/types.js';

/** The pod's `controller-revision-hash` label, `''` without one. */
export function statefulPodRevision(pod: Pod): string {
  return pod.metadata.labels?.[LABEL_STATEFULSET_REVISION] ?? '';
}

/** Created and maintained by the API server: it has a phase (a pod planned in this pass has none). */
export const isCreated = (pod: Pod): boolean => !!pod.status?.phase;
/** Phase Pending. */
export const isPending = (pod: Pod): boolean => pod.status?.phase === 'Pending';
/** Phase Failed. */
export const isFailed = (pod: Pod): boolean => pod.status?.phase === 'Failed';
/** Phase Succeeded. */
export const isSucceeded = (pod: Pod): boolean => pod.status?.phase === 'Succeeded';
/** `deletionTimestamp` set. */
export const isTerminating = (pod: Pod): boolean => !!pod.metadata.deletionTimestamp;

/** Phase Running and condition Ready True: the shared `running-ready` predicate (lib/podset/pods.ts). */
export const isRunningAndReady: (pod: Pod) => boolean = isRunningReady;

/** Lifecycle state absent or Normal. */
function lifecycleNormal(pod: Pod): boolean {
  const state = lifecycleState(pod);
  return state === '' || state === LifecycleState.Normal;
}

/** Lifecycle Normal (or none), running and ready, not terminating. */
export function isHealthy(pod: Pod): boolean {
  return lifecycleNormal(pod) && isRunningAndReady(pod) && !isTerminating(pod);
}

/**
 * Whether the pod is available: lifecycle Normal (or none), running and ready, for `minReadySeconds` since the
 * Ready condition's last transition.
 * @returns `waitMs` > 0 when it will be available after that long (a Ready condition without a transition time
 *   waits the whole `minReadySeconds`), else 0
 */
export function runningAndAvailable(
  pod: Pod,
  minReadySeconds: number,
  now: Date,
): { available: boolean; waitMs: number } {
  if (!lifecycleNormal(pod) || !isRunningAndReady(pod)) return { available: false, waitMs: 0 };
  if (minReadySeconds === 0) return { available: true, waitMs: 0 };
  const t = getPodCondition(pod, 'Ready')?.lastTransitionTime;
  if (!t) return { available: false, waitMs: minReadySeconds * 1000 };
  const waitMs = Date.parse(t) + minReadySeconds * 1000 - now.getTime();
  return waitMs > 0 ? { available: false, waitMs } : { available: true, waitMs: 0 };
}

/** `rollingUpdate.minReadySeconds`, 0 without one. */
export function minReadySecondsOf(sts: StatefulSet): number {
  return sts.spec.updateStrategy?.rollingUpdate?.minReadySeconds ?? 0;
}

/** Parallel pod management: pods are created and deleted without waiting for their predecessors. */
export function allowsBurst(sts: StatefulSet): boolean {
  return sts.spec.podManagementPolicy === 'Parallel';
}
