/**
 * OpenKruise: pkg/controller/statefulset/stateful_set_control.go `processReplica`, `processCondemned`,
 * `deletePod`, `refreshPodState`, `getScaleMaxUnavailable`; stateful_set_utils.go `decreaseAndCheckMaxUnavailable`,
 * `identityMatches`.
 *
 * The state one pass carries while it walks the pods, and the per-pod steps the scale and update phases share:
 * delete (or PreparingDelete under a preDelete hook) and refresh (lifecycle and in-place state).
 */
import type { PersistentVolumeClaim, Pod } from '../../../api/types.js';
import { legacyScaledValue } from '../../../api/intOrPercent.js';
import type { Action } from '../../../podset/actions.js';
import { refreshInPlace } from '../../../podset/inplace/update.js';
import { asCreated, readinessOfCreated } from '../../../podset/createdReadiness.js';
import { refreshLifecycle, transitionLifecycle } from '../../../podset/lifecycle/lifecycle.js';
import { LifecycleState } from '../../../api/keys.js';
import { isHookedBy, podRef } from '../../../podset/pods.js';
import { LABEL_POD_INDEX, LABEL_STATEFULSET_POD_NAME } from '../api/keys.js';
import type { StatefulSet } from '../api/types.js';
import { parentAndOrdinal, statefulPodName } from './ordinals.js';
import type { PlanEvent, StatefulSetPlannerOptions, StorageClassInfo } from './types.js';

/** What a pass accumulates. */
export interface PassState {
  sts: StatefulSet;
  now: Date;
  options: StatefulSetPlannerOptions;
  actions: Action[];
  /** Milliseconds to wait, collected like upstream's `durationStore.Push`; the pass requeues after the least. */
  waitsMs: number[];
  /** Pods already refreshed this pass (upstream refreshes again; the second finds nothing more to do). */
  refreshed: Set<string>;
  /** Creates planned so far (the batch number of the next). */
  creates: number;
  /** The PVCs as listed (the PVC resize reads them). */
  pvcs: readonly PersistentVolumeClaim[];
  /** The StorageClasses as read (the PVC resize checks `allowVolumeExpansion`). */
  storageClasses: readonly StorageClassInfo[];
  /** Events the plan itself records (not the outcome of an action). */
  events: PlanEvent[];
}

/**
 * `scaleStrategy.maxUnavailable` evaluated against replicas rounding down, at least 1; undefined without one
 * (upstream `getScaleMaxUnavailable`).
 */
export function scaleMaxUnavailable(sts: StatefulSet): { left: number } | undefined {
  const mu = sts.spec.scaleStrategy?.maxUnavailable;
  if (mu === undefined || mu === null) return undefined;
  return { left: Math.max(legacyScaledValue(mu, sts.spec.replicas ?? 1, 'down'), 1) };
}

/** Upstream `decreaseAndCheckMaxUnavailable`: one more unavailable pod; true when the budget is used up. */
export function useScaleBudget(budget: { left: number } | undefined): boolean {
  if (!budget) return false;
  budget.left--;
  return budget.left <= 0;
}

/**
 * Upstream `deletePod`: a pod hooked by `lifecycle.preDelete` is moved to PreparingDelete (with `markPodNotReady`)
 * instead, and stays until the hook is released; otherwise it is deleted.
 * @returns `modified` — something was written; `deleting` — a DeletePod was planned
 */
export function deletePod(
  pass: PassState,
  pod: Pod,
  reason: 'ScaleDown' | 'SpecifiedDelete' | 'RecreateUpdate' | 'PodFailed',
): { modified: boolean; deleting: boolean } {
  const hook = pass.sts.spec.lifecycle?.preDelete;
  if (hook && isHookedBy(pod, hook)) {
    const t = transitionLifecycle(pod, LifecycleState.PreparingDelete, !!hook.markPodNotReady, pass.now);
    pass.actions.push(...t.actions);
    return { modified: t.labelPatched, deleting: false };
  }
  pass.actions.push({ type: 'DeletePod', pod: podRef(pod), reason, pvcNames: [] });
  return { modified: true, deleting: true };
}

/**
 * Upstream `refreshPodState`, once per pod and pass: the in-place refresh (grace period, next batch,
 * `InPlaceUpdateReady`), then the lifecycle transitions (PreparingNormal → Normal at once without a preNormal hook).
 * @returns whether a lifecycle transition was planned (the update phase then stops, as upstream)
 */
export function refreshPod(pass: PassState, pod: Pod, updateRevision: string): boolean {
  const name = pod.metadata.name ?? '';
  if (pass.refreshed.has(name)) return false;
  pass.refreshed.add(name);
  const gates = { inPlaceWorkloadVerticalScaling: pass.options.inPlaceWorkloadVerticalScaling };
  const inPlace = refreshInPlace(pod, pass.now, gates);
  pass.actions.push(...inPlace.actions);
  if (inPlace.requeueAfterSeconds !== undefined) pass.waitsMs.push(inPlace.requeueAfterSeconds * 1000);
  const t = refreshLifecycle(pass.sts.spec.lifecycle, pod, updateRevision, pass.now, gates, {
    preparingNormalWaitsForNode: false,
  });
  pass.actions.push(...t.actions);
  return t.labelPatched;
}

/**
 * The readiness conditions of the pods this pass creates, planned in the same pass (issue 17): upstream sets them at
 * its next sync, the one the new pod's watch event starts — `refreshPodState` its `InPlaceUpdateReady` condition
 * (the `InPlaceUpdateReady` gate) and the pod-readiness controller its `KruisePodReady` condition (the gate its pod
 * webhook injects) — and that sync finds nothing else to do for a pod just created in lifecycle state Normal. Here
 * the same two conditions, True at `pass.now`, go out as `PatchPodStatus` actions right after the create, so an
 * OrderedReady set's pod can turn Ready without another pass. A pod created PreparingNormal (a `preNormal` hook)
 * gets them too, as its next pass would: no lifecycle transition comes before it is hooked; a pod whose lifecycle
 * refresh would act (none just created does) gets none, and its next pass refreshes it as before. The conditions
 * are lib/podset/createdReadiness.ts `readinessOfCreated`'s, shared with the DaemonSet and BroadcastJob passes.
 * @returns the patches, in the order of the creates (one pod's two conditions are merged by the executor)
 */
export function refreshCreated(pass: PassState, updateRevision: string): Action[] {
  const gates = { inPlaceWorkloadVerticalScaling: pass.options.inPlaceWorkloadVerticalScaling };
  const created = pass.actions.flatMap((a) => (a.type === 'CreatePod' ? [a.pod] : []));
  const unmoved = created.filter(
    (pod) =>
      refreshLifecycle(pass.sts.spec.lifecycle, asCreated(pod), updateRevision, pass.now, gates, {
        preparingNormalWaitsForNode: false,
      }).actions.length === 0,
  );
  return readinessOfCreated(unmoved, pass.now, gates);
}

/**
 * Upstream `identityMatches`: the name is `<set>-<ordinal>`, the namespace the set's, and the pod-name label the
 * pod's name.
 */
export function identityMatches(sts: StatefulSet, pod: Pod): boolean {
  const { parent, ordinal } = parentAndOrdinal(pod.metadata.name ?? '');
  return (
    ordinal >= 0 &&
    parent === sts.metadata.name &&
    pod.metadata.name === statefulPodName(sts, ordinal) &&
    pod.metadata.namespace === sts.metadata.namespace &&
    pod.metadata.labels?.[LABEL_STATEFULSET_POD_NAME] === pod.metadata.name
  );
}

/** The identity labels upstream's `UpdateStatefulPod` restores (`updateIdentity`), as a PatchPod. */
export function identityPatch(pass: PassState, pod: Pod): Action {
  const { ordinal } = parentAndOrdinal(pod.metadata.name ?? '');
  const labels: Record<string, string> = { [LABEL_STATEFULSET_POD_NAME]: pod.metadata.name ?? '' };
  if (pass.options.podIndexLabel) labels[LABEL_POD_INDEX] = String(ordinal);
  return { type: 'PatchPod', pod: podRef(pod), reason: 'UpdateIdentity', patch: { metadata: { labels } } };
}
