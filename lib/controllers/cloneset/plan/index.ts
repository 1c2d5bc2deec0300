/**
 * OpenKruise: none (the planner's public surface; OpenKruise's controller packages import each other
 * directly).
 *
 * The planner's public surface: what code outside `lib/controllers/cloneset/plan` may import. The folders below mirror
 * OpenKruise's layout — `sync/` (pkg/controller/cloneset/sync: scale, update, the diff calculation),
 * `revision/` (pkg/controller/cloneset/revision and the revision history), `predownload/`
 * (pkg/controller/cloneset/cloneset_predownload_image.go) — and are internal; import from here instead. What every
 * pod-managing kind shares (pkg/util's inplaceupdate, lifecycle, updatesort, history; the pod `Action`s) is the
 * pod-set toolkit in `lib/podset`, imported from its own files.
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
export {
  LABEL_PREPULL_FOR,
  LABEL_PREPULL_REVISION,
  isPrePullPod,
  planPrePullPods,
} from './predownload/prePullPods.js';
export {
  DEFAULT_PLANNER_OPTIONS,
  type DiffRecord,
  type PhaseContext,
  type PhaseResult,
  type Plan,
  type PlanEvent,
  type PlanInput,
  type PlannerOptions,
  type PreDownloadPlan,
  type PrePullPlan,
  type RevisionPlan,
  type StrategyNumbers,
} from './types.js';
