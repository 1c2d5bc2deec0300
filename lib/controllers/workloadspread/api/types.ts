/**
 * OpenKruise: apis/apps/v1beta1/workloadspread_types.go (v1.9.0; the stored version. v1alpha1 spells two subset
 * fields `requiredNodeSelectorTerm` and `preferredNodeSelectorTerms`, converted by OpenKruise's conversion webhook
 * and by ./conversion.ts).
 *
 * The WorkloadSpread as its controller and the pod webhook read and write it.
 */
import type { NodeSelectorTerm, Toleration } from '../../../api/node.js';
import type { IntOrString, JsonObject, KnownOrOther, LabelSelector, ObjectMeta } from '../../../api/types.js';

/** `spec.targetRef`: the workload whose pods are spread (group and Kind compared, version ignored). */
export interface WorkloadSpreadTargetReference {
  apiVersion: string;
  kind: string;
  name: string;
}

/** `spec.targetFilter`: only the target's pods this selector matches; replicas read from these paths. */
export interface WorkloadSpreadTargetFilter {
  selector?: LabelSelector;
  replicasPathList?: string[];
}

/** `corev1.PreferredSchedulingTerm`. */
export interface PreferredSchedulingTerm {
  weight: number;
  preference: NodeSelectorTerm;
}

/** One `spec.subsets[]` entry: where its pods go, and how many at most. */
export interface WorkloadSpreadSubset {
  name: string;
  /** ANDed into every required node-affinity term of the pod (or its only term). */
  requiredNodeSelector?: NodeSelectorTerm;
  /** Appended to the pod's preferred node-affinity terms. */
  preferredNodeSelector?: PreferredSchedulingTerm[];
  /** Appended to the pod's tolerations. */
  tolerations?: Toleration[];
  /** Pods at most: an int, or a percentage of the workload's replicas (rounded up); absent: no limit. */
  maxReplicas?: IntOrString;
  /** A strategic-merge patch of the pod (labels, annotations, resources, …). */
  patch?: JsonObject;
}

/** `spec.scheduleStrategy`. */
export interface WorkloadSpreadScheduleStrategy {
  type?: KnownOrOther<'Fixed' | 'Adaptive'>;
  adaptive?: { disableSimulationSchedule?: boolean; rescheduleCriticalSeconds?: number };
}

/** `spec`. */
export interface WorkloadSpreadSpec {
  targetRef?: WorkloadSpreadTargetReference;
  targetFilter?: WorkloadSpreadTargetFilter;
  subsets: WorkloadSpreadSubset[];
  scheduleStrategy?: WorkloadSpreadScheduleStrategy;
}

/** `metav1.Condition` on a subset (type `Schedulable`). Times RFC 3339. */
export interface WorkloadSpreadSubsetCondition {
  type: string;
  status: KnownOrOther<'True' | 'False' | 'Unknown'>;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

/** One subset's status. Times in the maps are RFC 3339 (`metav1.Time`, whole seconds). */
export interface WorkloadSpreadSubsetStatus {
  name: string;
  /** Active pods of the subset. */
  replicas: number;
  /** Pods the subset may still take: max - active (- creating, + deleting); -1 when it has no maximum. */
  missingReplicas: number;
  conditions?: WorkloadSpreadSubsetCondition[];
  /** Pod name (or the webhook's generated uid) → when the webhook placed it, until the controller sees it (30 s). */
  creatingPods?: Record<string, string>;
  /** Pod name → when the webhook admitted its deletion, until the controller sees it gone (15 s). */
  deletingPods?: Record<string, string>;
}

/** `status`. */
export interface WorkloadSpreadStatus {
  observedGeneration?: number;
  subsetStatuses?: WorkloadSpreadSubsetStatus[];
  /** Pod version (a Deployment pod's `pod-template-hash`, else `versionIgnored`) → the subsets' statuses. */
  versionedSubsetStatuses?: Record<string, WorkloadSpreadSubsetStatus[]>;
}

/** A WorkloadSpread (`apps.kruise.io/v1beta1`). */
export interface WorkloadSpread {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: WorkloadSpreadSpec;
  status?: WorkloadSpreadStatus;
}

/** The value of the matched-workloadspread annotation on a pod (`InjectWorkloadSpread`), as JSON. */
export interface InjectedWorkloadSpread {
  name: string;
  subset: string;
  /** The webhook's generated id of a pod created without a name (`generateName`). */
  uid?: string;
}
