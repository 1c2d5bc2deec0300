/** The SidecarSet controller's pure planner (./plan.ts) and the injection rules the pod webhook uses. */
export {
  matchedPods,
  planSidecarSet,
  type SidecarSetIdle,
  type SidecarSetPlan,
  type SidecarSetPodWrite,
} from './plan.js';
export { calculateSidecarSetStatus, sidecarSetStatusChanged } from './status.js';
export { nextUpgradePods, type NextUpgrade } from './strategy.js';
export { upgradePodSidecars } from './upgradePod.js';
export { upgradableCondition } from './condition.js';
