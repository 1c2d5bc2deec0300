/**
 * OpenKruise: pkg/controller/cloneset/sync/cloneset_scale.go `Scale`, `managePreparingDelete`, `deletePods`,
 * `getPlannedDeletedPods`.
 *
 * The scale phase (docs/behaviour/cloneset.md#scale-phase): cancel pending deletions when pods are needed
 * again, create pods, finish pre-delete pods, honour specified deletions, and scale in — each step returning
 * as soon as it plans a change, so one reconcile does one kind of thing. Pure: returns the writes; the
 * executor performs them and records `SuccessfulCreate` / `SuccessfulDelete` events after each write
 * succeeds.
 */
import { EventReason, LABEL_INSTANCE_ID, LifecycleState } from '../../../../api/keys.js';
import type { Pod } from '../../../../api/types.js';
import { planCreations } from './create.js';
import { calculateDiff, scalePhaseIsUpdated } from './diff.js';
import { lifecycleStatePatch, markPodNotReadyPatch } from '../../../../podset/lifecycle/patch.js';
import {
  isHookedBy,
  isPodAvailable,
  isSpecifiedDelete,
  lifecycleState,
  podRef,
} from '../../../../podset/pods.js';
import type { DiffRecord, PhaseContext, PhaseResult, PlanEvent } from '../types.js';
import type { Action, DeleteReason } from '../../../../podset/actions.js';
import { chooseScaleDownVictims } from './victims.js';

/**
 * The scale phase's result plus the diff record it computed (docs/behaviour/cloneset.md#diff), for logs and
 * tests.
 */
export interface ScaleResult extends PhaseResult {
  diff: DiffRecord;
}

/**
 * The delete procedure of docs/behaviour/cloneset.md#scale-in-victims for each pod, in order. A pod hooked by
 * `lifecycle.preDelete` is not deleted: when `preDelete.markPodNotReady` is set and the pod has the
 * `KruisePodReady` gate without the `preDeleteHook` key, a `PatchPodStatus` (`MarkPodNotReady`) comes first;
 * then, unless the pod is already `PreparingDelete`, a `PatchPod` (`LifecycleTransition`) to
 * `PreparingDelete`. Any other pod gets a `DeletePod` listing the names of `ctx.pvcs` with the pod's instance
 * id (none when the pod has no instance id).
 * @param reason recorded on `DeletePod` actions
 * @returns the actions, in pod order
 */
export function deletePodsActions(ctx: PhaseContext, pods: Pod[], reason: DeleteReason): Action[] {
  const preDelete = ctx.cloneSet.spec.lifecycle?.preDelete;
  const actions: Action[] = [];
  for (const pod of pods) {
    if (preDelete && isHookedBy(pod, preDelete)) {
      if (preDelete.markPodNotReady) {
        const patch = markPodNotReadyPatch(pod, 'preDeleteHook', true, ctx.now);
        if (patch)
          actions.push({ type: 'PatchPodStatus', pod: podRef(pod), reason: 'MarkPodNotReady', patch });
      }
      if (lifecycleState(pod) !== LifecycleState.PreparingDelete) {
        actions.push({
          type: 'PatchPod',
          pod: podRef(pod),
          reason: 'LifecycleTransition',
          patch: lifecycleStatePatch(LifecycleState.PreparingDelete, ctx.now),
        });
      }
      continue;
    }
    const id = pod.metadata.labels?.[LABEL_INSTANCE_ID] ?? '';
    const pvcNames = id
      ? ctx.pvcs
          .filter((c) => c.metadata.labels?.[LABEL_INSTANCE_ID] === id)
          .map((c) => c.metadata.name ?? '')
      : [];
    actions.push({ type: 'DeletePod', pod: podRef(pod), reason, pvcNames });
  }
  return actions;
}

/**
 * Keep every pod that is not ready-for-deletion-budget, and ready ones while `budget` lasts
 * (docs/behaviour/cloneset.md#scale-phase).
 */
function withinBudget(ctx: PhaseContext, pods: Pod[], budget: number): Pod[] {
  let left = budget;
  return pods.filter((p) => {
    if (!isPodAvailable(p, 0, ctx.now)) return true;
    if (left <= 0) return false;
    left--;
    return true;
  });
}

/**
 * Step 2 of docs/behaviour/cloneset.md#scale-phase: while more pods are needed (`R − podCount + numToDelete >
 * 0`), move `PreparingDelete` pods that are not specified-delete back to `PreparingNormal` (`PatchPod`,
 * reason `CancelPreDelete`), in list order. Skipped entirely when `preDelete.markPodNotReady` or
 * `inPlaceUpdate.markPodNotReady` is set.
 */
function cancelPreDelete(ctx: PhaseContext, preDeletePods: Pod[], numToDelete: number): Action[] {
  const lifecycle = ctx.cloneSet.spec.lifecycle;
  if (lifecycle?.preDelete?.markPodNotReady || lifecycle?.inPlaceUpdate?.markPodNotReady) return [];
  const podsToDelete = ctx.cloneSet.spec.scaleStrategy?.podsToDelete;
  let diff = ctx.strategy.replicas - ctx.pods.length + numToDelete;
  const actions: Action[] = [];
  for (const pod of preDeletePods) {
    if (diff <= 0) break;
    if (isSpecifiedDelete(pod, podsToDelete)) continue;
    actions.push({
      type: 'PatchPod',
      pod: podRef(pod),
      reason: 'CancelPreDelete',
      patch: lifecycleStatePatch(LifecycleState.PreparingNormal, ctx.now),
    });
    diff--;
  }
  return actions;
}

/**
 * The scale phase (docs/behaviour/cloneset.md#scale-phase):
 * 0. `spec.replicas` absent → error, nothing done;
 * 1. planned deletions = specified-delete pods ∪ `PreparingDelete` pods (`numToDelete` by name);
 * 2. cancel pending deletions (see above) → return if any;
 * 3. diff record with the scale-phase predicate; `ScaleUpLimited` Warning event when `scaleUpNum >
 *    scaleUpLimit`;
 * 4. `scaleUpNum > 0` → create `scaleUpLimit` pods, the first `min(scaleUpLimit, scaleUpNumOldRevision)` at
 *    the
 *    current revision, and return (unchanged when the limit is 0);
 * 5. delete procedure on `PreparingDelete` pods (`PreDeleteHookReleased`) → return if any action;
 * 6. specified-delete pods not in `PreparingDelete`, in list order: unready ones always, ready ones while
 *    `deleteReadyLimit` lasts (`SpecifiedDelete`) → return if any action;
 * 7. `scaleDownNum > 0`: nothing while `numToDelete > 0`; otherwise victims
 *    (docs/behaviour/cloneset.md#scale-in-victims) filtered by the same budget
 *    rule (`ScaleDown`, or `ReplicasZero` when R = 0).
 * `changed` is true iff any action is planned. A creation error (no template, no free id) is returned as
 * `error`.
 * @param ctx claimed active pods (name order), owned PVCs, revisions, strategy numbers, clock and gates
 */
export function planScale(ctx: PhaseContext): ScaleResult {
  const isUpdated = scalePhaseIsUpdated(ctx);
  const diff = calculateDiff(ctx, isUpdated);
  const result = (actions: Action[], events: PlanEvent[] = []): ScaleResult => ({
    changed: actions.length > 0,
    actions,
    events,
    diff,
  });
  if (ctx.cloneSet.spec.replicas === undefined || ctx.cloneSet.spec.replicas === null) {
    return { ...result([]), error: 'spec.Replicas is nil' };
  }

  const podsToDelete = ctx.cloneSet.spec.scaleStrategy?.podsToDelete;
  const specifiedPods = ctx.pods.filter((p) => isSpecifiedDelete(p, podsToDelete));
  const preDeletePods = ctx.pods.filter((p) => lifecycleState(p) === LifecycleState.PreparingDelete);
  const numToDelete = new Set([...specifiedPods, ...preDeletePods].map((p) => p.metadata.name)).size;

  const cancels = cancelPreDelete(ctx, preDeletePods, numToDelete);
  if (cancels.length > 0) return result(cancels);

  const events: PlanEvent[] = [];
  if (diff.scaleUpNum > diff.scaleUpLimit) {
    events.push({
      type: 'Warning',
      reason: EventReason.ScaleUpLimited,
      message: `scaleUp is limited because of scaleStrategy.maxUnavailable, limit: ${diff.scaleUpLimit}`,
    });
  }

  if (diff.scaleUpNum > 0) {
    try {
      return result(planCreations(ctx, diff.scaleUpLimit, diff.scaleUpNumOldRevision), events);
    } catch (err) {
      return { ...result([], events), error: (err as Error).message };
    }
  }

  if (preDeletePods.length > 0) {
    const actions = deletePodsActions(ctx, preDeletePods, 'PreDeleteHookReleased');
    if (actions.length > 0) return result(actions, events);
  }

  const preDeleteNames = new Set(preDeletePods.map((p) => p.metadata.name));
  const specified = specifiedPods.filter((p) => !preDeleteNames.has(p.metadata.name));
  if (specified.length > 0) {
    const actions = deletePodsActions(
      ctx,
      withinBudget(ctx, specified, diff.deleteReadyLimit),
      'SpecifiedDelete',
    );
    if (actions.length > 0) return result(actions, events);
  }

  if (diff.scaleDownNum > 0 && numToDelete === 0) {
    const victims = chooseScaleDownVictims(
      ctx,
      ctx.pods,
      diff.scaleDownNum,
      diff.scaleDownNumOldRevision,
      isUpdated,
      ctx.nodeLabels,
    );
    const reason: DeleteReason = ctx.strategy.replicas === 0 ? 'ReplicasZero' : 'ScaleDown';
    return result(deletePodsActions(ctx, withinBudget(ctx, victims, diff.deleteReadyLimit), reason), events);
  }
  return result([], events);
}
