/**
 * The Advanced DaemonSet planner's input and output (./plan.ts `planDaemonSet`): plain data, no I/O.
 */
import type { ImagePullJob } from '../../../api/imagePullJob.js';
import type { ImagePullJobPlan } from '../../../podset/predownload/imagePullJobs.js';
import type { FieldError } from '../../../api/errors.js';
import type { Node } from '../../../api/node.js';
import type { ControllerRevision, Pod } from '../../../api/types.js';
import type { Action, PodRef } from '../../../podset/actions.js';
import type { DaemonSet, DaemonSetStatus } from '../api/types.js';
import type { FailedPodBackoff } from './failedPodBackoff.js';
import type { RelabelPatch } from './revision.js';

/** An Event the pass records on the DaemonSet (a `KubeEvent`, declared here so the planner imports no lib/kube). */
export interface PlanEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** The options OpenKruise's feature gates set for the DaemonSet controller (its in-place update). */
export interface DaemonSetPlannerOptions {
  /** `InPlaceUpdateEnvFromMetadata` (beta, on). */
  inPlaceUpdateEnvFromMetadata: boolean;
  /** `InPlaceWorkloadVerticalScaling` (alpha, off). */
  inPlaceWorkloadVerticalScaling: boolean;
  /** `PreDownloadImageForDaemonSetUpdate` (alpha, off): ImagePullJobs for a new revision's images. */
  preDownloadImageForDaemonSetUpdate: boolean;
  /** `KruiseDaemon` (beta, on): without it nothing pulls images, so no pre-download. */
  kruiseDaemon: boolean;
}

/** OpenKruise v1.9.0's gate defaults. */
export const DEFAULT_DAEMONSET_OPTIONS: DaemonSetPlannerOptions = {
  inPlaceUpdateEnvFromMetadata: true,
  inPlaceWorkloadVerticalScaling: false,
  preDownloadImageForDaemonSetUpdate: false,
  kruiseDaemon: true,
};

/** What one pass read, and the time. */
export interface DaemonSetPlanInput {
  /** The DaemonSet as read (the planner applies the webhook's defaults itself). */
  ds: DaemonSet;
  /** Pods whose controller reference names the DaemonSet's UID (any phase, terminating included). */
  pods: readonly Pod[];
  /** Every Node of the cluster, in list order. */
  nodes: readonly Node[];
  /** ControllerRevisions whose controller reference names the DaemonSet's UID. */
  revisions: readonly ControllerRevision[];
  now: Date;
  /** Random 5-character suffixes of new pod names; called once per pod to create, in order. */
  newSuffix: () => string;
  /** The gates' options; default {@link DEFAULT_DAEMONSET_OPTIONS}. */
  options?: Partial<DaemonSetPlannerOptions>;
  /** The failed-pod delays kept from earlier passes (./failedPodBackoff.ts); default none. */
  backoffs?: readonly FailedPodBackoff[];
  /**
   * The namespace's ImagePullJobs, listed only when image pre-download is on (gates
   * `PreDownloadImageForDaemonSetUpdate` and `KruiseDaemon`) and the resource is served; undefined: no pre-download.
   */
  imagePullJobs?: readonly ImagePullJob[];
}

/** A pod to create on a node, in a slow-start batch (0, 1, 1, 2, 2, 2, 2, …). */
export interface DaemonPodCreate {
  node: string;
  pod: Pod;
  batch: number;
}

/** A pass that syncs the DaemonSet. */
export interface SyncPlan {
  type: 'Sync';
  /** The current revision's hash. */
  hash: string;
  /** The current revision's name (a failed in-place update's Event names it). */
  currentRevision: string;
  /** A ControllerRevision to create first (the template changed, or the first pass). */
  createRevision?: ControllerRevision;
  /** Image pre-download writes, after the revision and before any pod write (./preDownload.ts). */
  preDownload?: ImagePullJobPlan;
  /**
   * Duplicate current revisions (`dedupCurHistories`): the pods relabelled to the kept one's hash, then the
   * duplicates deleted, before any other write (the rest of the plan sees the pods relabelled).
   */
  dedup?: { relabel: RelabelPatch[]; deleteRevisions: string[] };
  /** The current ControllerRevision with a raised `revision`, to write first (after `dedup`). */
  renumberRevision?: ControllerRevision;
  /** Events recorded before any pod write, in order. */
  events: PlanEvent[];
  /** Pods to create, in order. */
  creates: DaemonPodCreate[];
  /** Pods to delete, in order (after the creates, as upstream). */
  deletes: PodRef[];
  /**
   * In-place work, before the creates: the refresh of pods mid-update (`refreshUpdateStates`: grace period, next
   * batch, `InPlaceUpdateReady` True) and the starts of in-place updates (`InPlaceIfPossible`), in pod order.
   */
  inPlace: Extract<Action, { type: 'PatchPod' | 'PatchPodStatus' }>[];
  /** The pods whose in-place update starts in this pass (one Normal `SuccessfulUpdatePodInPlace` each). */
  updatedInPlace: string[];
  /** `lifecycle.preDelete`: pods held in `PreparingDelete` instead of deleted, after the in-place work. */
  preparingDelete: Extract<Action, { type: 'PatchPod' | 'PatchPodStatus' }>[];
  /**
   * `KruisePodReady` condition patches of listed pods that have the gate and not the condition (OpenKruise's
   * pod-readiness controller), after the pod writes.
   */
  readyPatches: Extract<Action, { type: 'PatchPodStatus' }>[];
  /**
   * `KruisePodReady` True on the pods of `creates` (they get its gate), in create order: OpenKruise's pod-readiness
   * controller writes it as soon as the new pod appears, whatever the DaemonSet controller does; written with
   * `readyPatches`, only for the pods whose create made them (lib/podset/createdReadiness.ts).
   */
  createdReadyPatches: Extract<Action, { type: 'PatchPodStatus' }>[];
  /** Old ControllerRevisions to delete (beyond `revisionHistoryLimit`), after the pod writes. */
  deleteRevisions: string[];
  /** The status to write. */
  status: DaemonSetStatus;
  /** The failed-pod delays to keep (./failedPodBackoff.ts): raised by this pass, expired ones dropped, by key. */
  backoffs: FailedPodBackoff[];
  /** Seconds until the pass should run again (a ready pod becoming available, a node's failed-pod delay). */
  requeueAfterSeconds?: number;
}

/** What one pass does. */
export type DaemonSetPlan =
  /** Being deleted: nothing. */
  | { type: 'Skip' }
  /** An empty selector: the Warning, nothing else. */
  | { type: 'SelectingAll'; events: PlanEvent[] }
  /** What OpenKruise's validating webhook refuses (../api/validation.ts): reported, nothing else. */
  | { type: 'Invalid'; errors: FieldError[] }
  | SyncPlan;

export type { PodRef, DaemonSetStatus };
