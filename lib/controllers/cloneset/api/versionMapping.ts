/**
 * CloneSet `apps.kruise.io/v1alpha1` ↔ `v1beta1` field mapping, the one OpenKruise v1.9.0 applies
 * (`apis/apps/v1alpha1/cloneset_conversion.go` `ConvertTo`/`ConvertFrom`, hub `apis/apps/v1beta1`), on JSON.
 * It is lossy in places (./conversion.ts adds what makes the round trip exact). Only the parts that differ between
 * the versions are mapped ({@link MappedPart}); everything else is copied as it is, with no Go zero values added.
 */
import { LABEL_SCALING_EXCLUDE_PREPARING_DELETE } from '../../../api/keys.js';
import { parseGoInt, parseInt32 } from '../../../api/int32.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../../api/types.js';
import type { CloneSet } from '../../../api/types.js';
import {
  ANNOTATION_IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS,
  ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM,
  ANNOTATION_IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS,
  type CloneSetV1beta1,
} from '../../../api/v1beta1.js';

/** The metadata keys the mapping reads or writes: one label, three annotations. */
export const MAPPED_LABELS = [LABEL_SCALING_EXCLUDE_PREPARING_DELETE] as const;
/** See {@link MAPPED_LABELS}; in v1beta1 these are `rollingUpdate.inPlaceUpdateStrategy` fields. */
export const MAPPED_ANNOTATIONS = [
  ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM,
  ANNOTATION_IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS,
  ANNOTATION_IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS,
] as const;

/**
 * What the mapping touches in one object: `spec.scaleStrategy`, `spec.updateStrategy`, and the values of
 * {@link MAPPED_LABELS} and {@link MAPPED_ANNOTATIONS} (a key absent from the object is absent here).
 */
export interface MappedPart {
  scaleStrategy?: JsonValue;
  updateStrategy?: JsonValue;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

const obj = (v: JsonValue | undefined): JsonObject => (isJsonObject(v) ? v : {});

function pick(from: Record<string, JsonValue> | undefined, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) if (typeof from?.[k] === 'string') out[k] = from[k];
  return out;
}

/** The {@link MappedPart} of a CloneSet of either version. */
export function mappedPart(cs: JsonObject): MappedPart {
  const spec = obj(cs.spec);
  const meta = obj(cs.metadata);
  return {
    ...('scaleStrategy' in spec ? { scaleStrategy: spec.scaleStrategy } : {}),
    ...('updateStrategy' in spec ? { updateStrategy: spec.updateStrategy } : {}),
    labels: pick(isJsonObject(meta.labels) ? meta.labels : undefined, MAPPED_LABELS),
    annotations: pick(isJsonObject(meta.annotations) ? meta.annotations : undefined, MAPPED_ANNOTATIONS),
  };
}

function withStringMap(
  meta: JsonObject,
  key: 'labels' | 'annotations',
  keys: readonly string[],
  values: Record<string, string>,
) {
  const current: JsonObject = isJsonObject(meta[key]) ? { ...meta[key] } : {};
  for (const k of keys) delete current[k];
  Object.assign(current, values);
  const { [key]: _old, ...rest } = meta;
  return Object.keys(current).length > 0 ? { ...rest, [key]: current } : rest;
}

/**
 * `cs` with its {@link MappedPart} replaced by `part` (a strategy absent from `part` is removed; the mapped label
 * and annotation keys are set to exactly `part`'s). Not modifying `cs`.
 */
export function withMappedPart(cs: JsonObject, part: MappedPart): JsonObject {
  const { scaleStrategy: _s, updateStrategy: _u, ...spec } = obj(cs.spec);
  if (part.scaleStrategy !== undefined) spec.scaleStrategy = part.scaleStrategy;
  if (part.updateStrategy !== undefined) spec.updateStrategy = part.updateStrategy;
  let metadata = withStringMap(obj(cs.metadata), 'labels', MAPPED_LABELS, part.labels);
  metadata = withStringMap(metadata, 'annotations', MAPPED_ANNOTATIONS, part.annotations);
  const out: JsonObject = { ...cs };
  if ('spec' in cs) out.spec = spec;
  if ('metadata' in cs || Object.keys(metadata).length > 0) out.metadata = metadata;
  return out;
}

/** The v1alpha1 `updateStrategy` keys that v1beta1 holds under `rollingUpdate`, with the same meaning. */
const ROLLING_KEYS = [
  'partition',
  'maxUnavailable',
  'maxSurge',
  'priorityStrategy',
  'scatterStrategy',
] as const;

/** Go's `intstr.Parse`: an `Atoi` number as int32 (wrapped as Go's conversion does), anything else the string. */
function parseIntOrString(s: string): JsonValue {
  const n = parseGoInt(s);
  return n === undefined ? s : Number(BigInt.asIntN(32, BigInt(n)));
}

/**
 * v1alpha1's `inPlaceUpdateStrategy` and pre-download annotations as v1beta1's `inPlaceUpdateStrategy`
 * (OpenKruise's `convertInPlaceUpdateStrategyToV1beta1`): undefined when there is neither; `gracePeriodSeconds`
 * kept, the three annotations parsed (an int32 that does not parse is left out).
 */
function inPlaceToV1beta1(
  ips: JsonValue | undefined,
  annotations: Record<string, string>,
): JsonObject | undefined {
  const [parallelism, timeout, minReady] = MAPPED_ANNOTATIONS.map((k) => annotations[k] || undefined);
  if (!isJsonObject(ips) && parallelism === undefined && timeout === undefined && minReady === undefined)
    return undefined;
  const out: JsonObject = {};
  if (isJsonObject(ips) && ips.gracePeriodSeconds !== undefined)
    out.gracePeriodSeconds = ips.gracePeriodSeconds;
  if (parallelism !== undefined) out.imagePreDownloadParallelism = parseIntOrString(parallelism);
  const t = timeout === undefined ? undefined : parseInt32(timeout);
  if (t !== undefined) out.imagePreDownloadTimeoutSeconds = t;
  const m = minReady === undefined ? undefined : parseInt32(minReady);
  if (m !== undefined) out.imagePreDownloadMinUpdatedReadyPods = m;
  return out;
}

/**
 * The {@link MappedPart} of a v1alpha1 CloneSet as v1beta1's (OpenKruise's `ConvertTo`): `type` OnDelete stays
 * OnDelete with no `rollingUpdate`; any other type becomes `RollingUpdate` with `podUpdatePolicy` the type
 * (ReCreate for an unknown or absent one) and the rolling fields under `rollingUpdate`; `disablePVCReuse` becomes
 * `enablePVCReuse` negated (written when true, as Go's omitempty); label
 * `apps.kruise.io/cloneset-scaling-exclude-preparing-delete: "true"` adds
 * `excludePreparingDelete: true`. Labels and annotations stay as they are.
 */
export function mapToV1beta1(part: MappedPart): MappedPart {
  const ss = obj(part.scaleStrategy);
  const scaleStrategy: JsonObject = {};
  if (ss.podsToDelete !== undefined) scaleStrategy.podsToDelete = ss.podsToDelete;
  if (ss.maxUnavailable !== undefined) scaleStrategy.maxUnavailable = ss.maxUnavailable;
  if (ss.disablePVCReuse !== true) scaleStrategy.enablePVCReuse = true;
  if (part.labels[LABEL_SCALING_EXCLUDE_PREPARING_DELETE] === 'true')
    scaleStrategy.excludePreparingDelete = true;
  const us = obj(part.updateStrategy);
  let updateStrategy: JsonObject;
  if (us.type === 'OnDelete') {
    updateStrategy = { type: 'OnDelete' };
  } else {
    const policy = us.type === 'InPlaceIfPossible' || us.type === 'InPlaceOnly' ? us.type : 'ReCreate';
    const rollingUpdate: JsonObject = {};
    for (const k of ROLLING_KEYS) if (us[k] !== undefined) rollingUpdate[k] = us[k];
    rollingUpdate.podUpdatePolicy = policy;
    if (us.paused === true) rollingUpdate.paused = true;
    const ips = inPlaceToV1beta1(us.inPlaceUpdateStrategy, part.annotations);
    if (ips) rollingUpdate.inPlaceUpdateStrategy = ips;
    updateStrategy = { type: 'RollingUpdate', rollingUpdate };
  }
  return { scaleStrategy, updateStrategy, labels: { ...part.labels }, annotations: { ...part.annotations } };
}

/** The v1beta1 pre-download fields and the annotation each goes to. */
const PREDOWNLOAD_FIELDS = [
  ['imagePreDownloadParallelism', ANNOTATION_IMAGE_PREDOWNLOAD_PARALLELISM],
  ['imagePreDownloadTimeoutSeconds', ANNOTATION_IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS],
  ['imagePreDownloadMinUpdatedReadyPods', ANNOTATION_IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS],
] as const;

/**
 * The {@link MappedPart} of a v1beta1 CloneSet as v1alpha1's (OpenKruise's `ConvertFrom`): `OnDelete` → type
 * OnDelete; otherwise `rollingUpdate.podUpdatePolicy` InPlaceIfPossible/InPlaceOnly → that type, anything else
 * ReCreate; the `rollingUpdate` fields (when there is one) back at the top of `updateStrategy`, the pre-download
 * fields of a non-empty `inPlaceUpdateStrategy` into their annotations (overwriting), `enablePVCReuse` negated into
 * `disablePVCReuse` (written when true); `excludePreparingDelete` is not carried back (as OpenKruise).
 */
export function mapToV1alpha1(part: MappedPart): MappedPart {
  const ss = obj(part.scaleStrategy);
  const scaleStrategy: JsonObject = {};
  if (ss.podsToDelete !== undefined) scaleStrategy.podsToDelete = ss.podsToDelete;
  if (ss.maxUnavailable !== undefined) scaleStrategy.maxUnavailable = ss.maxUnavailable;
  if (ss.enablePVCReuse !== true) scaleStrategy.disablePVCReuse = true;
  const us = obj(part.updateStrategy);
  const ru = isJsonObject(us.rollingUpdate) ? us.rollingUpdate : undefined;
  const policy = ru?.podUpdatePolicy;
  const type =
    us.type === 'OnDelete'
      ? 'OnDelete'
      : policy === 'InPlaceIfPossible' || policy === 'InPlaceOnly'
        ? policy
        : 'ReCreate';
  const updateStrategy: JsonObject = { type };
  const annotations = { ...part.annotations };
  if (ru) {
    for (const k of ROLLING_KEYS) if (ru[k] !== undefined) updateStrategy[k] = ru[k];
    if (ru.paused === true) updateStrategy.paused = true;
    const ips = ru.inPlaceUpdateStrategy;
    const grace = isJsonObject(ips) ? ips.gracePeriodSeconds : undefined;
    const hasContent =
      isJsonObject(ips) &&
      ((grace !== undefined && grace !== 0) ||
        PREDOWNLOAD_FIELDS.some(([f]) => ips[f] !== undefined && ips[f] !== null));
    if (isJsonObject(ips) && hasContent) {
      updateStrategy.inPlaceUpdateStrategy =
        grace !== undefined && grace !== 0 ? { gracePeriodSeconds: grace } : {};
      for (const [field, key] of PREDOWNLOAD_FIELDS) {
        const v = ips[field];
        if (typeof v === 'number' || typeof v === 'string') annotations[key] = String(v);
      }
    }
  }
  return { scaleStrategy, updateStrategy, labels: { ...part.labels }, annotations };
}

/**
 * A v1alpha1 CloneSet as OpenKruise's v1beta1 ({@link mapToV1beta1} on the whole object, apiVersion set), typed:
 * the mapping alone, without the marker annotations of ./conversion.ts that make the webhook's round trip exact.
 * Not modifying `cs`.
 */
export function toV1beta1(cs: CloneSet): CloneSetV1beta1 {
  const json = structuredClone(cs) as unknown as JsonObject;
  const out = withMappedPart(json, mapToV1beta1(mappedPart(json)));
  return { ...out, apiVersion: 'apps.kruise.io/v1beta1' } as unknown as CloneSetV1beta1;
}

/** A v1beta1 CloneSet as v1alpha1 ({@link mapToV1alpha1}; see {@link toV1beta1}). Not modifying `cs`. */
export function fromV1beta1(cs: CloneSetV1beta1): CloneSet {
  const json = structuredClone(cs) as unknown as JsonObject;
  const out = withMappedPart(json, mapToV1alpha1(mappedPart(json)));
  return { ...out, apiVersion: 'apps.kruise.io/v1alpha1' } as unknown as CloneSet;
}
