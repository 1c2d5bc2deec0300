/**
 * The light part of the container launch priority registration (lib/controllers/controller.ts `ControllerKind`), as
 * OpenKruise v1.9.0's `pkg/controller/containerlaunchpriority` `add`: it reconciles pods, not a custom resource, so
 * its keys are pods (kind `core/Pod`, the core group written `core` as Kubernetes' API reference writes it), it has
 * no CRD, and of the pod stream it takes only the pods whose launch still waits on a barrier (`selects`, upstream's
 * `shouldEnqueue` predicate; lib/podset/launchPriority.ts `awaitsLaunch`), so the resync lists every pod, in pages,
 * but asks for a pass of those only. The For watch shares the stream of every pod the SidecarSet and PUB controllers follow.
 */
import type { JsonObject, Pod } from '../../api/types.js';
import { RESOURCES } from '../../kube/resources.js';
import { awaitsLaunch } from '../../podset/launchPriority.js';
import type { ControllerKind } from '../controller.js';
import { LAUNCH_PRIORITY_SETTINGS, type LaunchPrioritySettings } from './settings.js';

/** `core/Pod`: the kind of this controller's keys and reconcile requests (a pod's namespace and name). */
export const LAUNCH_PRIORITY_KIND = 'core/Pod';

/**
 * Whether a pod as the watch or the resync reports it concerns the controller (upstream's `shouldEnqueue`, less the
 * barrier read the pass makes).
 */
export function selectsLaunchPod(obj: JsonObject): boolean {
  const pod = obj as unknown as Pod;
  return (
    typeof pod.metadata === 'object' &&
    pod.metadata !== null &&
    Array.isArray(pod.spec?.containers) &&
    awaitsLaunch(pod)
  );
}

/** The container launch priority controller's kind, resource, watches and settings. */
export const containerLaunchPriorityKind: ControllerKind<LaunchPrioritySettings> = {
  name: 'containerlaunchpriority',
  kind: LAUNCH_PRIORITY_KIND,
  resource: RESOURCES.pods,
  watches: [{ type: 'For' }],
  selects: selectsLaunchPod,
  settings: LAUNCH_PRIORITY_SETTINGS,
};
