/**
 * Plain data types for the Kubernetes objects Kruiseless reads and writes, and for the CloneSet
 * (`apps.kruise.io/v1alpha1`, docs/behaviour/cloneset.md#api). Only the fields the controller uses are named;
 * everything else a user may put in an object passes through untouched (`[key: string]: unknown`), so a pod
 * template is never pruned. No I/O and no SDK imports here: `lib/controllers/cloneset/plan` builds on these types.
 */

/** A JSON value as the API server serves it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** Whether `v` is a JSON object: not null, not an array, not a scalar. The one such check of lib/. */
export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Kubernetes `IntOrString`: an integer count or a percentage string such as `"20%"`
 * (docs/behaviour/cloneset.md#int-or-percent).
 */
export type IntOrString = number | string;

/**
 * A Kubernetes string enum that stays open: the values named in `Known` show up in editors and in `switch`
 * checks, and any other string still type-checks (the API server keeps what it does not know, and a newer
 * Kubernetes adds values). `string & Record<never, never>` keeps the literals from collapsing into `string`.
 */
export type KnownOrOther<Known extends string> = Known | (string & Record<never, never>);

/** `metav1.OwnerReference`. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** `metav1.ObjectMeta` (the fields the controller uses; others pass through). */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  /** RFC 3339 timestamp. */
  creationTimestamp?: string | null;
  /** RFC 3339 timestamp; set when graceful deletion has started. */
  deletionTimestamp?: string | null;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  [key: string]: unknown;
}

/** `metav1.LabelSelectorRequirement`. */
export interface LabelSelectorRequirement {
  key: string;
  operator: KnownOrOther<'In' | 'NotIn' | 'Exists' | 'DoesNotExist'>;
  values?: string[];
}

/** `metav1.LabelSelector`. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/**
 * `corev1.EnvVar` (only `valueFrom.fieldRef` matters to in-place env-from-metadata,
 * docs/behaviour/cloneset.md#in-place-update).
 */
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath: string; apiVersion?: string }; [key: string]: unknown };
}

/** `corev1.Container`. */
export interface Container {
  name: string;
  image?: string;
  imagePullPolicy?: string;
  env?: EnvVar[];
  resources?: { limits?: Record<string, string>; requests?: Record<string, string> };
  [key: string]: unknown;
}

/** `corev1.Volume`. */
export interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  [key: string]: unknown;
}

/** `corev1.PodSpec` (fields the controller reads or writes; the rest passes through). */
export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  nodeName?: string;
  readinessGates?: { conditionType: string }[];
  restartPolicy?: string;
  activeDeadlineSeconds?: number;
  topologySpreadConstraints?: { topologyKey: string; [key: string]: unknown }[];
  [key: string]: unknown;
}

/** `corev1.PodTemplateSpec`. */
export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec: PodSpec;
}

/** `corev1.PodCondition`. */
export interface PodCondition {
  type: string;
  status: KnownOrOther<'True' | 'False' | 'Unknown'>;
  reason?: string;
  message?: string;
  /** RFC 3339 timestamp. */
  lastTransitionTime?: string | null;
  lastProbeTime?: string | null;
}

/** `corev1.ContainerStatus`. */
export interface ContainerStatus {
  name: string;
  image: string;
  imageID: string;
  containerID?: string;
  ready: boolean;
  restartCount: number;
  started?: boolean;
  state?: JsonObject;
  lastState?: JsonObject;
  resources?: { limits?: Record<string, string>; requests?: Record<string, string> };
}

/** `corev1.PodStatus`. */
export interface PodStatus {
  phase?: KnownOrOther<'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown'>;
  conditions?: PodCondition[];
  containerStatuses?: ContainerStatus[];
  [key: string]: unknown;
}

/** `corev1.Pod`. */
export interface Pod {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: PodSpec;
  status?: PodStatus;
}

/** `corev1.ConfigMap` (a container launch barrier: string `data` only, lib/podset/launchPriority.ts). */
export interface ConfigMap {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
  immutable?: boolean;
}

/** `corev1.PersistentVolumeClaim` (spec is passed through as written in the volumeClaimTemplate). */
export interface PersistentVolumeClaim {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: { [key: string]: unknown };
  status?: { [key: string]: unknown };
}

/**
 * `apps/v1 ControllerRevision` (docs/behaviour/cloneset.md#controller-revisions). `data` is the raw
 * `{"spec":{"template":…}}` object.
 */
export interface ControllerRevision {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  /** Sequence number; higher is newer. */
  revision: number;
  data?: JsonValue;
}

/** A lifecycle hook (docs/behaviour/cloneset.md#api-fields). */
export interface LifecycleHook {
  labelsHandler?: Record<string, string>;
  finalizersHandler?: string[];
  markPodNotReady?: boolean;
}

/** `spec.lifecycle` (docs/behaviour/cloneset.md#api-fields). */
export interface Lifecycle {
  preDelete?: LifecycleHook;
  inPlaceUpdate?: LifecycleHook;
  preNormal?: LifecycleHook;
}

/** `spec.scaleStrategy` (docs/behaviour/cloneset.md#api-fields, v1alpha1). */
export interface CloneSetScaleStrategy {
  podsToDelete?: string[];
  maxUnavailable?: IntOrString;
  disablePVCReuse?: boolean;
}

/**
 * Update policy types. `OnDelete` is reachable only through v1beta1 conversion
 * (docs/behaviour/cloneset.md#api-fields, docs/behaviour/cloneset.md#v1beta1-mapping).
 */
export type CloneSetUpdateStrategyType = 'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly' | 'OnDelete';

/**
 * `updateStrategy.priorityStrategy` (docs/behaviour/cloneset.md#api-fields,
 * docs/behaviour/cloneset.md#update-phase).
 */
export interface UpdatePriorityStrategy {
  weightPriority?: { weight: number; matchSelector: LabelSelector }[];
  orderPriority?: { orderedKey: string }[];
}

/** One `updateStrategy.scatterStrategy` term (docs/behaviour/cloneset.md#update-phase). */
export interface UpdateScatterTerm {
  key: string;
  value: string;
}

/** `spec.updateStrategy` (docs/behaviour/cloneset.md#api-fields, v1alpha1). */
export interface CloneSetUpdateStrategy {
  type?: CloneSetUpdateStrategyType;
  partition?: IntOrString;
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
  paused?: boolean;
  priorityStrategy?: UpdatePriorityStrategy;
  scatterStrategy?: UpdateScatterTerm[];
  inPlaceUpdateStrategy?: { gracePeriodSeconds?: number };
}

/** `spec` of a v1alpha1 CloneSet (docs/behaviour/cloneset.md#api-fields). */
export interface CloneSetSpec {
  replicas?: number;
  selector: LabelSelector;
  template: PodTemplateSpec;
  volumeClaimTemplates?: PersistentVolumeClaim[];
  scaleStrategy?: CloneSetScaleStrategy;
  updateStrategy?: CloneSetUpdateStrategy;
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  lifecycle?: Lifecycle;
  progressDeadlineSeconds?: number;
}

/**
 * A CloneSet status condition (docs/behaviour/cloneset.md#status-fields, docs/behaviour/cloneset.md#status).
 */
export interface CloneSetCondition {
  type: KnownOrOther<'Progressing' | 'FailedScale' | 'FailedUpdate'>;
  status: 'True' | 'False' | 'Unknown';
  /** RFC 3339 timestamp. */
  lastUpdateTime?: string;
  /** RFC 3339 timestamp. */
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** `status` of a CloneSet (docs/behaviour/cloneset.md#status-fields). Counts are pod counts. */
export interface CloneSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  updatedReplicas: number;
  updatedReadyReplicas: number;
  updatedAvailableReplicas?: number;
  expectedUpdatedReplicas?: number;
  updateRevision?: string;
  currentRevision?: string;
  collisionCount?: number;
  labelSelector?: string;
  conditions?: CloneSetCondition[];
}

/** A v1alpha1 CloneSet as stored by the API server. */
export interface CloneSet {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: CloneSetSpec;
  status?: CloneSetStatus;
}
