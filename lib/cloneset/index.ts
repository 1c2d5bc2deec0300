/**
 * OpenKruise: none (the planner's public surface; OpenKruise's controller packages import each other
 * directly).
 *
 * The planner's public surface: what code outside `lib/cloneset` may import. The folders below mirror
 * OpenKruise's layout — `sync/` (pkg/controller/cloneset/sync: scale, update, the diff calculation),
 * `inplace/` (pkg/util/inplaceupdate), `lifecycle/` (pkg/util/lifecycle), `revision/`
 * (pkg/controller/cloneset/revision and the revision history) — and are internal; import from here instead.
 */
export { CONDITION_FAILED_VALIDATION, planCloneSet, smallestPositive } from './plan.js';
export { MAX_INT32, ProgressingReason, calculateStatus, setCondition, statusNeedsWrite } from './status.js';
export { resolveStrategy } from './strategy.js';
export { applyRevision, newRevision } from './revision/revision.js';
export {
  CLONESET_GATE_NAMES,
  InvalidFeatureGatesError,
  parseFeatureGates,
  type ParsedFeatureGates,
} from './featureGates.js';
export { hasPreDownloadWrites, planImagePullJobs } from './predownload/jobs.js';
export { preDownloadSettings, type PreDownloadSettings } from './predownload/settings.js';
export {
  LABEL_PREPULL_FOR,
  LABEL_PREPULL_REVISION,
  isPrePullPod,
  planPrePullPods,
} from './predownload/prePullPods.js';
export {
  DEFAULT_PLANNER_OPTIONS,
  type Action,
  type DeleteReason,
  type DiffRecord,
  type PatchReason,
  type PhaseContext,
  type PhaseResult,
  type Plan,
  type PlanEvent,
  type PlanInput,
  type PlannerOptions,
  type PodRef,
  type PreDownloadPlan,
  type PrePullPlan,
  type RevisionPlan,
  type StrategyNumbers,
} from './types.js';
