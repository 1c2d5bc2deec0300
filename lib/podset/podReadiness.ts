/**
 * OpenKruise: pkg/webhook/pod/mutating/pod_readiness.go `injectPodReadinessGate` (the pod webhook, on create);
 * pkg/controller/podreadiness/pod_readiness_controller.go `Reconcile` (the pod-readiness controller).
 *
 * `KruisePodReady` for every Kruise workload (CloneSet and Advanced StatefulSet alike,
 * docs/behaviour/cloneset.md#kruise-pod-ready) and for any other pod with the gate (the pod controller's readiness
 * concern, lib/controllers/podreadiness): a new pod gets the readiness gate as OpenKruise's pod webhook adds it, and
 * once created the condition True once, so that it can become Ready and a later `markPodNotReady` has a condition to
 * turn False. Pure; time comes in as `now`.
 */
import { CONDITION_KRUISE_POD_READY } from '../api/keys.js';
import { metaTime } from '../api/time.js';
import type { Pod } from '../api/types.js';
import { controllerRef } from './ownership.js';
import { podRef } from './pods.js';
import { hasReadinessGate } from './readiness.js';
import type { Action } from './actions.js';

/** The API group whose controllers' pods OpenKruise's pod webhook gives the gate (`IsPodOwnedByKruise`). */
const KRUISE_GROUP = 'apps.kruise.io';

/** Whether the pod's controller reference is of API group `apps.kruise.io`, any version (`IsPodOwnedByKruise`). */
function isOwnedByKruise(pod: Pod): boolean {
  const owner = controllerRef(pod.metadata.ownerReferences);
  const group = owner?.apiVersion.includes('/') ? owner.apiVersion.split('/')[0] : '';
  return group === KRUISE_GROUP;
}

/**
 * OpenKruise: pkg/webhook/pod/mutating/pod_readiness.go `injectPodReadinessGate` (with pkg/util/pods.go
 * `IsPodOwnedByKruise`, `InjectReadinessGateToPod`).
 *
 * What OpenKruise's pod webhook does to a pod being created: when the pod's controller reference is of API group
 * `apps.kruise.io` (any version: a CloneSet's `v1alpha1`, an Advanced StatefulSet's `v1beta1`), or for every pod
 * when gate `KruisePodReadinessGate` is on, the `KruisePodReady` readiness gate is appended after the gates the pod
 * already has, unless one is there.
 * @param pod a pod about to be created (not modified)
 * @param everyPod gate `KruisePodReadinessGate` (default off)
 * @returns a new pod with the gate appended, or `pod` itself when it gets none
 */
export function withKruisePodReadyGate(pod: Pod, everyPod = false): Pod {
  if (!everyPod && !isOwnedByKruise(pod)) return pod;
  if (hasReadinessGate(pod, CONDITION_KRUISE_POD_READY)) return pod;
  return {
    ...pod,
    spec: {
      ...pod.spec,
      readinessGates: [...(pod.spec.readinessGates ?? []), { conditionType: CONDITION_KRUISE_POD_READY }],
    },
  };
}

/**
 * {@link withKruisePodReadyGate} with the gate off, written into `pod`: the gate a Kruise workload's new pod gets
 * from OpenKruise's pod webhook, as the workloads' planners build their pods.
 * @param pod a pod about to be created (its spec is modified in place and the pod returned)
 */
export function injectKruisePodReadyGate(pod: Pod): Pod {
  pod.spec = withKruisePodReadyGate(pod).spec;
  return pod;
}

/**
 * Whether a pod waits for its first `KruisePodReady` condition, as OpenKruise's pod-readiness controller
 * (`Reconcile`, with pkg/util/podreadiness `ContainsReadinessGate` and `GetReadinessCondition`) decides: not
 * terminating, with the `KruisePodReady` readiness gate and no `KruisePodReady` condition (whatever its status).
 */
export function awaitsKruisePodReady(pod: Pod): boolean {
  return (
    !pod.metadata.deletionTimestamp &&
    hasReadinessGate(pod, CONDITION_KRUISE_POD_READY) &&
    !(pod.status?.conditions ?? []).some((c) => c.type === CONDITION_KRUISE_POD_READY)
  );
}

/**
 * `PatchPodStatus` actions (reason `InitKruisePodReady`) for every pod of `pods` that
 * {@link awaitsKruisePodReady} (not terminating, the `KruisePodReady` readiness gate and no such condition): the
 * pods/status strategic-merge
 * patch `{"status":{"conditions":[{"type":"KruisePodReady","status":"True","lastTransitionTime":now}]}}`.
 * Pods named in `skip` (those another action of the same plan deletes or marks, see {@link podsDeletedOrMarked},
 * so that a `markPodNotReady` written in the same plan is not overwritten) get none.
 * @param pods the claimed pods, in plan order
 * @param skip names of pods to leave alone
 * @returns the actions, in pod order
 */
export function initKruisePodReady(
  pods: readonly Pod[],
  skip: ReadonlySet<string>,
  now: Date,
): Extract<Action, { type: 'PatchPodStatus' }>[] {
  return pods
    .filter((pod) => !skip.has(pod.metadata.name ?? '') && awaitsKruisePodReady(pod))
    .map((pod) => ({
      type: 'PatchPodStatus' as const,
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
