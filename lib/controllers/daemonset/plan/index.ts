/** The Advanced DaemonSet planner (pure): ./plan.ts `planDaemonSet` and its parts. */
export { planDaemonSet, allowSurge, nodesNeedingPods } from './plan.js';
export { daemonSetStatus, isDaemonPodAvailable, isPodUpdated } from './status.js';
export { buildDaemonPod, templateGeneration } from './newPod.js';
export { nodeShouldRunDaemonPod, judgeDaemonNode, daemonPodSpec } from './nodes.js';
export { planHistory, relabelPatches } from './revision.js';
export { refreshPods, splitInPlace } from './inPlace.js';
export { withDaemonTolerations, DAEMON_TOLERATIONS } from './tolerations.js';
export { DEFAULT_DAEMONSET_OPTIONS } from './types.js';
export type {
  DaemonSetPlan,
  DaemonSetPlanInput,
  DaemonSetPlannerOptions,
  DaemonPodCreate,
  PlanEvent,
  SyncPlan,
} from './types.js';
