/**
 * OpenKruise: apis/policy/v1beta1/podunavailablebudget_types.go and apis/apps/pub/pod_unavailable_label.go (v1.9.0).
 *
 * The labels and annotations the PUB controller and its pod webhook read or write.
 */

/** On a PUB: the protected operations, comma-separated (deprecated in v1beta1 for `spec.protectOperations`). */
export const ANNOTATION_PUB_PROTECT_OPERATIONS = 'kruise.io/pub-protect-operations';

/** On a pod: `true` (any Go `ParseBool` truth) exempts it from every PUB. */
export const ANNOTATION_POD_NO_PROTECT = 'pub.kruise.io/no-protect';

/** On a pod: the name of the PUB that covers it (written by the controller, read by the webhook). */
export const ANNOTATION_RELATED_PUB = 'pub.kruise.io/related-pub';

/** On a pod: the pre-v1beta1 spelling of {@link ANNOTATION_RELATED_PUB}, still written beside it and read second. */
export const ANNOTATION_RELATED_PUB_DEPRECATED = 'kruise.io/related-pub';

/** A pod label with this prefix makes the pod unavailable to PUB even when it is ready. */
export const LABEL_PREFIX_UNAVAILABLE_POD = 'unavailable-pod.kruise.io/';
