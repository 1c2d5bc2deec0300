/**
 * The planner's contract: what goes in ({@link PlanInput}), what comes out ({@link Plan}). Everything here is
 * plain data; `planCloneSet(input)` is a pure function of it (same input, same plan).
 */
import type {
  CloneSet,
  CloneSetStatus,
  ControllerRevision,
  JsonObject,
  OwnerReference,
  PersistentVolumeClaim,
  Pod,
} from '../api/types.js';

/**
 * Feature gates and controller flags that change CloneSet behaviour (spec §0.5), with OpenKruise's production
 * defaults in {@link DEFAULT_PLANNER_OPTIONS}.
 */
export interface PlannerOptions {
  /** Raising partition moves updated pods back to the current revision (spec §3.5). Default false. */
  cloneSetPartitionRollback: boolean;
  /** In scaling maths only, a `PreparingUpdate` pod counts as updated (spec §3.4). Default false. */
  preparingUpdateAsUpdate: boolean;
  /** Pod label `controller-revision-hash` holds only the hash suffix (spec §2.1). Default false. */
  cloneSetShortHash: boolean;
  /** Template label/annotation changes referenced by env fieldRefs restart containers in place (spec §3.10). Default true. */
  inPlaceUpdateEnvFromMetadata: boolean;
  /** cpu/memory changes may be applied in place (spec §3.10). Default false. */
  inPlaceWorkloadVerticalScaling: boolean;
  /** A volumeClaimTemplates change forces recreate (spec §3.10). Default false. */
  recreatePodWhenChangeVCTInCloneSet: boolean;
  /** Global `--cloneset-scaling-exclude-preparing-delete` flag (spec §1.3). Default false. */
  scalingExcludePreparingDelete: boolean;
  /** Scale/resourceVersion expectation timeout, seconds (spec §3.14). Default 300. */
  expectationTimeoutSeconds: number;
  /**
   * OpenKruise's `TemplateNoDefaults` gate: the pod template is used as stored, without the webhook's pod-spec
   * defaults (lib/api/podTemplateDefaults.ts). Default false.
   */
  templateNoDefaults: boolean;
}

/** OpenKruise's production defaults (spec §0.5). */
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
});

/** Everything the planner needs, read from the API server by the caller. */
export interface PlanInput {
  /** The CloneSet as stored (defaults are applied in memory by the planner, spec §1.6). */
  cloneSet: CloneSet;
  /** Pods in the CloneSet's namespace with any owner reference to the CloneSet's UID (active or not). */
  pods: Pod[];
  /** PVCs in the namespace with an owner reference to the CloneSet's UID. */
  pvcs: PersistentVolumeClaim[];
  /** ControllerRevisions in the namespace matching the selector (any order; the planner sorts, spec §3.1 step 8). */
  revisions: ControllerRevision[];
  /** The current time (the planner never reads the clock). */
  now: Date;
  /**
   * Source of new random instance ids (5 characters from `SAFE_ALPHABET`, spec §3.7). Called until it returns an
   * unused id. Inject a deterministic one in tests.
   */
  newInstanceId: () => string;
  /** Feature gates; missing fields take {@link DEFAULT_PLANNER_OPTIONS}. */
  options?: Partial<PlannerOptions>;
}

/**
 * The record of spec §3.5 ("expectation diffs"), compared whole by tests. All counts are pods; `updateNum`
 * may be negative (rollback to the current revision) and so may `updateMaxUnavailable`.
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

/** Identifies the exact pod version an action was planned against (for resourceVersion preconditions). */
export interface PodRef {
  name: string;
  uid: string;
  resourceVersion?: string;
}

/** Why a pod is deleted (recorded in the scale-down ledger and in logs). */
export type DeleteReason = 'ScaleDown' | 'SpecifiedDelete' | 'PreDeleteHookReleased' | 'ReplicasZero';

/** Why a pod is patched. */
export type PatchReason =
  | 'LifecycleTransition'
  | 'BackfillPodTemplateHash'
  | 'RecreateUpdate'
  | 'InPlaceUpdate'
  | 'InPlaceUpdateGraceExpired'
  | 'InPlaceUpdateNextBatch'
  | 'CancelPreDelete'
  | 'ReleaseOwnership';

/** One write the reconciler performs, in plan order. Pod patches are strategic-merge patches. */
export type Action =
  | {
      type: 'CreatePod';
      /** Complete pod object to POST. */
      pod: Pod;
      /** PVCs to create first (those not already present). */
      pvcs: PersistentVolumeClaim[];
      /** Revision name the pod is created at. */
      revision: string;
      /** Slow-start batch index (batches of 1, 2, 4, …; spec §3.7); a failure stops later batches. */
      batch: number;
    }
  | {
      type: 'DeletePod';
      pod: PodRef;
      reason: DeleteReason;
      /** Owned PVCs with the pod's instance id, deleted right after the pod (spec §3.8). */
      pvcNames: string[];
    }
  | { type: 'PatchPod'; pod: PodRef; reason: PatchReason; patch: JsonObject }
  | {
      type: 'PatchPodStatus';
      pod: PodRef;
      reason: 'InPlaceUpdateReady' | 'StartInPlaceUpdate' | 'MarkPodNotReady' | 'MarkPodReady';
      patch: JsonObject;
    }
  | { type: 'DeletePVC'; name: string; uid: string }
  | { type: 'PatchPVCOwner'; name: string; uid: string; ownerReferences: OwnerReference[] };

/** A Kubernetes Event to record on the CloneSet (spec §2.8). */
export interface PlanEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** What to do with ControllerRevisions (spec §3.3). */
export interface RevisionPlan {
  updateRevision: string;
  currentRevision: string;
  collisionCount: number;
  /** A revision to create (the template is new). */
  create?: ControllerRevision;
  /** An existing revision to update (template reverted: revision number bumped, VCT-hash annotation refreshed). */
  update?: ControllerRevision;
  /** Revision names to delete beyond revisionHistoryLimit (spec §3.3 history truncation). */
  deleteNames: string[];
}

/** The planner's output for one reconcile. */
export interface Plan {
  /** Field errors when the CloneSet failed validation; then `actions` is empty (DESIGN §2a). */
  validationErrors: { path: string; message: string }[];
  revisions: RevisionPlan;
  /** Which phase produced the actions (spec §0.2: a reconcile scales or updates, never both). */
  phase: 'none' | 'scale' | 'update';
  /** The scale-phase diff record (spec §3.5), for logs and tests. */
  diff: DiffRecord;
  /** Writes in order. */
  actions: Action[];
  /** Status to write through the status subresource. */
  status: CloneSetStatus;
  /** Whether the status differs in a way that warrants a write (spec §3.12 "write condition"). */
  statusChanged: boolean;
  /** New `spec.scaleStrategy.podsToDelete` when stale names were dropped (spec §3.13), else undefined. */
  podsToDelete?: string[];
  events: PlanEvent[];
  /** Smallest positive delay after which to reconcile again, seconds (spec §3.1 step 17), else undefined. */
  requeueAfterSeconds?: number;
}

/**
 * Numbers and switches resolved from a (defaulted) CloneSet's strategies (spec §3.5 "Inputs"). Counts are pods.
 */
export interface StrategyNumbers {
  /** R = spec.replicas. */
  replicas: number;
  /** P = partition helper (spec §1.7), 0 when the partition is invalid or there is no rolling-update block. */
  partition: number;
  /** The partition helper's error message, if the partition is invalid (then `partition` is 0). */
  partitionError?: string;
  /** MS = legacy helper(maxSurge, R, up), 0 while paused or without a rolling-update block. */
  maxSurge: number;
  /** MU = legacy helper(maxUnavailable, R, up iff MS == 0 else down); floor(20% R) without a rolling-update block. */
  maxUnavailable: number;
  /** SMU = legacy helper(scaleStrategy.maxUnavailable ?? 2147483647, R, up). */
  scaleMaxUnavailable: number;
  /** spec.minReadySeconds, seconds. */
  minReadySeconds: number;
  /** False only for OnDelete (no rolling-update block, spec §1.8). */
  rollingUpdate: boolean;
  paused: boolean;
  /** `ReCreate`, `InPlaceIfPossible`, `InPlaceOnly` or `OnDelete`. */
  updateType: 'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly' | 'OnDelete';
  /** excludePreparingDelete: CloneSet label or the global flag (spec §1.3). */
  excludePreparingDelete: boolean;
  /** expectedUpdatedReplicas = R − P (R without a rolling-update block); 0 when the partition is invalid (spec §3.12). */
  expectedUpdatedReplicas: number;
}

/**
 * What the scale and update phases see (spec §3.1 steps 7–13): the defaulted CloneSet, its revisions, the claimed
 * active pods and the owned non-terminating PVCs.
 */
export interface PhaseContext {
  /** The CloneSet with in-memory defaults applied (spec §1.6). */
  cloneSet: CloneSet;
  strategy: StrategyNumbers;
  /** The current revision (status.currentRevision if listed, else the update revision). */
  currentRevision: ControllerRevision;
  /** The update revision (revision of the live template). */
  updateRevision: ControllerRevision;
  /** Every listed revision, sorted ascending (spec §3.1 step 8), including current and update. */
  revisions: ControllerRevision[];
  /** Claimed active pods, in list order (sorted by name for determinism). */
  pods: Pod[];
  /** Owned PVCs without deletionTimestamp. */
  pvcs: PersistentVolumeClaim[];
  now: Date;
  options: PlannerOptions;
  newInstanceId: () => string;
}

/** Output of the scale phase (spec §3.6) and of the update phase (spec §3.9). */
export interface PhaseResult {
  /** Scale phase: whether it changed anything (then the update phase is skipped, spec §0.2). */
  changed: boolean;
  actions: Action[];
  events: PlanEvent[];
  /** Delay requested, seconds (e.g. in-place grace period remaining), else undefined. */
  requeueAfterSeconds?: number;
  /** Error message that becomes a FailedScale / FailedUpdate condition (spec §3.1 step 13). */
  error?: string;
}
