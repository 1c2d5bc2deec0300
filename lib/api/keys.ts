/**
 * Every label, annotation, condition, readiness-gate and event key the CloneSet controller reads or writes,
 * each described in docs/behaviour/cloneset.md#objects. One module so that no string is spelled twice.
 */

/** API group of CloneSet (docs/behaviour/cloneset.md#api-fields). */
export const GROUP = 'apps.kruise.io';
/** Kind (docs/behaviour/cloneset.md#api-fields). */
export const KIND = 'CloneSet';
/**
 * apiVersion written into the owner references of a CloneSet's pods, PVCs and ControllerRevisions: `v1beta1`, as
 * OpenKruise v1.9.0 writes them (`clonesetutils.ControllerKind`, its hub version). Kruiseless's CRD serves v1beta1 in
 * every form (an alias of v1alpha1 without a conversion webhook, OpenKruise's shape with one; README.md#cloneset-versions),
 * so the garbage collector resolves the owner; and it watches CloneSets through v1beta1, the version discovery prefers,
 * so an owner reference naming v1alpha1 made it read every new pod again to check the owner's identity (one GET per
 * pod, BENCHMARKS.md#cloneset-kept-object). Owner lookups compare group and kind only.
 */
export const OWNER_API_VERSION = 'apps.kruise.io/v1beta1';

/**
 * Pod label: full revision name (or short hash with `CloneSetShortHash`),
 * docs/behaviour/cloneset.md#new-pods.
 */
export const LABEL_CONTROLLER_REVISION_HASH = 'controller-revision-hash';
/** Pod label: short revision hash, always the suffix form, docs/behaviour/cloneset.md#new-pods. */
export const LABEL_POD_TEMPLATE_HASH = 'pod-template-hash';
/**
 * Pod and PVC label: 5-character instance id, docs/behaviour/cloneset.md#new-pods,
 * docs/behaviour/cloneset.md#pvcs.
 */
export const LABEL_INSTANCE_ID = 'apps.kruise.io/cloneset-instance-id';
/** Pod label: presence marks the pod for deletion, docs/behaviour/cloneset.md#pod-labels. */
export const LABEL_SPECIFIED_DELETE = 'apps.kruise.io/specified-delete';
/**
 * Pod label: lifecycle state, docs/behaviour/cloneset.md#pod-labels, docs/behaviour/cloneset.md#lifecycle.
 */
export const LABEL_LIFECYCLE_STATE = 'lifecycle.apps.kruise.io/state';
/**
 * CloneSet label (v1alpha1): `"true"` turns on excludePreparingDelete, docs/behaviour/cloneset.md#api-fields.
 */
export const LABEL_SCALING_EXCLUDE_PREPARING_DELETE =
  'apps.kruise.io/cloneset-scaling-exclude-preparing-delete';
/** ControllerRevision label holding the hash, docs/behaviour/cloneset.md#controller-revisions. */
export const LABEL_REVISION_HASH = 'controller.kubernetes.io/hash';

/** Pod annotation: RFC 3339 time of the last lifecycle change, docs/behaviour/cloneset.md#pod-annotations. */
export const ANNOTATION_LIFECYCLE_TIMESTAMP = 'lifecycle.apps.kruise.io/timestamp';
/** Pod annotation: JSON InPlaceUpdateState, docs/behaviour/cloneset.md#pod-annotations. */
export const ANNOTATION_INPLACE_UPDATE_STATE = 'apps.kruise.io/inplace-update-state';
/**
 * Legacy read fallback of {@link ANNOTATION_INPLACE_UPDATE_STATE},
 * docs/behaviour/cloneset.md#pod-annotations.
 */
export const ANNOTATION_INPLACE_UPDATE_STATE_LEGACY = 'inplace-update-state';
/**
 * Pod annotation: JSON UpdateSpec while an in-place grace period is pending,
 * docs/behaviour/cloneset.md#pod-annotations.
 */
export const ANNOTATION_INPLACE_UPDATE_GRACE = 'apps.kruise.io/inplace-update-grace';
/**
 * Legacy read fallback of {@link ANNOTATION_INPLACE_UPDATE_GRACE},
 * docs/behaviour/cloneset.md#pod-annotations.
 */
export const ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY = 'inplace-update-grace';
/** Pod annotation written by kruise-daemon, docs/behaviour/cloneset.md#pod-annotations. */
export const ANNOTATION_RUNTIME_CONTAINERS_META = 'apps.kruise.io/runtime-containers-meta';
/** Pod annotation: int32 deletion cost, lower first, docs/behaviour/cloneset.md#pod-annotations. */
export const ANNOTATION_POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
/**
 * ControllerRevision annotation: decimal uint32 hash of volumeClaimTemplates,
 * docs/behaviour/cloneset.md#controller-revisions.
 */
export const ANNOTATION_VCT_HASH = 'kruise.io/cloneset-volumeclaimtemplate-hash';

/** Readiness gate and condition written by the controller, docs/behaviour/cloneset.md#readiness. */
export const CONDITION_INPLACE_UPDATE_READY = 'InPlaceUpdateReady';
/**
 * Readiness gate injected by Kruise's pod webhook, used by markPodNotReady,
 * docs/behaviour/cloneset.md#readiness.
 */
export const CONDITION_KRUISE_POD_READY = 'KruisePodReady';
/** Reason written with `InPlaceUpdateReady=False`, docs/behaviour/cloneset.md#readiness. */
export const REASON_START_INPLACE_UPDATE = 'StartInPlaceUpdate';
/** Reason written with a recomputed `Ready=False`, docs/behaviour/cloneset.md#readiness. */
export const REASON_READINESS_GATES_NOT_READY = 'ReadinessGatesNotReady';

/**
 * Lifecycle states (label values), docs/behaviour/cloneset.md#pod-labels,
 * docs/behaviour/cloneset.md#lifecycle.
 */
export const LifecycleState = {
  PreparingNormal: 'PreparingNormal',
  Normal: 'Normal',
  PreparingUpdate: 'PreparingUpdate',
  Updating: 'Updating',
  Updated: 'Updated',
  PreparingDelete: 'PreparingDelete',
} as const;
/** A lifecycle state value; `''` stands for an absent label (treated like Normal for availability). */
export type LifecycleStateValue = (typeof LifecycleState)[keyof typeof LifecycleState] | '';

/** CloneSet condition types, docs/behaviour/cloneset.md#status-fields. */
export const ConditionType = {
  Progressing: 'Progressing',
  FailedScale: 'FailedScale',
  FailedUpdate: 'FailedUpdate',
} as const;

/** Kubernetes Event reasons emitted on the CloneSet, docs/behaviour/cloneset.md#events. */
export const EventReason = {
  SuccessfulCreate: 'SuccessfulCreate',
  FailedCreate: 'FailedCreate',
  SuccessfulDelete: 'SuccessfulDelete',
  FailedDelete: 'FailedDelete',
  ScaleUpLimited: 'ScaleUpLimited',
  SuccessfulUpdatePodInPlace: 'SuccessfulUpdatePodInPlace',
  FailedUpdatePodInPlace: 'FailedUpdatePodInPlace',
  SuccessfulUpdatePodReCreate: 'SuccessfulUpdatePodReCreate',
  FailedUpdatePodReCreate: 'FailedUpdatePodReCreate',
  FailedUpdate: 'FailedUpdate',
  /** An ImagePullJob was created for a new image (docs/behaviour/cloneset.md#image-pre-download). */
  CreatedImagePullJob: 'CreatedImagePullJob',
  /** Creating an ImagePullJob failed (a Normal Event, as upstream records it). */
  FailedCreateImagePullJob: 'FailedCreateImagePullJob',
  /** Kruiseless-specific: the scale phase failed (the message of the FailedScale condition). */
  FailedScale: 'FailedScale',
  /**
   * Kruiseless-specific: the CloneSet failed re-validation (docs/behaviour/cloneset.md#validation); nothing
   * was changed.
   */
  FailedValidation: 'FailedValidation',
} as const;

/**
 * Alphabet of instance ids and of the revision-hash safe encoding, docs/behaviour/cloneset.md#pod-labels,
 * docs/behaviour/cloneset.md#revisions.
 */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
