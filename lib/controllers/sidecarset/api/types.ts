/**
 * The `apps.kruise.io/v1alpha1` SidecarSet fields injection reads (OpenKruise: `apis/apps/v1alpha1/sidecarset_types.go`),
 * as the API server returns them (JSON). Fields the injector does not read pass through as `unknown`.
 */
import type {
  Container,
  IntOrString,
  KnownOrOther,
  LabelSelector,
  ObjectMeta,
  UpdatePriorityStrategy,
  UpdateScatterTerm,
  Volume,
} from '../../../api/types.js';

/** Where a sidecar goes relative to the pod's own containers (`PodInjectPolicyType`). */
export type PodInjectPolicy = KnownOrOther<'BeforeAppContainer' | 'AfterAppContainer'>;

/** `ShareVolumePolicy`: `enabled` mounts the app containers' volumeMounts into the sidecar too. */
export interface ShareVolumePolicy {
  type?: KnownOrOther<'enabled' | 'disabled'>;
}

/** `TransferEnvVar`: env copied from an app container of the pod into the sidecar. */
export interface TransferEnvVar {
  sourceContainerName?: string;
  /** The source container's name read from the pod's metadata (`metadata.labels['k']` / `metadata.annotations['k']`). */
  sourceContainerNameFrom?: { fieldRef?: { fieldPath: string; apiVersion?: string } };
  envName?: string;
  envNames?: string[];
}

/** `SidecarContainerUpgradeStrategy`. */
export interface SidecarContainerUpgradeStrategy {
  upgradeType?: KnownOrOther<'ColdUpgrade' | 'HotUpgrade'>;
  hotUpgradeEmptyImage?: string;
}

/** `ResourceExprLimits` / `ResourceExprRequests`: expressions over the pod's app containers' `cpu` / `memory`. */
export interface ResourceExprs {
  cpu?: string;
  memory?: string;
}

/**
 * `ResourcesPolicy`: the sidecar's resources computed at injection from the app containers matched by
 * `targetContainersNameRegex` (`targetContainersMode` `sum` or `max`).
 */
export interface ResourcesPolicy {
  targetContainersMode?: string;
  targetContainersNameRegex?: string;
  resourcesExpr?: { limits?: ResourceExprs; requests?: ResourceExprs };
}

/** `SidecarContainer`: a `corev1.Container` (inline) plus the injection fields. */
export interface SidecarContainer extends Container {
  podInjectPolicy?: PodInjectPolicy;
  upgradeStrategy?: SidecarContainerUpgradeStrategy;
  shareVolumePolicy?: ShareVolumePolicy;
  shareVolumeDevicePolicy?: ShareVolumePolicy;
  transferEnv?: TransferEnvVar[];
  resourcesPolicy?: ResourcesPolicy;
  /** `restartPolicy: Always` on an init container makes it a native sidecar (Kubernetes 1.28+). */
  restartPolicy?: string;
}

/** `SidecarSetPatchPodMetadata`. */
export interface SidecarSetPatchPodMetadata {
  annotations?: Record<string, string>;
  patchPolicy?: KnownOrOther<'Retain' | 'Overwrite' | 'MergePatchJson'>;
}

/** `SidecarSetInjectionStrategy`. */
export interface SidecarSetInjectionStrategy {
  paused?: boolean;
  revision?: { customVersion?: string; revisionName?: string; policy?: string };
}

/**
 * `SidecarSetUpdateStrategy`: how the controller moves matched pods' sidecars to a new image in place. `type`
 * RollingUpdate (default) or NotUpdate; `partition` pods (int or percent of the matched pods) keep the old sidecar;
 * at most `maxUnavailable` (default 1) updated pods may be not ready; `paused` stops the rollout; `selector` limits
 * it to the pods it matches.
 */
export interface SidecarSetUpdateStrategy {
  type?: KnownOrOther<'RollingUpdate' | 'NotUpdate'>;
  selector?: LabelSelector;
  partition?: IntOrString;
  maxUnavailable?: IntOrString;
  paused?: boolean;
  priorityStrategy?: UpdatePriorityStrategy;
  scatterStrategy?: UpdateScatterTerm[];
}

/** `SidecarSetStatus`, as OpenKruise's `calculateStatus` fills it. */
export interface SidecarSetStatus {
  observedGeneration?: number;
  /** Active pods that carry the SidecarSet (injected, every sidecar container present). */
  matchedPods?: number;
  /** Matched pods whose `kruise.io/sidecarset-hash` entry is the SidecarSet's hash. */
  updatedPods?: number;
  /** Matched pods whose sidecars run what their spec says and that are running and ready. */
  readyPods?: number;
  updatedReadyPods?: number;
  latestRevision?: string;
  collisionCount?: number;
}

/** `SidecarSetSpec` (v1alpha1). */
export interface SidecarSetSpec {
  selector?: LabelSelector;
  /** Only pods of this namespace (v1alpha1 only; v1beta1 spells it as a `namespaceSelector` on the name label). */
  namespace?: string;
  namespaceSelector?: LabelSelector;
  initContainers?: SidecarContainer[];
  containers?: SidecarContainer[];
  volumes?: Volume[];
  updateStrategy?: SidecarSetUpdateStrategy;
  injectionStrategy?: SidecarSetInjectionStrategy;
  imagePullSecrets?: { name?: string }[];
  revisionHistoryLimit?: number;
  patchPodMetadata?: SidecarSetPatchPodMetadata[];
}

/** A SidecarSet (cluster-scoped). */
export interface SidecarSet {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: SidecarSetSpec;
  status?: SidecarSetStatus;
}
