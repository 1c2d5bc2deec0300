/**
 * The `apps.kruise.io/v1beta1` CloneSet's types and the v1alpha1 annotations its pre-download fields map to
 * (docs/behaviour/cloneset.md#v1beta1-mapping). The mapping itself is lib/controllers/cloneset/api/versionMapping.ts
 * (on JSON; `toV1beta1`/`fromV1beta1` there give it these types).
 */
import type {
  CloneSetSpec,
  CloneSetStatus,
  IntOrString,
  KnownOrOther,
  ObjectMeta,
  UpdatePriorityStrategy,
  UpdateScatterTerm,
} from './types.js';

/**
 * v1alpha1 annotations that carry the v1beta1 image pre-download settings
 * (docs/behaviour/cloneset.md#v1beta1-mapping).
 */
export const ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM = 'apps.kruise.io/image-predownload-parallelism';
/** See {@link ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM}. */
export const ANNOTATION_IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS =
  'apps.kruise.io/image-predownload-timeout-seconds';
/** See {@link ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM}. */
export const ANNOTATION_IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS =
  'apps.kruise.io/image-predownload-min-updated-ready-pods';

/** v1beta1 `inPlaceUpdateStrategy`. */
export interface InPlaceUpdateStrategyV1beta1 {
  gracePeriodSeconds?: number;
  imagePreDownloadParallelism?: IntOrString;
  imagePreDownloadTimeoutSeconds?: number;
  imagePreDownloadMinUpdatedReadyPods?: number;
}

/** v1beta1 `updateStrategy.rollingUpdate`. */
export interface RollingUpdateCloneSetStrategy {
  partition?: IntOrString;
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
  podUpdatePolicy?: KnownOrOther<'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly'>;
  paused?: boolean;
  priorityStrategy?: UpdatePriorityStrategy;
  scatterStrategy?: UpdateScatterTerm[];
  inPlaceUpdateStrategy?: InPlaceUpdateStrategyV1beta1;
}

/** v1beta1 `spec.updateStrategy`. */
export interface CloneSetUpdateStrategyV1beta1 {
  type?: KnownOrOther<'RollingUpdate' | 'OnDelete'>;
  rollingUpdate?: RollingUpdateCloneSetStrategy;
}

/** v1beta1 `spec.scaleStrategy`. */
export interface CloneSetScaleStrategyV1beta1 {
  podsToDelete?: string[];
  maxUnavailable?: IntOrString;
  enablePVCReuse?: boolean;
  excludePreparingDelete?: boolean;
}

/** v1beta1 `spec`: the v1alpha1 spec with different strategy shapes. */
export interface CloneSetSpecV1beta1 extends Omit<CloneSetSpec, 'scaleStrategy' | 'updateStrategy'> {
  scaleStrategy?: CloneSetScaleStrategyV1beta1;
  updateStrategy?: CloneSetUpdateStrategyV1beta1;
}

/** A v1beta1 CloneSet; `status` is identical to v1alpha1's. */
export interface CloneSetV1beta1 {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: CloneSetSpecV1beta1;
  status?: CloneSetStatus;
}
