/**
 * OpenKruise: pkg/controller/podreadiness/pod_readiness_controller.go `Reconcile` (its reaction to a pod's create
 * event); pkg/util/inplaceupdate/inplace_update.go `Refresh` (`InPlaceUpdateReady` on a new pod with its gate).
 *
 * The readiness conditions a workload's controllers write on a pod just after it is created, planned in the pass
 * that creates it (issue 17 for the Advanced StatefulSet, issue 20 for the Advanced DaemonSet and BroadcastJob):
 * upstream writes them at the reactions the new pod's watch event starts, so a Kruiseless pass that waited for its
 * next pass paid a whole pass (read, plan, write) per pod before it could turn Ready. Shared by
 * lib/controllers/statefulset/plan/pass.ts `refreshCreated` and the DaemonSet and BroadcastJob planners; the
 * executors write them only for the pods their creates made (lib/reconcile/pods/slowStartCreates.ts
 * `patchesOfCreated`, lib/controllers/statefulset/execute.ts `executionSteps`). Pure; time comes in as `now`.
 */
import type { Pod } from '../api/types.js';
import type { Action } from './actions.js';
import type { InPlaceUpdateGates } from './inplace/options.js';
import { refreshInPlace } from './inplace/update.js';
import { initKruisePodReady } from './podReadiness.js';

/** A pods/status patch. */
export type StatusPatch = Extract<Action, { type: 'PatchPodStatus' }>;

/** A pod about to be created as the API server stores it: phase `Pending`, no conditions yet. */
export function asCreated(pod: Pod): Pod {
  return { ...pod, status: { ...pod.status, phase: 'Pending' } };
}

/**
 * The condition patches of the pods a pass creates, in the order of `pods`, each pod's patches together:
 * with `inPlace` given, first the `InPlaceUpdateReady` True the in-place refresh writes on a new pod with that gate
 * (the refresh a StatefulSet pass runs on every pod); then `KruisePodReady` True on a pod with its gate
 * (lib/podset/podReadiness.ts `initKruisePodReady`: OpenKruise's pod-readiness controller, which reacts to the new
 * pod whatever its workload's controller does). Pods without the gates get none.
 * @param pods the pods as planned for creation (not modified)
 * @param inPlace the in-place gates of a workload whose pass refreshes new pods in place; absent: `KruisePodReady`
 *   only
 * @returns one or two `PatchPodStatus` actions per gated pod (reasons: the refresh's, `InitKruisePodReady`)
 */
export function readinessOfCreated(
  pods: readonly Pod[],
  now: Date,
  inPlace?: Pick<InPlaceUpdateGates, 'inPlaceWorkloadVerticalScaling'>,
): StatusPatch[] {
  const out: StatusPatch[] = [];
  for (const pod of pods) {
    const created = asCreated(pod);
    if (inPlace)
      out.push(
        ...refreshInPlace(created, now, inPlace).actions.filter(
          (a): a is StatusPatch => a.type === 'PatchPodStatus',
        ),
      );
    out.push(...initKruisePodReady([created], new Set(), now));
  }
  return out;
}
