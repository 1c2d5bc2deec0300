/**
 * The labels an Advanced StatefulSet writes on its pods (Kubernetes' apps/v1 constants, which OpenKruise's
 * StatefulSet controller uses: `StatefulSetPodNameLabel`, `PodIndexLabel`, `StatefulSetRevisionLabel`).
 */

/** `statefulset.kubernetes.io/pod-name`: the pod's own name (apps/v1 `StatefulSetPodNameLabel`). */
export const LABEL_STATEFULSET_POD_NAME = 'statefulset.kubernetes.io/pod-name';

/** `apps.kubernetes.io/pod-index`: the pod's ordinal (apps/v1 `PodIndexLabel`; gate `PodIndexLabel`, beta, on). */
export const LABEL_POD_INDEX = 'apps.kubernetes.io/pod-index';

/** `controller-revision-hash`: the ControllerRevision name the pod was made from (apps/v1 `StatefulSetRevisionLabel`). */
export const LABEL_STATEFULSET_REVISION = 'controller-revision-hash';

/**
 * `kruiseless.io/v1beta1-fields`: on an Advanced StatefulSet read as `apps.kruise.io/v1alpha1`, the v1beta1 fields
 * v1alpha1 lacks, as JSON `{"spec": {...}, "status": {...}}`, so that a write back through v1alpha1 keeps them
 * (./conversion.ts). Kruiseless's own: OpenKruise's converter drops those fields instead.
 */
export const ANNOTATION_V1BETA1_FIELDS = 'kruiseless.io/v1beta1-fields';
