/**
 * Every SidecarSet key Kruiseless reads or writes, each as OpenKruise spells it (`pkg/control/sidecarcontrol/util.go`
 * unless said otherwise). One module so that no string is spelled twice.
 */

/** SidecarSet and pod annotation: the SidecarSet's hash over its containers (`SidecarSetHashAnnotation`). */
export const ANNOTATION_SIDECARSET_HASH = 'kruise.io/sidecarset-hash';
/** SidecarSet and pod annotation: the same hash with every image blanked (`SidecarSetHashWithoutImageAnnotation`). */
export const ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE = 'kruise.io/sidecarset-hash-without-image';
/** Pod annotation: the names of the SidecarSets injected, sorted, comma-separated (`SidecarSetListAnnotation`). */
export const ANNOTATION_SIDECARSET_INJECTED_LIST = 'kruise.io/sidecarset-injected-list';
/** Env var set to `"true"` in every injected container (`SidecarEnvKey`); it marks a container as a sidecar. */
export const ENV_IS_INJECTED = 'IS_INJECTED';
/** The namespace label the API server sets to the namespace's name (`corev1.LabelMetadataName`). */
export const LABEL_METADATA_NAME = 'kubernetes.io/metadata.name';
/** `restartPolicy` of an init container that makes it a native sidecar (`corev1.ContainerRestartPolicyAlways`). */
export const RESTART_POLICY_ALWAYS = 'Always';
/**
 * Pod annotation: per SidecarSet name, the in-place sidecar update in progress — revision (the SidecarSet hash),
 * start time and each changed container's imageID before the change (`SidecarsetInplaceUpdateStateKey`).
 */
export const ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE = 'kruise.io/sidecarset-inplace-update-state';
/**
 * Pod condition: whether every SidecarSet of the pod can update it in place; its message is a JSON map of
 * SidecarSet name → upgradable (`SidecarSetUpgradable`).
 */
export const CONDITION_SIDECARSET_UPGRADABLE = 'SidecarSetUpgradable';
/**
 * ControllerRevision label: the name of the SidecarSet the revision records (`SidecarSetKindName`); a SidecarSet's
 * history is listed by it.
 */
export const LABEL_SIDECARSET_NAME = 'kruise.io/sidecarset-name';
/**
 * SidecarSet (v1alpha1) and ControllerRevision label: the user's name for the SidecarSet's current version, which
 * `injectionStrategy.revision.customVersion` pins (`SidecarSetCustomVersionLabel` in `apis/apps/v1alpha1`).
 */
export const LABEL_SIDECARSET_CUSTOM_VERSION = 'apps.kruise.io/sidecarset-custom-version';
/**
 * The namespace of every SidecarSet's ControllerRevisions: OpenKruise keeps them in its manager's namespace
 * (`webhookutil.GetNamespace()`, `POD_NAMESPACE`, `kruise-system` by default), out of users' reach. Kruiseless uses
 * the same one, so a cluster moved from OpenKruise keeps its SidecarSet history and its `revisionName` pins.
 */
export const SIDECARSET_REVISION_NAMESPACE = 'kruise-system';
