/**
 * OpenKruise: pkg/util/lifecycle/lifecycle_utils.go `UpdatePodLifecycle`, `IsPodHooked`, `IsPodAllHooked`, as
 * called from pkg/controller/cloneset/sync/cloneset_update.go `refreshPodState` and `updatePod` (Advanced
 * StatefulSet's pkg/controller/statefulset/stateful_set_control.go `refreshPodState` is the same).
 *
 * Lifecycle state transitions (docs/behaviour/cloneset.md#lifecycle): the refresh transitions run for every
 * pod at the start of the update phase, and the transitions the update phase makes when it picks a pod for an
 * in-place update. Builds {@link Action}s from the patch builders in `patch.ts`.
 */
import { LifecycleState, type LifecycleStateValue } from '../../api/keys.js';
import type { JsonObject, Lifecycle, LifecycleHook, Pod } from '../../api/types.js';
import { isInPlaceUpdateCompleted } from '../inplace/apply.js';
import { mergeInto } from '../inplace/state.js';
import { lifecycleStatePatch, markPodNotReadyPatch } from './patch.js';
import { isAllHookedBy, lifecycleState, podMatchesRevision, podRef } from '../pods.js';
import type { Action } from '../actions.js';
import type { InPlaceUpdateGates } from '../inplace/options.js';

/** Actions of one transition, and whether the lifecycle label itself is patched. */
export interface TransitionResult {
  actions: Action[];
  /** True when a `PatchPod` changing the lifecycle label was planned. */
  labelPatched: boolean;
}

/**
 * Moves a pod to `state` (docs/behaviour/cloneset.md#lifecycle): when `markPodNotReady`, first the
 * `KruisePodReady` status patch (add `preDeleteHook` for PreparingDelete, add `preUpdateHook` for
 * PreparingUpdate, remove `preUpdateHook` for Updated; nothing for other states or when the pod lacks that
 * readiness gate); then, unless the pod is already in `state`, a `PatchPod` (reason `LifecycleTransition`) of
 * the label and timestamp, with `extra` merged in.
 */
export function transitionLifecycle(
  pod: Pod,
  state: LifecycleStateValue,
  markPodNotReady: boolean,
  now: Date,
  extra?: JsonObject,
): TransitionResult {
  const actions: Action[] = [];
  if (markPodNotReady) {
    const status =
      state === LifecycleState.PreparingDelete
        ? markPodNotReadyPatch(pod, 'preDeleteHook', true, now)
        : state === LifecycleState.PreparingUpdate
          ? markPodNotReadyPatch(pod, 'preUpdateHook', true, now)
          : state === LifecycleState.Updated
            ? markPodNotReadyPatch(pod, 'preUpdateHook', false, now)
            : undefined;
    if (status) {
      const reason = state === LifecycleState.Updated ? 'MarkPodReady' : 'MarkPodNotReady';
      actions.push({ type: 'PatchPodStatus', pod: podRef(pod), reason, patch: status });
    }
  }
  if (lifecycleState(pod) === state) return { actions, labelPatched: false };
  const patch = lifecycleStatePatch(state, now);
  if (extra) mergeInto(patch, extra);
  actions.push({ type: 'PatchPod', pod: podRef(pod), reason: 'LifecycleTransition', patch });
  return { actions, labelPatched: true };
}

/**
 * `Updated` when the workload has a lifecycle and the pod is not all-hooked by `inPlaceUpdate`, else
 * `Normal`.
 */
function afterUpdate(lc: Lifecycle | undefined, pod: Pod): LifecycleStateValue {
  return lc && !isAllHookedBy(pod, lc.inPlaceUpdate) ? LifecycleState.Updated : LifecycleState.Normal;
}

/** How a workload's refresh differs from CloneSet's (the default). */
export interface RefreshLifecycleOptions {
  /**
   * Without a preNormal hook, PreparingNormal → Normal waits until the pod is scheduled (CloneSet, default true);
   * Advanced StatefulSet's `refreshPodState` moves it at once (false).
   */
  preparingNormalWaitsForNode?: boolean;
}

/**
 * The refresh transition of one listed pod (docs/behaviour/cloneset.md#lifecycle; scenarios 40–42, 45, 47;
 * C25, C27, C30), with `markPodNotReady` taken from `lifecycle.inPlaceUpdate`:
 * - PreparingNormal → Normal when scheduled (no preNormal hook; at once with `preparingNormalWaitsForNode` false)
 *   or all-hooked by preNormal;
 * - PreparingUpdate → Updated/Normal when the pod already matches `updateRevision` (rolled back while
 *   waiting);
 * - Updating → Updated/Normal when the in-place update is complete;
 * - Updated → Normal with no lifecycle, no inPlaceUpdate hook, or all-hooked by it.
 * @param lc the workload's `spec.lifecycle` (e.g. a CloneSet's), undefined when it has none
 * @param updateRevision name of the update revision
 */
export function refreshLifecycle(
  lc: Lifecycle | undefined,
  pod: Pod,
  updateRevision: string,
  now: Date,
  gates: Pick<InPlaceUpdateGates, 'inPlaceWorkloadVerticalScaling'>,
  options: RefreshLifecycleOptions = {},
): TransitionResult {
  const waitForNode = options.preparingNormalWaitsForNode ?? true;
  let target: LifecycleStateValue | undefined;
  switch (lifecycleState(pod)) {
    case LifecycleState.PreparingNormal:
      if (!lc?.preNormal ? !waitForNode || !!pod.spec.nodeName : isAllHookedBy(pod, lc.preNormal))
        target = LifecycleState.Normal;
      break;
    case LifecycleState.PreparingUpdate:
      if (podMatchesRevision(pod, updateRevision)) target = afterUpdate(lc, pod);
      break;
    case LifecycleState.Updating:
      if (isInPlaceUpdateCompleted(pod, gates)) target = afterUpdate(lc, pod);
      break;
    case LifecycleState.Updated:
      if (!lc?.inPlaceUpdate || isAllHookedBy(pod, lc.inPlaceUpdate)) target = LifecycleState.Normal;
      break;
    case '':
    case LifecycleState.Normal:
    case LifecycleState.PreparingDelete:
      // no transition starts here (PreparingDelete belongs to the scale-in path)
      break;
  }
  if (target === undefined) return { actions: [], labelPatched: false };
  return transitionLifecycle(pod, target, !!lc?.inPlaceUpdate?.markPodNotReady, now);
}

/**
 * `Updated → PreparingUpdate` for a pod picked for another in-place update
 * (docs/behaviour/cloneset.md#lifecycle; C25): the hook's labels and finalizers are re-added in the same
 * patch (finalizers merge into the pod's list). No-op without an `inPlaceUpdate` hook.
 */
export function reenterPreparingUpdate(
  pod: Pod,
  hook: LifecycleHook | undefined,
  now: Date,
): TransitionResult {
  if (!hook) return { actions: [], labelPatched: false };
  const metadata: JsonObject = {};
  if (hook.labelsHandler && Object.keys(hook.labelsHandler).length > 0)
    metadata.labels = { ...hook.labelsHandler };
  if (hook.finalizersHandler && hook.finalizersHandler.length > 0)
    metadata.finalizers = [...hook.finalizersHandler];
  return transitionLifecycle(pod, LifecycleState.PreparingUpdate, !!hook.markPodNotReady, now, { metadata });
}
