/**
 * OpenKruise: pkg/util/inplaceupdate/inplace_update.go `UpdateOptions` and the feature gates its defaults read
 * (pkg/features/kruise_features.go `InPlaceUpdateEnvFromMetadata`, `InPlaceWorkloadVerticalScaling`,
 * `RecreatePodWhenChangeVCTInCloneSetGate`); pkg/util/revisionadapter `Interface.WriteRevisionHash`.
 *
 * What the in-place update rules take from the workload that uses them. OpenKruise reads the gates from its
 * process-wide gate set and the revision labels from the controller's revision adapter; here the calling planner
 * passes both, built from its own options (for CloneSet: lib/controllers/cloneset/plan/inPlaceOptions.ts).
 */

/** The feature gates the in-place rules read, each named as OpenKruise's gate. */
export interface InPlaceUpdateGates {
  /**
   * `InPlaceUpdateEnvFromMetadata`: template label/annotation changes read by a container's env fieldRef restart
   * that container in place (docs/behaviour/cloneset.md#in-place-update).
   */
  inPlaceUpdateEnvFromMetadata: boolean;
  /**
   * `InPlaceWorkloadVerticalScaling`: cpu/memory changes may be applied in place
   * (docs/behaviour/cloneset.md#in-place-update).
   */
  inPlaceWorkloadVerticalScaling: boolean;
  /**
   * `RecreatePodWhenChangeVCTInCloneSetGate`: revisions whose volume-claim-template hashes differ are never updated
   * in place (docs/behaviour/cloneset.md#in-place-update).
   */
  recreatePodWhenChangeVCTInCloneSet: boolean;
}

/** Everything starting an in-place update needs besides the pod and its spec. */
export interface InPlaceUpdateOptions extends InPlaceUpdateGates {
  /**
   * The revision labels a pod moved to `revision` (a ControllerRevision name) carries, merged into the pod's labels
   * (OpenKruise's revision adapter `WriteRevisionHash`; for CloneSet `controller-revision-hash` and
   * `pod-template-hash`, docs/behaviour/cloneset.md#new-pods).
   */
  revisionLabels: (revision: string) => Record<string, string>;
  /**
   * Whether the update moves the pod to lifecycle state `Updating` (CloneSet and Advanced StatefulSet pass their
   * lifecycle through the in-place update's additional functions); default true. Advanced DaemonSet's update has no
   * such function, so its pods keep their lifecycle state.
   */
  lifecycleUpdating?: boolean;
}
