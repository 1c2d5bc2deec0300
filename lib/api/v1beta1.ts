/**
 * The `apps.kruise.io/v1beta1` CloneSet and its conversion to and from v1alpha1
 * (docs/behaviour/cloneset.md#v1beta1-mapping), for the CRD conversion webhook. Pure data mapping; the inputs
 * are not modified.
 */
import { parseInt32 } from './int32.js';
import { LABEL_SCALING_EXCLUDE_PREPARING_DELETE } from './keys.js';
import type {
  CloneSet,
  CloneSetSpec,
  CloneSetStatus,
  CloneSetUpdateStrategy,
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

const PREDOWNLOAD = [
  ['imagePreDownloadParallelism', ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM],
  ['imagePreDownloadTimeoutSeconds', ANNOTATION_IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS],
  ['imagePreDownloadMinUpdatedReadyPods', ANNOTATION_IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS],
] as const;

function withoutUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function splitSpec(spec: CloneSetSpec | CloneSetSpecV1beta1) {
  const { scaleStrategy: _s, updateStrategy: _u, ...rest } = structuredClone(spec);
  return rest;
}

/**
 * v1alpha1 → v1beta1 (docs/behaviour/cloneset.md#v1beta1-mapping): `type` ReCreate/InPlace* (and unknown)
 * become `RollingUpdate` with that `podUpdatePolicy`, `OnDelete` stays without a rolling-update block;
 * rolling fields move under `rollingUpdate`; `disablePVCReuse` becomes `enablePVCReuse: !disablePVCReuse`;
 * the exclude-preparing-delete label becomes `excludePreparingDelete: true`; the image pre-download
 * annotations fill `inPlaceUpdateStrategy`.
 */
export function toV1beta1(cs: CloneSet): CloneSetV1beta1 {
  const us = cs.spec.updateStrategy ?? {};
  const ss = cs.spec.scaleStrategy ?? {};
  const annotations = cs.metadata.annotations ?? {};
  const spec: CloneSetSpecV1beta1 = {
    ...splitSpec(cs.spec),
    scaleStrategy: withoutUndefined({
      podsToDelete: ss.podsToDelete && [...ss.podsToDelete],
      maxUnavailable: ss.maxUnavailable,
      enablePVCReuse: !ss.disablePVCReuse,
      excludePreparingDelete:
        cs.metadata.labels?.[LABEL_SCALING_EXCLUDE_PREPARING_DELETE] === 'true' ? true : undefined,
    }),
  };
  if (us.type === 'OnDelete') {
    spec.updateStrategy = { type: 'OnDelete' };
  } else {
    let ips: InPlaceUpdateStrategyV1beta1 | undefined = us.inPlaceUpdateStrategy && {
      ...us.inPlaceUpdateStrategy,
    };
    for (const [field, key] of PREDOWNLOAD) {
      const raw = annotations[key];
      if (!raw) continue;
      const value = field === 'imagePreDownloadParallelism' ? (parseInt32(raw) ?? raw) : parseInt32(raw);
      ips ??= {};
      if (value !== undefined) ips[field] = value as number;
    }
    const policy = us.type === 'InPlaceIfPossible' || us.type === 'InPlaceOnly' ? us.type : 'ReCreate';
    spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: withoutUndefined({
        partition: us.partition,
        maxUnavailable: us.maxUnavailable,
        maxSurge: us.maxSurge,
        podUpdatePolicy: policy,
        paused: us.paused,
        priorityStrategy: us.priorityStrategy && structuredClone(us.priorityStrategy),
        scatterStrategy: us.scatterStrategy && us.scatterStrategy.map((t) => ({ ...t })),
        inPlaceUpdateStrategy: ips,
      }),
    };
  }
  return withoutUndefined({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: cs.kind,
    metadata: structuredClone(cs.metadata),
    spec,
    status: cs.status && structuredClone(cs.status),
  });
}

/**
 * v1beta1 → v1alpha1 (docs/behaviour/cloneset.md#v1beta1-mapping), the inverse of {@link toV1beta1}:
 * `OnDelete` → type `OnDelete`; a `podUpdatePolicy` of InPlaceIfPossible/InPlaceOnly → that type, anything
 * else → `ReCreate`; `enablePVCReuse` → `disablePVCReuse: !enablePVCReuse`; image pre-download fields →
 * annotations (only when the in-place strategy has content). `excludePreparingDelete` is not converted back
 * (as upstream).
 */
export function fromV1beta1(cs: CloneSetV1beta1): CloneSet {
  const us = cs.spec.updateStrategy ?? {};
  const ss = cs.spec.scaleStrategy ?? {};
  const metadata = structuredClone(cs.metadata);
  const ru = us.rollingUpdate;
  let type: CloneSetUpdateStrategy['type'] = 'ReCreate';
  if (us.type === 'OnDelete') type = 'OnDelete';
  else if (ru?.podUpdatePolicy === 'InPlaceIfPossible') type = 'InPlaceIfPossible';
  else if (ru?.podUpdatePolicy === 'InPlaceOnly') type = 'InPlaceOnly';
  const updateStrategy: CloneSetUpdateStrategy = { type };
  if (ru) {
    Object.assign(
      updateStrategy,
      withoutUndefined({
        partition: ru.partition,
        maxUnavailable: ru.maxUnavailable,
        maxSurge: ru.maxSurge,
        paused: ru.paused,
        priorityStrategy: ru.priorityStrategy && structuredClone(ru.priorityStrategy),
        scatterStrategy: ru.scatterStrategy && ru.scatterStrategy.map((t) => ({ ...t })),
      }),
    );
    const ips = ru.inPlaceUpdateStrategy;
    const hasContent =
      !!ips && (!!ips.gracePeriodSeconds || PREDOWNLOAD.some(([field]) => ips[field] !== undefined));
    if (ips && hasContent) {
      updateStrategy.inPlaceUpdateStrategy = withoutUndefined({ gracePeriodSeconds: ips.gracePeriodSeconds });
      for (const [field, key] of PREDOWNLOAD) {
        if (ips[field] !== undefined)
          metadata.annotations = { ...metadata.annotations, [key]: String(ips[field]) };
      }
    }
  }
  return withoutUndefined({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: cs.kind,
    metadata,
    spec: {
      ...splitSpec(cs.spec),
      scaleStrategy: withoutUndefined({
        podsToDelete: ss.podsToDelete && [...ss.podsToDelete],
        maxUnavailable: ss.maxUnavailable,
        disablePVCReuse: !ss.enablePVCReuse,
      }),
      updateStrategy,
    },
    status: cs.status && structuredClone(cs.status),
  });
}
