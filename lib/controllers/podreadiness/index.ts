/**
 * The pod readiness concern of the pod registration (lib/controllers/pod.ts; OpenKruise v1.9.0's
 * `pkg/controller/podreadiness` `Add`, which no feature gate turns off): its predicate (./predicate.ts), its work on
 * a pod (./pass.ts) and its RBAC rows (./access.ts). The pod webhook step that adds the readiness gate is
 * ./podWebhook.ts, under the registration's settings (./settings.ts).
 */
import type { ControllerAccess } from '../controller.js';
import type { PodConcern } from '../podConcern.js';
import {
  POD_READINESS_CONTROLLER_ACCESS,
  POD_READINESS_CONTROLLER_RULES,
  POD_READINESS_WATCHER_ACCESS,
  POD_READINESS_WATCHER_DENIED,
  POD_READINESS_WATCHER_RULES,
} from './access.js';
import { runPodReadiness, type PodReadinessStep } from './pass.js';
import { selectsReadinessPod } from './predicate.js';

export { selectsReadinessPod } from './predicate.js';

/** The pod readiness concern: pods with the gate and no condition, given the condition True. */
export const podReadinessConcern: PodConcern<PodReadinessStep> = {
  name: 'podreadiness',
  selects: selectsReadinessPod,
  run: runPodReadiness,
};

/** Its access rows and the ClusterRole rules that grant them. */
export const POD_READINESS_ACCESS: ControllerAccess = {
  controller: POD_READINESS_CONTROLLER_ACCESS,
  watcher: POD_READINESS_WATCHER_ACCESS,
  watcherDenied: POD_READINESS_WATCHER_DENIED,
  deniedToAll: [],
  rules: { controller: POD_READINESS_CONTROLLER_RULES, watcher: POD_READINESS_WATCHER_RULES },
};
