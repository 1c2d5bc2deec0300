/**
 * OpenKruise: pkg/controller/statefulset/stateful_set_control.go `rollingUpdateStatefulsetPods`,
 * `handleSpecifiedDeletedPods`, `inPlaceUpdatePod`; stateful_update_utils.go `sortPodsToUpdate`;
 * pkg/util/specifieddelete; pkg/util/updatesort (through lib/podset/updateSort.ts).
 *
 * The rolling update of an Advanced StatefulSet: specified deletes, then the pods to update in order (highest
 * ordinal first down to the partition, or by priority with `unorderedUpdate`), each updated in place when the
 * policy and the change allow it, else deleted to be recreated — while fewer than `maxUnavailable` pods are
 * unavailable.
 */
import { LABEL_SPECIFIED_DELETE, LifecycleState } from '../../../api/keys.js';
import { legacyScaledValue } from '../../../api/intOrPercent.js';
import type { ControllerRevision, Pod } from '../../../api/types.js';
import { isInPlaceUpdateCompleted } from '../../../podset/inplace/apply.js';
import { calculateInPlaceUpdateSpec } from '../../../podset/inplace/spec.js';
import { startInPlaceUpdate } from '../../../podset/inplace/update.js';
import { reenterPreparingUpdate, transitionLifecycle } from '../../../podset/lifecycle/lifecycle.js';
import { isHookedBy, lifecycleState, podMatchesRevision } from '../../../podset/pods.js';
import { sortByPriority } from '../../../podset/updateSort.js';
import { LABEL_STATEFULSET_REVISION } from '../api/keys.js';
import type { StatefulSet } from '../api/types.js';
import { deletePod, type PassState } from './pass.js';
import {
  claimsCompatible,
  ownedClaimsCompleted,
  ownedClaimsReady,
  resizesClaims,
  tryResizeClaims,
} from './resize.js';
import {
  isCreated,
  isHealthy,
  isTerminating,
  minReadySecondsOf,
  runningAndAvailable,
  statefulPodRevision,
} from './podState.js';

/**
 * While a pod's PVCs are being resized, look again after this long. OpenKruise's third watch (PVCs carrying its
 * resize annotation, `pvc_event_handler.go`) brings the next pass when the resizer writes the claim; Kruiseless does
 * not watch PVCs, so the pass asks to be run again instead.
 */
export const RESIZE_RECHECK_MS = 2000;

/** Counters of the status the update phase corrects as it deletes or updates current-revision pods. */
export interface UpdateCounters {
  currentReplicas: number;
  updatedReplicas: number;
}

/**
 * The indexes of `replicas` to update, in order (upstream `sortPodsToUpdate`). Without `unorderedUpdate`: from the
 * highest slot down to slot `partition`, at most `replicas − partition` pods (so with reserved ordinals the
 * partition is a pod count). With it: pods terminating or already at the update revision first, then the others
 * (by `priorityStrategy` when set), at most `replicas − partition` in all.
 */
export function podsToUpdate(
  sts: StatefulSet,
  updateRevision: string,
  replicas: readonly (Pod | undefined)[],
): number[] {
  const ru = sts.spec.updateStrategy?.rollingUpdate;
  const partition = ru?.partition ?? 0;
  const maxUpdate = (sts.spec.replicas ?? 1) - partition;
  if (maxUpdate <= 0) return [];
  if (!ru?.unorderedUpdate) {
    const out: number[] = [];
    for (let t = replicas.length - 1; t >= partition && out.length < maxUpdate; t--)
      if (replicas[t]) out.push(t);
    return out;
  }
  const updated: number[] = [];
  let waiting: number[] = [];
  for (let t = replicas.length - 1; t >= 0; t--) {
    const pod = replicas[t];
    if (!pod) continue;
    if (isTerminating(pod) || podMatchesRevision(pod, updateRevision)) updated.push(t);
    else waiting.push(t);
  }
  const ps = ru.unorderedUpdate.priorityStrategy;
  if (ps) {
    // the sorter indexes a dense list; map the slots onto it and back
    const dense = waiting.map((t) => replicas[t] as Pod);
    waiting = sortByPriority(
      dense,
      dense.map((_, i) => i),
      ps,
    ).map((i) => waiting[i]);
  }
  return [...updated, ...waiting].slice(0, maxUpdate);
}

/** Whether the pod's in-place update is not finished (upstream `CheckPodUpdateCompleted` fails). */
function inPlaceNotReady(pass: PassState, pod: Pod): boolean {
  return !isInPlaceUpdateCompleted(pod, {
    inPlaceWorkloadVerticalScaling: pass.options.inPlaceWorkloadVerticalScaling,
  });
}

/**
 * Upstream `inPlaceUpdatePod`. With an in-place policy and a change that can be made in place (lib/podset's
 * `calculateInPlaceUpdateSpec`): an inPlaceUpdate hook first moves the pod to PreparingUpdate and waits there; then
 * the update starts (lib/podset's `startInPlaceUpdate`, lifecycle Updating).
 * @returns `inPlace` — the pod is being updated in place (no delete); `error` — InPlaceOnly but not possible, or a
 *   lifecycle state that forbids it
 */
function inPlaceUpdatePod(
  pass: PassState,
  pod: Pod,
  update: ControllerRevision,
  revisions: readonly ControllerRevision[],
): { inPlace: boolean; error?: string } {
  const ru = pass.sts.spec.updateStrategy?.rollingUpdate;
  const policy = ru?.podUpdatePolicy;
  if (policy !== 'InPlaceIfPossible' && policy !== 'InPlaceOnly') return { inPlace: false };
  const old = revisions.find((r) => r.metadata.name === statefulPodRevision(pod));
  const gates = {
    inPlaceUpdateEnvFromMetadata: pass.options.inPlaceUpdateEnvFromMetadata,
    inPlaceWorkloadVerticalScaling: pass.options.inPlaceWorkloadVerticalScaling,
    recreatePodWhenChangeVCTInCloneSet: false,
  };
  const spec = calculateInPlaceUpdateSpec(old, update, {
    gracePeriodSeconds: ru?.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0,
    ignoreVolumeClaimTemplatesHashDiff: true,
    gates,
  });
  if (spec) {
    const hook = pass.sts.spec.lifecycle?.inPlaceUpdate;
    const state = lifecycleState(pod);
    switch (state) {
      case '':
      case LifecycleState.PreparingNormal:
      case LifecycleState.Normal:
        if (hook && isHookedBy(pod, hook)) {
          pass.actions.push(
            ...transitionLifecycle(pod, LifecycleState.PreparingUpdate, !!hook.markPodNotReady, pass.now)
              .actions,
          );
          return { inPlace: true };
        }
        break;
      case LifecycleState.Updated:
        pass.actions.push(...reenterPreparingUpdate(pod, hook, pass.now).actions);
        return { inPlace: true };
      case LifecycleState.PreparingUpdate:
        if (hook && isHookedBy(pod, hook)) return { inPlace: true };
        break;
      case LifecycleState.Updating:
        break;
      default:
        return {
          inPlace: true,
          error: `not allowed to in-place update pod ${pod.metadata.name ?? ''} in state ${state}`,
        };
    }
    pass.actions.push(
      ...startInPlaceUpdate(pod, spec, pass.now, {
        ...gates,
        revisionLabels: (revision) => ({ [LABEL_STATEFULSET_REVISION]: revision }),
      }),
    );
    return { inPlace: true };
  }
  if (policy === 'InPlaceOnly')
    return {
      inPlace: false,
      error: `find strategy is InPlaceOnly but Pod ${pod.metadata.name ?? ''} can not update in-place`,
    };
  return { inPlace: false };
}

/**
 * The update phase (upstream `rollingUpdateStatefulsetPods` after the refresh): nothing when paused. The pods
 * counted unavailable are those not healthy, not finished with an in-place update, or not yet available for
 * `minReadySeconds`. Specified-delete pods (label `apps.kruise.io/specified-delete`) are deleted first, highest
 * ordinal first, ignoring the partition, each while the unavailable count is under `maxUnavailable` or the pod is
 * unavailable anyway. Then each pod of {@link podsToUpdate} not at the update revision: the phase stops at the first
 * available one once `maxUnavailable` pods are unavailable; else it is updated in place or deleted, and counts as
 * unavailable. With PVC resize on (./resize.ts `resizesClaims`), an otherwise available pod whose claims lack their
 * capacity counts as unavailable, a pod whose claims are smaller than their templates is updated even at the update
 * revision, its claims are resized first, and the pod waits (unavailable) until they have grown.
 * @returns an error message upstream's sync returns, if any
 */
export function rollingUpdate(
  pass: PassState,
  replicas: readonly (Pod | undefined)[],
  current: ControllerRevision,
  update: ControllerRevision,
  revisions: readonly ControllerRevision[],
  counters: UpdateCounters,
): { halt?: string; error?: string } {
  const sts = pass.sts;
  const ru = sts.spec.updateStrategy?.rollingUpdate;
  if (ru?.paused) return { halt: 'paused' };
  const maxUnavailable = ru
    ? Math.max(legacyScaledValue(ru.maxUnavailable ?? 1, sts.spec.replicas ?? 1, 'down'), 1)
    : 1;
  const minReady = minReadySecondsOf(sts);
  const resize = resizesClaims(sts, pass.options.statefulSetAutoResizePVCGate);
  const maxWaitMs = 300 * 1000;
  let minWait = maxWaitMs;
  const unavailable = new Set<string>();
  for (const pod of replicas) {
    if (!pod) continue;
    const name = pod.metadata.name ?? '';
    if (!isHealthy(pod) || inPlaceNotReady(pass, pod)) unavailable.add(name);
    else {
      const { available, waitMs } = runningAndAvailable(pod, minReady, pass.now);
      if (!available) {
        unavailable.add(name);
        if (waitMs !== 0 && waitMs <= minWait) {
          minWait = waitMs;
          pass.waitsMs.push(waitMs);
        }
      } else if (resize && !ownedClaimsReady(sts, pod, pass.pvcs)) unavailable.add(name);
    }
  }
  const currentName = current.metadata.name ?? '';
  const updateName = update.metadata.name ?? '';
  const specified = new Set<string>();
  for (let t = replicas.length - 1; t >= 0; t--) {
    const pod = replicas[t];
    if (!pod || !(pod.metadata.labels && LABEL_SPECIFIED_DELETE in pod.metadata.labels)) continue;
    const name = pod.metadata.name ?? '';
    if (unavailable.size >= maxUnavailable && !unavailable.has(name)) continue;
    specified.add(name);
    if (deletePod(pass, pod, 'SpecifiedDelete').deleting) {
      const rev = statefulPodRevision(pod);
      if (rev === currentName) counters.currentReplicas--;
      else if (rev === updateName) counters.updatedReplicas--;
    }
    unavailable.add(name);
  }
  for (const t of podsToUpdate(sts, updateName, replicas)) {
    const pod = replicas[t] as Pod;
    const name = pod.metadata.name ?? '';
    const claimsFit = !resize || claimsCompatible(sts, pod, pass.pvcs);
    if (statefulPodRevision(pod) === updateName && claimsFit) continue;
    if (unavailable.size >= maxUnavailable && !unavailable.has(name))
      return {
        halt: `waiting for unavailable pods (${[...unavailable].sort().join(', ')}) before updating ${name}`,
      };
    if (resize) {
      if (!claimsFit) {
        const tried = tryResizeClaims(sts, pod, pass.pvcs, pass.storageClasses);
        pass.actions.push(...tried.actions);
        pass.events.push(...tried.events);
        if (tried.error) return { error: tried.error };
      }
      // the pod is updated once its claims have grown; until then it counts as unavailable
      if (!ownedClaimsCompleted(sts, pod, pass.pvcs)) {
        unavailable.add(name);
        pass.waitsMs.push(RESIZE_RECHECK_MS);
        continue;
      }
    }
    // a pod planned in this pass is not created yet (upstream would try to delete it and fail): skip it
    if (specified.has(name) || isTerminating(pod) || !isCreated(pod)) continue;
    const inPlace = inPlaceUpdatePod(pass, pod, update, revisions);
    if (inPlace.error) return { error: inPlace.error };
    let decrease = inPlace.inPlace;
    if (!inPlace.inPlace) decrease = deletePod(pass, pod, 'RecreateUpdate').deleting;
    unavailable.add(name);
    if (decrease && statefulPodRevision(pod) === currentName) counters.currentReplicas--;
  }
  return {};
}
