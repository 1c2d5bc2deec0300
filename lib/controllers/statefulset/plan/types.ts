/**
 * The Advanced StatefulSet planner's input, options and output (the shape of OpenKruise's one sync pass,
 * `defaultStatefulSetControl.UpdateStatefulSet`, returned as data).
 */
import type { FieldError } from '../../../api/errors.js';
import type { ImagePullJob } from '../../../api/imagePullJob.js';
import type { ImagePullJobPlan } from '../../../podset/predownload/imagePullJobs.js';
import type { ControllerRevision, PersistentVolumeClaim, Pod } from '../../../api/types.js';
import type { Action } from '../../../podset/actions.js';
import type { StatefulSet, StatefulSetStatus } from '../api/types.js';

/** The feature gates the planner reads, named as OpenKruise's (v1.9.0 defaults in {@link DEFAULT_PLANNER_OPTIONS}). */
export interface StatefulSetPlannerOptions {
  /** `StatefulSetStartOrdinal` (alpha, off): `spec.ordinals.start` counts. */
  statefulSetStartOrdinal: boolean;
  /** `PodIndexLabel` (beta, on): pods carry `apps.kubernetes.io/pod-index`. */
  podIndexLabel: boolean;
  /** `StatefulSetAutoDeletePVC` (beta, on): the retention-policy default. */
  statefulSetAutoDeletePVC: boolean;
  /** `TemplateNoDefaults` (alpha, off). */
  templateNoDefaults: boolean;
  /** `InPlaceUpdateEnvFromMetadata` (beta, on). */
  inPlaceUpdateEnvFromMetadata: boolean;
  /** `InPlaceWorkloadVerticalScaling` (alpha, off). */
  inPlaceWorkloadVerticalScaling: boolean;
  /** `StatefulSetAutoResizePVCGate` (alpha, off): `volumeClaimUpdateStrategy` OnPodRollingUpdate resizes PVCs. */
  statefulSetAutoResizePVCGate: boolean;
  /** `PreDownloadImageForInPlaceUpdate` (alpha, off): ImagePullJobs for an in-place update's new images (./preDownload.ts). */
  preDownloadImageForInPlaceUpdate: boolean;
  /** `KruiseDaemon` (beta, on): with it off, OpenKruise never pre-downloads (no node agent pulls). */
  kruiseDaemon: boolean;
}

/** OpenKruise v1.9.0's gate defaults. */
export const DEFAULT_PLANNER_OPTIONS: StatefulSetPlannerOptions = {
  statefulSetStartOrdinal: false,
  podIndexLabel: true,
  statefulSetAutoDeletePVC: true,
  templateNoDefaults: false,
  inPlaceUpdateEnvFromMetadata: true,
  inPlaceWorkloadVerticalScaling: false,
  statefulSetAutoResizePVCGate: false,
  preDownloadImageForInPlaceUpdate: false,
  kruiseDaemon: true,
};

/** A StorageClass as the PVC resize (./resize.ts) reads it. */
export interface StorageClassInfo {
  name: string;
  /** `allowVolumeExpansion`; absent means false. */
  allowVolumeExpansion?: boolean;
}

/** An Event a pass records on the set besides its actions' outcomes (the executor records it as it is). */
export interface PlanEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** What one pass reads. */
export interface StatefulSetPlanInput {
  /** The StatefulSet as stored (defaulted here). */
  statefulSet: StatefulSet;
  /** Pods the set owns (claimed by controller reference and selector). */
  pods: readonly Pod[];
  /** ControllerRevisions of the namespace (filtered to the owned ones here). */
  revisions: readonly ControllerRevision[];
  /** PVCs of the namespace; a new pod's claims that already exist are not created again. */
  pvcs?: readonly PersistentVolumeClaim[];
  /** StorageClasses, read only when PVCs may be resized (./resize.ts); absent: none. */
  storageClasses?: readonly StorageClassInfo[];
  /**
   * The namespace's ImagePullJobs, read only with gate `PreDownloadImageForInPlaceUpdate` on; absent when not read or
   * the resource is not served (then nothing is pre-downloaded).
   */
  imagePullJobs?: readonly ImagePullJob[];
  now: Date;
  options?: Partial<StatefulSetPlannerOptions>;
  /**
   * False while an in-place update this controller made is not yet visible in `pods` (OpenKruise's update
   * expectations): the rolling update then waits. Default true.
   */
  updateExpectationsSatisfied?: boolean;
}

/** The revision writes of a pass, in order: create or bump, then history deletions. */
export interface StatefulSetRevisionPlan {
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
  create?: ControllerRevision;
  bump?: { name: string; revision: number };
  /** Revisions beyond `revisionHistoryLimit`, oldest first. */
  deleteNames: string[];
}

/** One pass's decisions. */
export interface StatefulSetPlan {
  /** Validation errors: when non-empty nothing else is planned (no pod, revision or status write). */
  errors: FieldError[];
  revisions: StatefulSetRevisionPlan;
  /** Pod writes in order; a failed CreatePod stops the later ones (batch = its position among the creates). */
  actions: Action[];
  /** The status to write. */
  status: StatefulSetStatus;
  /** Whether `status` differs from the stored one in a field upstream compares (`inconsistentStatus`). */
  statusChanged: boolean;
  /** Seconds until a pod becomes available or an in-place grace period ends, when that is why the pass waits. */
  requeueAfterSeconds?: number;
  /** Why the pass stopped early, for logs and tests (`undefined` when it ran to the end). */
  halt?: string;
  /** An error upstream returns from the sync (e.g. InPlaceOnly but the pod cannot be updated in place). */
  error?: string;
  /** Events the pass records besides its actions' outcomes (a PVC that cannot be resized: `FailedUpdatePVC`). */
  events?: PlanEvent[];
  /** Image pre-download writes (./preDownload.ts), best effort, made after the revisions; absent: none. */
  preDownload?: ImagePullJobPlan;
}
