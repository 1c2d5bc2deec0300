/**
 * OpenKruise: apis/apps/v1beta1/daemonset_types.go (v1.9.0; the stored version).
 *
 * The Advanced DaemonSet as the controller reads and writes it.
 */
import type {
  IntOrString,
  KnownOrOther,
  LabelSelector,
  Lifecycle,
  ObjectMeta,
  PodTemplateSpec,
} from '../../../api/types.js';

/** `updateStrategy.type` (webhook default `RollingUpdate`). */
export type DaemonSetUpdateStrategyType = KnownOrOther<'RollingUpdate' | 'OnDelete'>;

/** `updateStrategy.rollingUpdate.rollingUpdateType` (webhook default `Standard`). */
export type RollingUpdateType = KnownOrOther<'Standard' | 'InPlaceIfPossible'>;

/** `updateStrategy.rollingUpdate`. */
export interface RollingUpdateDaemonSet {
  rollingUpdateType?: RollingUpdateType;
  /** Pods that may be unavailable during the update: an int or a percentage of desired (rounded up). */
  maxUnavailable?: IntOrString;
  /** Extra pods a node may run during the update: an int or a percentage of desired (rounded up). */
  maxSurge?: IntOrString;
  /** Only nodes matching this label selector are updated. */
  selector?: LabelSelector;
  /** Pods kept at the old revision: an int or a percentage of desired. */
  partition?: IntOrString;
  /** No pod is updated while true. */
  paused?: boolean;
}

/** `spec.updateStrategy`. */
export interface DaemonSetUpdateStrategy {
  type?: DaemonSetUpdateStrategyType;
  rollingUpdate?: RollingUpdateDaemonSet;
}

/** `spec`. */
export interface DaemonSetSpec {
  selector?: LabelSelector;
  template: PodTemplateSpec;
  updateStrategy?: DaemonSetUpdateStrategy;
  /** Seconds a pod must be ready to count as available. */
  minReadySeconds?: number;
  /** Creates and deletes per pass at most: an int or a percentage of desired (webhook default 250). */
  burstReplicas?: IntOrString;
  /** Old ControllerRevisions kept (webhook default 10). */
  revisionHistoryLimit?: number;
  /** `scaleStrategy.partitionedScaling`: creation limited by the partition too. */
  scaleStrategy?: { partitionedScaling?: boolean };
  /** Lifecycle hooks: `preDelete` holds a pod in `PreparingDelete` while hooked (`inPlaceUpdate` is not read). */
  lifecycle?: Lifecycle;
}

/** `status`: every count is written (no `omitempty` upstream). */
export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
  /** The current revision's hash (v1alpha1 calls it `daemonSetHash`). */
  updateRevision?: string;
  conditions?: unknown[];
}

/** An `apps.kruise.io/v1beta1` DaemonSet. */
export interface DaemonSet {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: DaemonSetSpec;
  status?: Partial<DaemonSetStatus>;
}
