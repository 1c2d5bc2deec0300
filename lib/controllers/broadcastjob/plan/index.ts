/** The BroadcastJob planner (pure): ./plan.ts `planBroadcastJob` and its parts. */
export { planBroadcastJob, isJobFinished, isJobComplete, ttlLeftMs, deadlineLeftMs } from './plan.js';
export { statusAfter, allWritesMade, type WritesMade } from './status.js';
export { buildJobPod, jobPodLabels } from './newPod.js';
export { mockPodSpec, nodesToRunPod } from './nodes.js';
export { podsByNode, podsByOutcome, isPodFailed } from './pods.js';
export type { BroadcastJobPlan, BroadcastJobPlanInput, Finish, PlanEvent, SyncPlan } from './types.js';
