/**
 * OpenKruise: pkg/controller/cloneset/utils/cloneset_utils.go `IsRunningAndReady`, `IsRunningAndAvailable`,
 * `EqualToRevisionHash`, `GetShortHash`; pkg/controller/cloneset/sync/cloneset_sync_utils.go
 * `isSpecifiedDelete`, `IsPodAvailable`; pkg/controller/cloneset/core/cloneset_core.go `IsPodUpdateReady`;
 * pkg/util/lifecycle/lifecycle_utils.go `GetPodLifecycleState`; pkg/controller/cloneset/utils/pod_sorter.go
 * `getDeletionCostFromPodAnnotations`.
 *
 * Pod predicates used throughout the pod-set planners (docs/behaviour/cloneset.md#pod-predicates), revision
 * matching (docs/behaviour/cloneset.md#pod-labels) and lifecycle-hook evaluation
 * (docs/behaviour/cloneset.md#api-fields). Pure functions of their arguments; time comes in as `now`.
 */
import { isInt32 } from '../api/int32.js';
import {
  ANNOTATION_POD_DELETION_COST,
  CONDITION_INPLACE_UPDATE_READY,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_LIFECYCLE_STATE,
  LABEL_SPECIFIED_DELETE,
  LifecycleState,
  type LifecycleStateValue,
} from '../api/keys.js';
import type { LifecycleHook, Pod, PodCondition } from '../api/types.js';
import type { PodRef } from './actions.js';

/** The condition of `type` on the pod, if any. */
export function getPodCondition(pod: Pod, type: string): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/**
 * `{name, uid, resourceVersion}` of the listed pod version an action is planned against (action
 * preconditions); `resourceVersion` only when the pod has one.
 */
export function podRef(pod: Pod): PodRef {
  const ref: PodRef = { name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' };
  if (pod.metadata.resourceVersion) ref.resourceVersion = pod.metadata.resourceVersion;
  return ref;
}

/**
 * Active = not finished (`Succeeded`/`Failed`) and not terminating
 * (docs/behaviour/cloneset.md#reconcile-order).
 */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/** The pod's lifecycle state label, `''` when absent (docs/behaviour/cloneset.md#pod-labels). */
export function lifecycleState(pod: Pod): LifecycleStateValue {
  return (pod.metadata.labels?.[LABEL_LIFECYCLE_STATE] ?? '') as LifecycleStateValue;
}

/** The revision label `controller-revision-hash`, `''` when absent. */
export function podRevision(pod: Pod): string {
  return pod.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '';
}

/**
 * Revision matching (docs/behaviour/cloneset.md#pod-labels): the label equals `revision`, or the parts after
 * the last `-` of both are equal (so a short-hash label matches a full revision name and vice versa).
 */
export function revisionMatches(label: string, revision: string): boolean {
  if (label === revision) return true;
  if (!label || !revision) return false;
  return shortHash(label) === shortHash(revision);
}

/**
 * The hash suffix of a revision name: the part after the last `-` (the short hash,
 * docs/behaviour/cloneset.md#new-pods); the whole string when there is none.
 */
export function shortHash(revision: string): string {
  return revision.slice(revision.lastIndexOf('-') + 1);
}

/** Whether the pod's revision label matches `revision` (docs/behaviour/cloneset.md#pod-labels). */
export function podMatchesRevision(pod: Pod, revision: string): boolean {
  return revisionMatches(podRevision(pod), revision);
}

/** `running-ready` (docs/behaviour/cloneset.md#pod-predicates): phase Running and condition Ready=True. */
export function isRunningReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && getPodCondition(pod, 'Ready')?.status === 'True';
}

/** Ready=True regardless of phase (used by victim ordering, docs/behaviour/cloneset.md#scale-in-victims). */
export function isPodReady(pod: Pod): boolean {
  return getPodCondition(pod, 'Ready')?.status === 'True';
}

/**
 * `running-available` (docs/behaviour/cloneset.md#pod-predicates): running-ready, and ready for more than
 * `minReadySeconds`.
 * @param minReadySeconds seconds (0 = available as soon as ready)
 */
export function isRunningAvailable(pod: Pod, minReadySeconds: number, now: Date): boolean {
  if (!isRunningReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const t = getPodCondition(pod, 'Ready')?.lastTransitionTime;
  if (!t) return false;
  return Date.parse(t) + minReadySeconds * 1000 < now.getTime();
}

/**
 * `update-ready` (docs/behaviour/cloneset.md#pod-predicates): running-available and `InPlaceUpdateReady`, if
 * present, is True.
 */
export function isUpdateReady(pod: Pod, minReadySeconds: number, now: Date): boolean {
  if (!isRunningAvailable(pod, minReadySeconds, now)) return false;
  const c = getPodCondition(pod, CONDITION_INPLACE_UPDATE_READY);
  return !c || c.status === 'True';
}

/**
 * `available` (docs/behaviour/cloneset.md#pod-predicates): lifecycle state absent or `Normal`, and
 * update-ready. Pods in every other lifecycle state are never available.
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: Date): boolean {
  const state = lifecycleState(pod);
  if (state !== '' && state !== LifecycleState.Normal) return false;
  return isUpdateReady(pod, minReadySeconds, now);
}

/**
 * `specified-delete` (docs/behaviour/cloneset.md#pod-predicates): label present (any value) or name listed in
 * `podsToDelete`.
 */
export function isSpecifiedDelete(pod: Pod, podsToDelete: readonly string[] | undefined): boolean {
  if (pod.metadata.labels && LABEL_SPECIFIED_DELETE in pod.metadata.labels) return true;
  return !!podsToDelete && podsToDelete.includes(pod.metadata.name ?? '');
}

/**
 * Hooked: the pod carries any finalizer or any label pair of the hook
 * (docs/behaviour/cloneset.md#api-fields).
 */
export function isHookedBy(pod: Pod, hook: LifecycleHook | undefined): boolean {
  if (!hook) return false;
  const labels = pod.metadata.labels ?? {};
  const finalizers = pod.metadata.finalizers ?? [];
  return (
    (hook.finalizersHandler ?? []).some((f) => finalizers.includes(f)) ||
    Object.entries(hook.labelsHandler ?? {}).some(([k, v]) => labels[k] === v)
  );
}

/**
 * All-hooked: the pod carries every finalizer and every label pair of the hook; never for a nil hook
 * (docs/behaviour/cloneset.md#api-fields).
 */
export function isAllHookedBy(pod: Pod, hook: LifecycleHook | undefined): boolean {
  if (!hook) return false;
  const labels = pod.metadata.labels ?? {};
  const finalizers = pod.metadata.finalizers ?? [];
  return (
    (hook.finalizersHandler ?? []).every((f) => finalizers.includes(f)) &&
    Object.entries(hook.labelsHandler ?? {}).every(([k, v]) => labels[k] === v)
  );
}

/**
 * `controller.kubernetes.io/pod-deletion-cost` as an int32 (docs/behaviour/cloneset.md#pod-annotations);
 * invalid (leading `+`, leading zeros other than `"0"`, non-numeric, out of range) or absent ⇒ 0.
 */
export function podDeletionCost(pod: Pod): number {
  const raw = pod.metadata.annotations?.[ANNOTATION_POD_DELETION_COST];
  if (raw === undefined || !/^(0|-?[1-9]\d*)$/.test(raw)) return 0;
  const n = Number(raw);
  return isInt32(n) ? n : 0;
}

/**
 * Milliseconds since the epoch of an RFC 3339 timestamp; 0 for absent/invalid (Go's zero time sorts first).
 */
export function timeMillis(t: string | null | undefined): number {
  if (!t) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : ms;
}
