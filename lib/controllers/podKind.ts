/**
 * The light part of the pod registration (lib/controllers/controller.ts `ControllerKind`; the full one is ./pod.ts):
 * the registration that hosts OpenKruise v1.9.0's pod-keyed controllers as pod concerns (./podConcern.ts) —
 * `container-launch-priority-controller` and `pod-readiness-controller`. It reconciles pods, not a custom resource,
 * so its keys are pods (kind `core/Pod`, the core group written `core` as Kubernetes' API reference writes it; its
 * name `pod` is lib/core/objectKey.ts `controllerNameOf` of that kind), it has no CRD, and of the pod stream it takes
 * only the pods some concern's predicate accepts (`selects`: their union), so the resync lists every pod, in pages,
 * but asks for a pass of those only. The For watch shares the stream of every pod the SidecarSet and PUB controllers
 * follow. Its settings are gate `KruisePodReadinessGate`, read by the pod webhook's readiness gate step only.
 */
import type { JsonObject, Pod } from '../api/types.js';
import { RESOURCES } from '../kube/resources.js';
import { selectsLaunchPod } from './containerlaunchpriority/predicate.js';
import type { ControllerKind } from './controller.js';
import { selectsReadinessPod } from './podreadiness/predicate.js';
import { POD_READINESS_SETTINGS, type PodReadinessSettings } from './podreadiness/settings.js';

/** `core/Pod`: the kind of this registration's keys and reconcile requests (a pod's namespace and name). */
export const POD_KIND = 'core/Pod';

/**
 * The concerns' predicates, in the order their work runs (./pod.ts `POD_CONCERNS` lists the concerns in the same
 * order with these same functions; a unit test checks it).
 */
export const POD_CONCERN_PREDICATES: readonly ((pod: Pod) => boolean)[] = [
  selectsLaunchPod,
  selectsReadinessPod,
];

/** Whether a pod as the watch or the resync reports it concerns some concern (the union of their predicates). */
export function selectsConcernedPod(obj: JsonObject): boolean {
  const pod = obj as unknown as Pod;
  if (typeof pod.metadata !== 'object' || pod.metadata === null || !Array.isArray(pod.spec?.containers))
    return false;
  return POD_CONCERN_PREDICATES.some((selects) => selects(pod));
}

/** The pod registration's kind, resource, watches and settings. */
export const podKind: ControllerKind<PodReadinessSettings> = {
  name: 'pod',
  kind: POD_KIND,
  resource: RESOURCES.pods,
  watches: [{ type: 'For' }],
  selects: selectsConcernedPod,
  settings: POD_READINESS_SETTINGS,
};
