/**
 * OpenKruise: none as one file: the writes OpenKruise's pod-managing controllers make directly through their client
 * (pkg/controller/cloneset/sync `createPods`, `deletePods`, `updatePod`; pkg/util/inplaceupdate `updatePodInPlace`;
 * pkg/util/lifecycle `UpdatePodLifecycle`; the pod-readiness controller), returned here as data.
 *
 * The pod-set toolkit's output: the pod and PVC writes a plan asks for, for the reconciler to perform in order.
 * Plain data; nothing here knows which workload kind planned them.
 */
import type { JsonObject, OwnerReference, PersistentVolumeClaim, Pod } from '../api/types.js';

/** Identifies the exact pod version an action was planned against (for resourceVersion preconditions). */
export interface PodRef {
  name: string;
  uid: string;
  resourceVersion?: string;
}

/**
 * Why a pod is deleted (recorded in the scale-down ledger and in logs). `RecreateUpdate` and `PodFailed` are
 * Advanced StatefulSet's: a pod deleted to be recreated at the update revision, and a Failed/Succeeded pod deleted
 * to be recreated (`processReplica`).
 */
export type DeleteReason =
  'ScaleDown' | 'SpecifiedDelete' | 'PreDeleteHookReleased' | 'ReplicasZero' | 'RecreateUpdate' | 'PodFailed';

/** Why a pod is patched. */
export type PatchReason =
  | 'LifecycleTransition'
  | 'BackfillPodTemplateHash'
  | 'RecreateUpdate'
  | 'InPlaceUpdate'
  | 'InPlaceUpdateGraceExpired'
  | 'InPlaceUpdateNextBatch'
  | 'CancelPreDelete'
  | 'ReleaseOwnership'
  /** Advanced StatefulSet: the pod-name and pod-index labels restored (`UpdateStatefulPod`). */
  | 'UpdateIdentity'
  /** Advanced DaemonSet: the kept current revision's hash, before its duplicates go (`dedupCurHistories`). */
  | 'RelabelDuplicateRevision';

/**
 * One write the reconciler performs, in plan order (the executor is lib/controllers/cloneset/execute.ts). Pod patches are
 * strategic-merge patches.
 */
export type Action =
  | {
      type: 'CreatePod';
      /** Complete pod object to POST. */
      pod: Pod;
      /** PVCs to create first (those not already present). */
      pvcs: PersistentVolumeClaim[];
      /** Revision name the pod is created at. */
      revision: string;
      /**
       * Slow-start batch index (batches of 1, 2, 4, …; docs/behaviour/cloneset.md#pod-creation); a failure
       * stops later batches.
       */
      batch: number;
    }
  | {
      type: 'DeletePod';
      pod: PodRef;
      reason: DeleteReason;
      /**
       * Owned PVCs with the pod's instance id, deleted right after the pod
       * (docs/behaviour/cloneset.md#scale-in-victims).
       */
      pvcNames: string[];
    }
  | {
      type: 'PatchPod';
      pod: PodRef;
      reason: PatchReason;
      patch: JsonObject;
      /**
       * In-place updates changing cpu/memory (gate `InPlaceWorkloadVerticalScaling`): a strategic-merge patch of the
       * containers' resources for the `pods/resize` subresource, sent before `patch` (the pod spec's resources are
       * not mutable through a pod patch on Kubernetes ≥ 1.32); a failure of either is the action's failure. On an
       * older server the executor sends it inside `patch` instead (lib/reconcile/pods/patchPod.ts). OpenKruise's
       * `PatchPodResource` before `UpdatePod` in pkg/util/inplaceupdate/inplace_update.go.
       */
      resize?: JsonObject;
      /**
       * `InPlaceUpdate` and `RecreateUpdate`: the revision the pod is updated to (the update revision, or the
       * current one when a partition rolls back), named by the outcome Events (docs/behaviour/cloneset.md#events).
       */
      revision?: string;
    }
  | {
      type: 'PatchPodStatus';
      pod: PodRef;
      reason:
        | 'InPlaceUpdateReady'
        | 'StartInPlaceUpdate'
        | 'MarkPodNotReady'
        | 'MarkPodReady'
        | 'InitKruisePodReady';
      patch: JsonObject;
    }
  | {
      type: 'CreatePVC';
      /** Complete PVC object to POST. */
      pvc: PersistentVolumeClaim;
      /** Name of the pod the PVC is for (named by the outcome Events). */
      podName: string;
    }
  | { type: 'DeletePVC'; name: string; uid: string }
  | {
      /**
       * Advanced StatefulSet's `volumeClaimUpdateStrategy` OnPodRollingUpdate: a PVC grown to its template's
       * request (a merge patch of `spec.resources` and the owning set's annotation), for the update of `pod`.
       */
      type: 'ResizePVC';
      name: string;
      uid: string;
      /** The claim's version as planned (the write's precondition). */
      resourceVersion?: string;
      pod: PodRef;
      patch: JsonObject;
    }
  | { type: 'PatchPVCOwner'; name: string; uid: string; ownerReferences: OwnerReference[] };
