/** The WorkloadSpread planners: pure functions of the objects read (no I/O under plan/). */
export { decideLedger, hasPercentSubset, initialSubsetStatuses, rfc3339Seconds } from './ledger.js';
export type { LedgerDecision, LedgerInput, LedgerOperation } from './ledger.js';
export { injectSubset } from './inject.js';
export { injectedAnnotation, injectedOf, placedBy } from './injected.js';
export { planDeletionCosts, type DeletionCostPatch } from './deletionCost.js';
export {
  planStatus,
  subsetMax,
  type StatusEvent,
  type StatusPlan,
  type UnschedulablePods,
} from './status.js';
export {
  MAX_SCHEDULED_FAILED_DURATION_MS,
  mergeCondition,
  pendingTimeout,
  planSubsetSchedule,
  rescheduleCriticalSeconds,
  type PendingTimeout,
  type SubsetSchedule,
  type SubsetScheduleInput,
} from './reschedule.js';
export { groupPods, type GroupedPods, type SubsetPods } from './subsetPods.js';
export { groupWithExisting, type PodAdoption } from './existingPods.js';
export { hasVersionedStatus, podVersion } from './version.js';
export { strategicMergePod } from './strategicMerge.js';
export { planWorkloadSpread, type TargetsRead, type WorkloadSpreadPlan } from './plan.js';
export { podOrdinal, subsetByOrdinal } from './ordinal.js';
