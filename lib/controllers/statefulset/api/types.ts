/**
 * The `apps.kruise.io/v1beta1` StatefulSet (Advanced StatefulSet, short name `asts`) as the API server stores it:
 * every field of OpenKruise v1.9.0's `apis/apps/v1beta1/statefulset_types.go`, with the same JSON names. Plain
 * data; the shared Kubernetes and Kruise shapes (pod template, PVC, lifecycle, priority strategy) are lib/api's.
 */
import type {
  IntOrString,
  KnownOrOther,
  LabelSelector,
  Lifecycle,
  ObjectMeta,
  PersistentVolumeClaim,
  PodTemplateSpec,
  UpdatePriorityStrategy,
} from '../../../api/types.js';

/** `rollingUpdate.minReadySeconds` may not exceed this (OpenKruise's `MaxMinReadySeconds`), in seconds. */
export const MAX_MIN_READY_SECONDS = 300;

/** `spec.podManagementPolicy` (apps/v1 `PodManagementPolicyType`). */
export type PodManagementPolicyType = KnownOrOther<'OrderedReady' | 'Parallel'>;

/** `spec.updateStrategy.type` (apps/v1 `StatefulSetUpdateStrategyType`). */
export type StatefulSetUpdateStrategyType = KnownOrOther<'RollingUpdate' | 'OnDelete'>;

/** `rollingUpdate.podUpdatePolicy` (v1beta1 `PodUpdateStrategyType`). */
export type PodUpdateStrategyType = KnownOrOther<'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly'>;

/** `persistentVolumeClaimRetentionPolicy.whenDeleted|whenScaled`. */
export type PersistentVolumeClaimRetentionPolicyType = KnownOrOther<'Retain' | 'Delete'>;

/** `volumeClaimUpdateStrategy.type`: resize PVCs with the pods' rolling update, or only on PVC deletion. */
export type VolumeClaimUpdateStrategyType = KnownOrOther<'OnPodRollingUpdate' | 'OnDelete'>;

/** `spec.volumeClaimUpdateStrategy`. */
export interface VolumeClaimUpdateStrategy {
  type?: VolumeClaimUpdateStrategyType;
}

/** `appspub.InPlaceUpdateStrategy`: seconds between marking a pod not-ready and patching it in place. */
export interface InPlaceUpdateStrategy {
  gracePeriodSeconds?: number;
}

/** `rollingUpdate.unorderedUpdate`: update order by priority instead of by ordinal (Parallel only). */
export interface UnorderedUpdateStrategy {
  priorityStrategy?: UpdatePriorityStrategy;
}

/** `spec.updateStrategy.rollingUpdate` (v1beta1 `RollingUpdateStatefulSetStrategy`). */
export interface RollingUpdateStatefulSetStrategy {
  /** Ordinals below the partition keep the current revision (with reserved ordinals: a count, see plan/). */
  partition?: number;
  /** Pods that may be unavailable during the update; int or percent of replicas; only 1 unless Parallel. */
  maxUnavailable?: IntOrString;
  podUpdatePolicy?: PodUpdateStrategyType;
  paused?: boolean;
  unorderedUpdate?: UnorderedUpdateStrategy;
  inPlaceUpdateStrategy?: InPlaceUpdateStrategy;
  /** Seconds an updated pod must be ready before the next is updated; 0..300. */
  minReadySeconds?: number;
}

/** `spec.updateStrategy`. */
export interface StatefulSetUpdateStrategy {
  type?: StatefulSetUpdateStrategyType;
  rollingUpdate?: RollingUpdateStatefulSetStrategy;
}

/** `spec.persistentVolumeClaimRetentionPolicy`. */
export interface StatefulSetPersistentVolumeClaimRetentionPolicy {
  whenDeleted?: PersistentVolumeClaimRetentionPolicyType;
  whenScaled?: PersistentVolumeClaimRetentionPolicyType;
}

/** `spec.ordinals`: the first ordinal (gate `StatefulSetStartOrdinal`). */
export interface StatefulSetOrdinals {
  start: number;
}

/** `spec.scaleStrategy`. */
export interface StatefulSetScaleStrategy {
  /** Pods that may be unavailable while scaling (Parallel only); int or percent of replicas. */
  maxUnavailable?: IntOrString;
}

/** `spec` of a v1beta1 StatefulSet. */
export interface StatefulSetSpec {
  replicas?: number;
  selector?: LabelSelector;
  template: PodTemplateSpec;
  volumeClaimTemplates?: PersistentVolumeClaim[];
  volumeClaimUpdateStrategy?: VolumeClaimUpdateStrategy;
  serviceName?: string;
  podManagementPolicy?: PodManagementPolicyType;
  updateStrategy?: StatefulSetUpdateStrategy;
  revisionHistoryLimit?: number;
  /** Ordinals to skip: numbers, or inclusive ranges such as `"3-5"`. */
  reserveOrdinals?: IntOrString[];
  lifecycle?: Lifecycle;
  scaleStrategy?: StatefulSetScaleStrategy;
  persistentVolumeClaimRetentionPolicy?: StatefulSetPersistentVolumeClaimRetentionPolicy;
  ordinals?: StatefulSetOrdinals;
}

/** One `status.volumeClaims` item: how many replicas' PVCs of a template match it. */
export interface VolumeClaimStatus {
  volumeClaimName: string;
  compatibleReplicas: number;
  compatibleReadyReplicas: number;
}

/** An apps/v1 `StatefulSetCondition`; OpenKruise adds the types `FailedCreatePod` and `FailedUpdatePod`. */
export interface StatefulSetCondition {
  type: KnownOrOther<'FailedCreatePod' | 'FailedUpdatePod'>;
  status: KnownOrOther<'True' | 'False' | 'Unknown'>;
  /** RFC 3339 timestamp. */
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** `status` of a v1beta1 StatefulSet; counts are pod counts. */
export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
  updatedReadyReplicas?: number;
  updatedAvailableReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: StatefulSetCondition[];
  /** The selector as a string, for the scale subresource. */
  labelSelector?: string;
  volumeClaims?: VolumeClaimStatus[];
}

/** A v1beta1 StatefulSet. */
export interface StatefulSet {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: StatefulSetSpec;
  status?: StatefulSetStatus;
}
