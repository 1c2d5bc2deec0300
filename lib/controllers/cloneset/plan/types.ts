/**
 * OpenKruise: none as one file: `DiffRecord` is pkg/controller/cloneset/sync/cloneset_sync_utils.go
 * `expectationDiffs`, `PlannerOptions` the CloneSet gates of pkg/features/kruise_features.go; `Plan` (with the
 * pod-set toolkit's `Action`s, lib/podset/actions.ts) replaces the controller's direct writes.
 *
 * The planner's contract: what goes in ({@link PlanInput}), what comes out ({@link Plan}). Everything here is
 * plain data; `planCloneSet(input)` is a pure function of it (same input, same plan).
 */
import type {
  CloneSet,
  CloneSetStatus,
  ControllerRevision,
  PersistentVolumeClaim,
  Pod,
} from '../../../api/types.js';
import type { FieldError } from '../../../api/errors.js';
import type { ImagePullJob } from '../../../api/imagePullJob.js';
import type { Action, PodRef } from '../../../podset/actions.js';
import type { ImagePullJobPlan } from '../../../podset/predownload/imagePullJobs.js';

/**
 * Node labels by node name, for the topology-spread ranker (the planner reads no Node objects: the pass reads the pods'
 * nodes and hands their labels in).
 */
export type NodeLabels = Record<string, Record<string, string>>;

/**
 * Feature gates and controller flags that change CloneSet behaviour
 * (docs/behaviour/cloneset.md#feature-gates), with OpenKruise's production defaults in
 * {@link DEFAULT_PLANNER_OPTIONS}.
 */
export interface PlannerOptions {
  /**
   * Raising partition moves updated pods back to the current revision (docs/behaviour/cloneset.md#diff).
   * Default false.
   */
  cloneSetPartitionRollback: boolean;
  /**
   * In scaling maths only, a `PreparingUpdate` pod counts as updated
   * (docs/behaviour/cloneset.md#pod-predicates). Default false.
   */
  preparingUpdateAsUpdate: boolean;
  /**
   * Pod label `controller-revision-hash` holds only the hash suffix (docs/behaviour/cloneset.md#new-pods).
   * Default false.
   */
  cloneSetShortHash: boolean;
  /**
   * Template label/annotation changes referenced by env fieldRefs restart containers in place
   * (docs/behaviour/cloneset.md#in-place-update). Default true.
   */
  inPlaceUpdateEnvFromMetadata: boolean;
  /**
   * cpu/memory changes may be applied in place (docs/behaviour/cloneset.md#in-place-update). Default false.
   */
  inPlaceWorkloadVerticalScaling: boolean;
  /**
   * A volumeClaimTemplates change forces recreate (docs/behaviour/cloneset.md#in-place-update). Default
   * false.
   */
  recreatePodWhenChangeVCTInCloneSet: boolean;
  /**
   * Global `--cloneset-scaling-exclude-preparing-delete` flag (docs/behaviour/cloneset.md#api-fields).
   * Default false.
   */
  scalingExcludePreparingDelete: boolean;
  /**
   * Scale/resourceVersion expectation timeout, seconds (docs/behaviour/cloneset.md#expectations). Default
   * 300.
   */
  expectationTimeoutSeconds: number;
  /**
   * OpenKruise's `TemplateNoDefaults` gate: the pod template is used as stored, without the webhook's pod-spec
   * defaults (lib/api/podTemplateDefaults.ts). Default false.
   */
  templateNoDefaults: boolean;
  /**
   * OpenKruise's `PreDownloadImageForInPlaceUpdate` gate: ImagePullJobs pull a new revision's images ahead of an
   * in-place update (docs/behaviour/cloneset.md#image-pre-download). Default false.
   */
  preDownloadImageForInPlaceUpdate: boolean;
  /**
   * OpenKruise's `KruiseDaemon` gate: off, it turns image pre-download off too
   * (docs/behaviour/cloneset.md#image-pre-download). Default true.
   */
  kruiseDaemon: boolean;
  /**
   * Kruiseless's own `PreDownloadImageWithPods` gate: with pre-download on and no node agent in the cluster,
   * short-lived pods pull the new images on the nodes of the pods to update
   * (docs/behaviour/cloneset.md#image-pre-download). Default false.
   */
  preDownloadImageWithPods: boolean;
  /**
   * OpenKruise's `PodUnavailableBudgetUpdateGate`: on, the PodUnavailableBudget that covers a pod is asked (and its
   * budget consumed) before the pod is updated, and the update waits while it refuses
   * (lib/controllers/cloneset/pubCheck.ts). Default false.
   */
  pubUpdateGate: boolean;
}

/** OpenKruise's production defaults (docs/behaviour/cloneset.md#feature-gates). */
export const DEFAULT_PLANNER_OPTIONS: Readonly<PlannerOptions> = Object.freeze({
  cloneSetPartitionRollback: false,
  preparingUpdateAsUpdate: false,
  cloneSetShortHash: false,
  inPlaceUpdateEnvFromMetadata: true,
  inPlaceWorkloadVerticalScaling: false,
  recreatePodWhenChangeVCTInCloneSet: false,
  scalingExcludePreparingDelete: false,
  expectationTimeoutSeconds: 300,
  templateNoDefaults: false,
  preDownloadImageForInPlaceUpdate: false,
  kruiseDaemon: true,
  preDownloadImageWithPods: false,
  pubUpdateGate: false,
});

/** Everything the planner needs, read from the API server by the caller. */
export interface PlanInput {
  /**
   * The CloneSet as stored (defaults are applied in memory by the planner,
   * docs/behaviour/cloneset.md#defaults).
   */
  cloneSet: CloneSet;
  /** Pods in the CloneSet's namespace with any owner reference to the CloneSet's UID (active or not). */
  pods: Pod[];
  /** PVCs in the namespace with an owner reference to the CloneSet's UID. */
  pvcs: PersistentVolumeClaim[];
  /**
   * ControllerRevisions in the namespace matching the selector (any order; the planner sorts,
   * docs/behaviour/cloneset.md#reconcile-order).
   */
  revisions: ControllerRevision[];
  /** The current time (the planner never reads the clock). */
  now: Date;
  /**
   * Source of new random instance ids (5 characters from `SAFE_ALPHABET`,
   * docs/behaviour/cloneset.md#pod-creation). Called until it returns an unused id. Inject a deterministic
   * one in tests.
   */
  newInstanceId: () => string;
  /** Feature gates; missing fields take {@link DEFAULT_PLANNER_OPTIONS}. */
  options?: Partial<PlannerOptions>;
  /**
   * ImagePullJobs of the CloneSet's namespace, listed only when pre-download is on; undefined when not listed or the
   * resource is not served (then pre-download is off, as OpenKruise without the CRD;
   * docs/behaviour/cloneset.md#image-pre-download).
   */
  imagePullJobs?: ImagePullJob[];
  /**
   * The CloneSet's pre-pull pods (label `kruiseless.io/image-prepull-for`), listed only with gate
   * `PreDownloadImageWithPods` on; undefined otherwise (docs/behaviour/cloneset.md#image-pre-download).
   */
  prePullPods?: Pod[];
  /** Whether the cluster has a node agent (kruise-daemon's NodeImages exist); read with the pre-pull pods. */
  nodeAgent?: boolean;
  /**
   * Labels of the pods' nodes, by node name, for the scale-in ranking under `topologySpreadConstraints`
   * (docs/behaviour/cloneset.md#scale-in-victims); read only when the template has constraints and more pods are
   * active than `replicas` (../spreadNodes.ts). Undefined: the same-node ranking.
   */
  nodeLabels?: NodeLabels;
}

/**
 * The record of docs/behaviour/cloneset.md#diff ("expectation diffs"), compared whole by tests. All counts
 * are pods; `updateNum` may be negative (rollback to the current revision) and so may `updateMaxUnavailable`.
 */
export interface DiffRecord {
  scaleUpNum: number;
  scaleUpNumOldRevision: number;
  scaleDownNum: number;
  scaleDownNumOldRevision: number;
  scaleUpLimit: number;
  deleteReadyLimit: number;
  useSurge: number;
  useSurgeOldRevision: number;
  updateNum: number;
  updateMaxUnavailable: number;
}

/** A Kubernetes Event to record on the CloneSet (docs/behaviour/cloneset.md#events). */
export interface PlanEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** What to do with ControllerRevisions (docs/behaviour/cloneset.md#revisions). */
export interface RevisionPlan {
  updateRevision: string;
  currentRevision: string;
  collisionCount: number;
  /** A revision to create (the template is new). */
  create?: ControllerRevision;
  /**
   * An existing revision to update (template reverted: revision number bumped, VCT-hash annotation
   * refreshed).
   */
  update?: ControllerRevision;
  /**
   * Revision names to delete beyond revisionHistoryLimit (docs/behaviour/cloneset.md#revisions history
   * truncation).
   */
  deleteNames: string[];
}

/**
 * What the pre-download step does in one reconcile (predownload/jobs.ts,
 * docs/behaviour/cloneset.md#image-pre-download).
 */
export interface PreDownloadPlan extends ImagePullJobPlan {
  /** Pre-pull pods to create and delete (predownload/prePullPods.ts); absent when there are none. */
  prePull?: PrePullPlan;
}

/** What the pre-pull step does in one reconcile (predownload/prePullPods.ts). */
export interface PrePullPlan {
  /** Pods to create, in node order. */
  create: Pod[];
  /** Pre-pull pods to delete: of another revision, or every one once the rollout is done or pre-pull is off. */
  delete: PodRef[];
  /** Look again after this many seconds while pulls are in flight or nodes wait their turn. */
  requeueAfterSeconds?: number;
}

/** The planner's output for one reconcile. */
export interface Plan {
  /**
   * Field errors when the CloneSet failed validation; then `actions` is empty
   * (docs/behaviour/cloneset.md#validation).
   */
  validationErrors: FieldError[];
  revisions: RevisionPlan;
  /**
   * Which phase produced the actions (docs/behaviour/cloneset.md#one-phase: a reconcile scales or updates,
   * never both).
   */
  phase: 'none' | 'scale' | 'update';
  /** The scale-phase diff record (docs/behaviour/cloneset.md#diff), for logs and tests. */
  diff: DiffRecord;
  /** Writes in order. */
  actions: Action[];
  /**
   * The update phase's writes and the first `KruisePodReady` conditions, to make instead of the rest of `actions`
   * when not one pod create of `actions` succeeds (a quota refusing them all): OpenKruise's `createPods` then
   * reports `scaling=false` and `syncCloneSet` runs `Update` in the same reconcile
   * (docs/behaviour/cloneset.md#one-phase). Only when the scale phase planned creates; absent when there is nothing
   * to write then.
   */
  ifNoneCreated?: Action[];
  /** Status to write through the status subresource. */
  status: CloneSetStatus;
  /** Whether the status differs in a way that warrants a write (docs/behaviour/cloneset.md#status). */
  statusChanged: boolean;
  /**
   * New `spec.scaleStrategy.podsToDelete` when stale names were dropped
   * (docs/behaviour/cloneset.md#after-status), else undefined.
   */
  podsToDelete?: string[];
  events: PlanEvent[];
  /**
   * Image pre-download writes (docs/behaviour/cloneset.md#image-pre-download): best effort, made after the revisions
   * and before the actions; a failure is logged and told as an Event, never stops the pass. Absent when there is
   * nothing to write.
   */
  preDownload?: PreDownloadPlan;
  /**
   * Smallest positive delay after which to reconcile again, seconds
   * (docs/behaviour/cloneset.md#reconcile-order), else undefined.
   */
  requeueAfterSeconds?: number;
}

/**
 * Numbers and switches resolved from a (defaulted) CloneSet's strategies (docs/behaviour/cloneset.md#diff).
 * Counts are pods.
 */
export interface StrategyNumbers {
  /** R = spec.replicas. */
  replicas: number;
  /**
   * P = partition helper (docs/behaviour/cloneset.md#int-or-percent), 0 when the partition is invalid or
   * there is no rolling-update block.
   */
  partition: number;
  /** The partition helper's error message, if the partition is invalid (then `partition` is 0). */
  partitionError?: string;
  /** MS = legacy helper(maxSurge, R, up), 0 while paused or without a rolling-update block. */
  maxSurge: number;
  /**
   * MU = legacy helper(maxUnavailable, R, up iff MS == 0 else down); floor(20% R) without a rolling-update
   * block.
   */
  maxUnavailable: number;
  /** SMU = legacy helper(scaleStrategy.maxUnavailable ?? 2147483647, R, up). */
  scaleMaxUnavailable: number;
  /** spec.minReadySeconds, seconds. */
  minReadySeconds: number;
  /**
   * False for OnDelete (no rolling-update block, docs/behaviour/cloneset.md#v1beta1-mapping), unless written through
   * v1beta1 with one.
   */
  rollingUpdate: boolean;
  paused: boolean;
  /** `ReCreate`, `InPlaceIfPossible`, `InPlaceOnly` or `OnDelete`. */
  updateType: 'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly' | 'OnDelete';
  /**
   * excludePreparingDelete: the CloneSet label, the global flag, or the v1beta1 field of a v1beta1 write
   * (docs/behaviour/cloneset.md#api-fields).
   */
  excludePreparingDelete: boolean;
  /**
   * expectedUpdatedReplicas = R − P (R without a rolling-update block); 0 when the partition is invalid
   * (docs/behaviour/cloneset.md#status).
   */
  expectedUpdatedReplicas: number;
}

/**
 * What the scale and update phases see (docs/behaviour/cloneset.md#reconcile-order): the defaulted CloneSet,
 * its revisions, the claimed active pods and the owned non-terminating PVCs.
 */
export interface PhaseContext {
  /** The CloneSet with in-memory defaults applied (docs/behaviour/cloneset.md#defaults). */
  cloneSet: CloneSet;
  strategy: StrategyNumbers;
  /** The current revision (status.currentRevision if listed, else the update revision). */
  currentRevision: ControllerRevision;
  /** The update revision (revision of the live template). */
  updateRevision: ControllerRevision;
  /**
   * Every listed revision, sorted ascending (docs/behaviour/cloneset.md#reconcile-order), including current
   * and update.
   */
  revisions: ControllerRevision[];
  /** Claimed active pods, in list order (sorted by name for determinism). */
  pods: Pod[];
  /** Owned PVCs without deletionTimestamp. */
  pvcs: PersistentVolumeClaim[];
  now: Date;
  options: PlannerOptions;
  newInstanceId: () => string;
  /** {@link PlanInput.nodeLabels}. */
  nodeLabels?: NodeLabels;
}

/**
 * Output of the scale phase (docs/behaviour/cloneset.md#scale-phase) and of the update phase
 * (docs/behaviour/cloneset.md#update-phase).
 */
export interface PhaseResult {
  /**
   * Scale phase: whether it changed anything (then the update phase is skipped,
   * docs/behaviour/cloneset.md#one-phase).
   */
  changed: boolean;
  actions: Action[];
  events: PlanEvent[];
  /** Delay requested, seconds (e.g. in-place grace period remaining), else undefined. */
  requeueAfterSeconds?: number;
  /**
   * Error message that becomes a FailedScale / FailedUpdate condition
   * (docs/behaviour/cloneset.md#reconcile-order).
   */
  error?: string;
}
