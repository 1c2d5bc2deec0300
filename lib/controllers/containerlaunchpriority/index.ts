/**
 * The container launch priority concern of the pod registration (lib/controllers/pod.ts; OpenKruise v1.9.0's
 * `pkg/controller/containerlaunchpriority` `Add`): its predicate (./predicate.ts), its work on a pod (./pass.ts) and
 * its RBAC rows (./access.ts). It runs whatever the feature gates, as upstream's `Add` reads none; the pod webhook
 * step that asks for an order is ./podWebhook.ts, and the rules both share are lib/podset/launchPriority.ts.
 */
import type { LaunchStep } from '../../podset/launchPriority.js';
import type { ControllerAccess } from '../controller.js';
import type { PodConcern } from '../podConcern.js';
import {
  LAUNCH_PRIORITY_CONTROLLER_ACCESS,
  LAUNCH_PRIORITY_CONTROLLER_RULES,
  LAUNCH_PRIORITY_DENIED_TO_ALL,
  LAUNCH_PRIORITY_WATCHER_ACCESS,
  LAUNCH_PRIORITY_WATCHER_DENIED,
  LAUNCH_PRIORITY_WATCHER_RULES,
} from './access.js';
import { runLaunchPriority } from './pass.js';
import { selectsLaunchPod } from './predicate.js';

export { selectsLaunchPod } from './predicate.js';

/** The container launch priority concern: pods still waiting on their barrier, and its barrier and mark writes. */
export const launchPriorityConcern: PodConcern<LaunchStep> = {
  name: 'containerlaunchpriority',
  selects: selectsLaunchPod,
  run: runLaunchPriority,
};

/** Its access rows and the ClusterRole rules that grant them. */
export const LAUNCH_PRIORITY_ACCESS: ControllerAccess = {
  controller: LAUNCH_PRIORITY_CONTROLLER_ACCESS,
  watcher: LAUNCH_PRIORITY_WATCHER_ACCESS,
  watcherDenied: LAUNCH_PRIORITY_WATCHER_DENIED,
  deniedToAll: LAUNCH_PRIORITY_DENIED_TO_ALL,
  rules: { controller: LAUNCH_PRIORITY_CONTROLLER_RULES, watcher: LAUNCH_PRIORITY_WATCHER_RULES },
};
