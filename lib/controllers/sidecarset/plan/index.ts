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
export {
  customVersionToLabel,
  ownedRevisions,
  planSidecarSetRevision,
  revisionsToTruncate,
  type SidecarSetRevisionPlan,
} from './history.js';
export { newSidecarSetRevision, sidecarSetRevisionData, sidecarSetRevisionName } from './revision.js';
export type { LatestRevision } from './status.js';
