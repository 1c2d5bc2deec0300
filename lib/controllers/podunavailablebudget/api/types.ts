/**
 * OpenKruise: apis/policy/v1beta1/podunavailablebudget_types.go (v1.9.0; the stored version. v1alpha1 lacks
 * `protectOperations`, `protectTotalReplicas` and `ignoredPodSelector`, which it spells as annotations).
 *
 * The PodUnavailableBudget (PUB) as the controller and the pod webhook read and write it.
 */
import type { IntOrString, KnownOrOther, LabelSelector, ObjectMeta } from '../../../api/types.js';

/** An operation a PUB can protect: `DELETE`, `EVICT`, `UPDATE` (in-place update) and `RESIZE` (resources only). */
export type PubOperation = KnownOrOther<'DELETE' | 'UPDATE' | 'EVICT' | 'RESIZE'>;

/** `spec.targetRef`: the workload whose pods the budget covers (group and kind compared, version ignored). */
export interface PubTargetReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
}

/** `spec`. `targetRef` wins over `selector`; `maxUnavailable` wins over `minAvailable`. */
export interface PodUnavailableBudgetSpec {
  selector?: LabelSelector;
  targetRef?: PubTargetReference;
  /** Pods that may be unavailable at most: an int, or a percentage of the expected replicas (rounded up). */
  maxUnavailable?: IntOrString;
  /** Pods that must stay available: an int, or a percentage of the expected replicas (rounded up). */
  minAvailable?: IntOrString;
  /** The protected operations; empty: the `kruise.io/pub-protect-operations` annotation, else DELETE, UPDATE, EVICT. */
  protectOperations?: PubOperation[];
  /** The expected replicas instead of the workloads' `spec.replicas` (minimum 1). */
  protectTotalReplicas?: number;
  /** Pods this selector matches are never protected. */
  ignoredPodSelector?: LabelSelector;
}

/** `status`. Times are RFC 3339 (`metav1.Time`, whole seconds). */
export interface PodUnavailableBudgetStatus {
  /** The `metadata.generation` the status was computed from (omitted when 0, as v1beta1's `omitempty`). */
  observedGeneration?: number;
  /** Pod name → when the webhook admitted its deletion or eviction, until the controller sees it gone (20 s). */
  disruptedPods?: Record<string, string>;
  /** Pod name → when the webhook admitted its in-place update, until the controller looks again (10 s). */
  unavailablePods?: Record<string, string>;
  /** Pods that may still become unavailable: `currentAvailable - desiredAvailable`, at least 0. */
  unavailableAllowed: number;
  /** Active pods that are ready, consistent and not recorded in the two maps. */
  currentAvailable: number;
  /** Pods that must stay available. */
  desiredAvailable: number;
  /** The expected replicas the budget counts against. */
  totalReplicas: number;
}

/** A PodUnavailableBudget (`policy.kruise.io/v1beta1`). */
export interface PodUnavailableBudget {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: PodUnavailableBudgetSpec;
  status?: PodUnavailableBudgetStatus;
}
