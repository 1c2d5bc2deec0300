/**
 * OpenKruise: pkg/controller/podreadiness/pod_readiness_controller.go `Reconcile` (the pod-readiness
 * controller), for the pods of one workload.
 *
 * The first `KruisePodReady` condition (docs/behaviour/cloneset.md#kruise-pod-ready): a pod created with the
 * `KruisePodReady` readiness gate gets the condition True once, so that it can become Ready and a later
 * `markPodNotReady` has a condition to turn False. Pure; time comes in as `now`.
 */
import { CONDITION_KRUISE_POD_READY } from '../api/keys.js';
import { metaTime } from '../api/time.js';
import type { Pod } from '../api/types.js';
import { podRef } from './pods.js';
import { hasReadinessGate } from './readiness.js';
import type { Action } from './actions.js';

/**
 * `PatchPodStatus` actions (reason `InitKruisePodReady`) for every pod of `pods` that is not terminating, has
 * the `KruisePodReady` readiness gate and no `KruisePodReady` condition: the pods/status strategic-merge
 * patch `{"status":{"conditions":[{"type":"KruisePodReady","status":"True","lastTransitionTime":now}]}}`.
 * Pods named in `skip` (those another action of the same plan deletes or marks, see {@link podsDeletedOrMarked},
 * so that a `markPodNotReady` written in the same plan is not overwritten) get none.
 * @param pods the claimed pods, in plan order
 * @param skip names of pods to leave alone
 * @returns the actions, in pod order
 */
export function initKruisePodReady(pods: Pod[], skip: ReadonlySet<string>, now: Date): Action[] {
  return pods
    .filter(
      (pod) =>
        !pod.metadata.deletionTimestamp &&
        !skip.has(pod.metadata.name ?? '') &&
        hasReadinessGate(pod, CONDITION_KRUISE_POD_READY) &&
        !(pod.status?.conditions ?? []).some((c) => c.type === CONDITION_KRUISE_POD_READY),
    )
    .map((pod) => ({
      type: 'PatchPodStatus',
      pod: podRef(pod),
      reason: 'InitKruisePodReady',
      patch: {
        status: {
          conditions: [
            { type: CONDITION_KRUISE_POD_READY, status: 'True', lastTransitionTime: metaTime(now) },
          ],
        },
      },
    }));
}

/**
 * Names of the pods that `actions` delete or whose `KruisePodReady` condition they write (`PatchPodStatus`
 * `MarkPodNotReady` / `MarkPodReady`); other status patches touch other conditions.
 */
export function podsDeletedOrMarked(actions: readonly Action[]): Set<string> {
  return new Set(
    actions.flatMap((a) =>
      a.type === 'DeletePod' ||
      (a.type === 'PatchPodStatus' && (a.reason === 'MarkPodNotReady' || a.reason === 'MarkPodReady'))
        ? [a.pod.name]
        : [],
    ),
  );
}
