/**
 * OpenKruise: pkg/controller/daemonset/daemonset_controller.go (Event reasons); Kubernetes apps/v1 and
 * pkg/apis/extensions (the pod labels the DaemonSet controller sets), pkg/controller/controller_utils.go (the pod
 * control's Event reasons and messages).
 *
 * Every label, annotation and Event text of the Advanced DaemonSet controller, in one place.
 */

/** Pod and revision label: the hash of the revision a pod was created from (`DefaultDaemonSetUniqueLabelKey`). */
export { LABEL_CONTROLLER_REVISION_HASH } from '../../../api/keys.js';

/** Pod label: the template generation, when the DaemonSet has the deprecated annotation below. */
export const LABEL_POD_TEMPLATE_GENERATION = 'pod-template-generation';

/** DaemonSet annotation: the legacy template generation (`DeprecatedTemplateGeneration`). */
export const ANNOTATION_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

/** The Event reasons the controller records on a DaemonSet. */
export const DaemonSetEventReason = {
  SuccessfulCreate: 'SuccessfulCreate',
  FailedCreate: 'FailedCreate',
  SuccessfulDelete: 'SuccessfulDelete',
  FailedDelete: 'FailedDelete',
  SelectingAll: 'SelectingAll',
  FailedDaemonPod: 'FailedDaemonPod',
  SuccessfulUpdatePodInPlace: 'SuccessfulUpdatePodInPlace',
  FailedUpdatePodInPlace: 'FailedUpdatePodInPlace',
} as const;

/** `BurstReplicas`: creates and deletes per pass when `spec.burstReplicas` is unset. */
export const DEFAULT_BURST_REPLICAS = 250;

/** Old revisions kept when `spec.revisionHistoryLimit` is unset. */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;
