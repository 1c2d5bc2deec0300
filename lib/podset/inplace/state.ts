/**
 * OpenKruise: apis/apps/pub/inplace_update.go `InPlaceUpdateState`, `InPlaceUpdatePreCheckBeforeNext`,
 * `GetInPlaceUpdateState`, `GetInPlaceUpdateGrace`, `RemoveInPlaceUpdateGrace`;
 * pkg/util/inplaceupdate/inplace_update.go `UpdateSpec`.
 *
 * The two JSON documents an in-place update keeps on a pod (docs/behaviour/cloneset.md#pod-annotations): the
 * `UpdateSpec` stored in `apps.kruise.io/inplace-update-grace` while a grace period is pending, and the
 * `InPlaceUpdateState` in `apps.kruise.io/inplace-update-state`. Both are written byte-compatible with
 * OpenKruise (Go field order, Go map-key order and string escaping, `metav1.ObjectMeta`'s
 * `"creationTimestamp":null`). Pure functions.
 */
import {
  ANNOTATION_INPLACE_UPDATE_GRACE,
  ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY,
  ANNOTATION_INPLACE_UPDATE_STATE,
  ANNOTATION_INPLACE_UPDATE_STATE_LEGACY,
} from '../../api/keys.js';
import { isJsonObject, type JsonObject, type JsonValue, type Pod } from '../../api/types.js';
import { compareGoKeys, goJson, goJsonString } from '../revision/goJson.js';
import { errorMessage, KruiselessError } from '../../core/errors.js';

/** cpu/memory requirements of one container (`corev1.ResourceRequirements`, quantities as strings). */
export interface ResourceRequirements {
  limits?: Record<string, string>;
  requests?: Record<string, string>;
}

/** Labels/annotations a container's env reads through `fieldRef` (the part of `metav1.ObjectMeta` used). */
export interface RefMetadata {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/**
 * What an in-place update changes (OpenKruise `UpdateSpec`, docs/behaviour/cloneset.md#pod-annotations,
 * docs/behaviour/cloneset.md#in-place-update). Maps are keyed by container name.
 */
export interface UpdateSpec {
  /** Target revision name. */
  revision: string;
  containerImages: Record<string, string>;
  containerRefMetadata: Record<string, RefMetadata>;
  containerResources: Record<string, ResourceRequirements>;
  /**
   * Strategic-merge patch of pod metadata as JSON text (Go key order), absent when metadata did not change.
   */
  metaDataPatch?: string;
  updateEnvFromMetadata: boolean;
  /** `inPlaceUpdateStrategy.gracePeriodSeconds`, seconds; 0 = apply at once. */
  graceSeconds: number;
}

/** One entry of `containerBatchesRecord`. */
export interface ContainerBatch {
  /** RFC 3339 time the batch was applied. */
  timestamp: string;
  containers: string[];
}

/**
 * OpenKruise `InPlaceUpdateState` (docs/behaviour/cloneset.md#pod-annotations), as parsed from / written to
 * the pod annotation.
 */
export interface InPlaceUpdateState {
  revision: string;
  /** RFC 3339 time the in-place update started. */
  updateTimestamp: string;
  /** Container name → imageID before its image was changed; undefined serialises as `null`. */
  lastContainerStatuses?: Record<string, { imageID?: string }>;
  updateEnvFromMetadata?: boolean;
  updateResources?: boolean;
  updateImages?: boolean;
  nextContainerImages?: Record<string, string>;
  nextContainerRefMetadata?: Record<string, RefMetadata>;
  nextContainerResources?: Record<string, ResourceRequirements>;
  preCheckBeforeNext?: { containersRequiredReady?: string[] };
  containerBatchesRecord?: ContainerBatch[];
}

/** A JSON document could not be parsed into the expected shape. */
export class InPlaceStateError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'InPlaceStateError';
  }
}

const isEmpty = (m: object | undefined): boolean => !m || Object.keys(m).length === 0;

function stringMap(v: unknown): Record<string, string> | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

function objectMap<T>(v: unknown, each: (x: unknown) => T): Record<string, T> | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const out: Record<string, T> = {};
  for (const [k, x] of Object.entries(v)) out[k] = each(x);
  return out;
}

/** The string-map fields `keys` of a decoded JSON object, in `keys` order, each only when present. */
function stringMaps<K extends string>(
  v: unknown,
  keys: readonly K[],
): Partial<Record<K, Record<string, string>>> {
  const o = (v ?? {}) as Record<string, unknown>;
  const out: Partial<Record<K, Record<string, string>>> = {};
  for (const k of keys) {
    const m = stringMap(o[k]);
    if (m) out[k] = m;
  }
  return out;
}

function refMetadata(v: unknown): RefMetadata {
  return stringMaps(v, ['labels', 'annotations']);
}

function resources(v: unknown): ResourceRequirements {
  return stringMaps(v, ['limits', 'requests']);
}

function parseObject(text: string, what: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new InPlaceStateError(`invalid ${what} JSON: ${errorMessage(e)}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new InPlaceStateError(`${what} is not an object`);
  return v as Record<string, unknown>;
}

/**
 * Parses an `InPlaceUpdateState` annotation value.
 * @throws InPlaceStateError when the text is not a JSON object
 */
export function parseInPlaceUpdateState(text: string): InPlaceUpdateState {
  const o = parseObject(text, 'in-place update state');
  const state: InPlaceUpdateState = {
    revision: typeof o.revision === 'string' ? o.revision : '',
    updateTimestamp: typeof o.updateTimestamp === 'string' ? o.updateTimestamp : '',
  };
  const last = objectMap(o.lastContainerStatuses, (x) => {
    const id = (x as { imageID?: unknown } | null)?.imageID;
    return typeof id === 'string' ? { imageID: id } : {};
  });
  if (last) state.lastContainerStatuses = last;
  if (o.updateEnvFromMetadata === true) state.updateEnvFromMetadata = true;
  if (o.updateResources === true) state.updateResources = true;
  if (o.updateImages === true) state.updateImages = true;
  const nextImages = stringMap(o.nextContainerImages);
  if (nextImages) state.nextContainerImages = nextImages;
  const nextRef = objectMap(o.nextContainerRefMetadata, refMetadata);
  if (nextRef) state.nextContainerRefMetadata = nextRef;
  const nextRes = objectMap(o.nextContainerResources, resources);
  if (nextRes) state.nextContainerResources = nextRes;
  const pre = o.preCheckBeforeNext as { containersRequiredReady?: unknown } | null | undefined;
  if (pre && typeof pre === 'object') {
    const names = Array.isArray(pre.containersRequiredReady)
      ? pre.containersRequiredReady.filter((n): n is string => typeof n === 'string')
      : undefined;
    state.preCheckBeforeNext = names ? { containersRequiredReady: names } : {};
  }
  if (Array.isArray(o.containerBatchesRecord)) {
    state.containerBatchesRecord = o.containerBatchesRecord.map((b) => {
      const r = (b ?? {}) as { timestamp?: unknown; containers?: unknown };
      return {
        timestamp: typeof r.timestamp === 'string' ? r.timestamp : '',
        containers: Array.isArray(r.containers)
          ? r.containers.filter((n): n is string => typeof n === 'string')
          : [],
      };
    });
  }
  return state;
}

/**
 * Parses an `UpdateSpec` (grace annotation value); `metaDataPatch` is decoded from base64.
 * @throws InPlaceStateError when the text is not a JSON object
 */
export function parseUpdateSpec(text: string): UpdateSpec {
  const o = parseObject(text, 'in-place update spec');
  return {
    revision: typeof o.revision === 'string' ? o.revision : '',
    containerImages: stringMap(o.containerImages) ?? {},
    containerRefMetadata: objectMap(o.containerRefMetadata, refMetadata) ?? {},
    containerResources: objectMap(o.containerResources, resources) ?? {},
    ...(typeof o.metaDataPatch === 'string' && o.metaDataPatch !== ''
      ? { metaDataPatch: Buffer.from(o.metaDataPatch, 'base64').toString('utf8') }
      : {}),
    updateEnvFromMetadata: o.updateEnvFromMetadata === true,
    graceSeconds: typeof o.graceSeconds === 'number' ? o.graceSeconds : 0,
  };
}

/**
 * `metav1.ObjectMeta` as Go marshals it: `creationTimestamp` first (always `null`), then labels, annotations.
 */
function refMetadataJson(m: RefMetadata): string {
  const parts = ['"creationTimestamp":null'];
  if (!isEmpty(m.labels)) parts.push(`"labels":${goJson(m.labels)}`);
  if (!isEmpty(m.annotations)) parts.push(`"annotations":${goJson(m.annotations)}`);
  return `{${parts.join(',')}}`;
}

function resourcesJson(r: ResourceRequirements): string {
  const parts: string[] = [];
  if (!isEmpty(r.limits)) parts.push(`"limits":${goJson(r.limits)}`);
  if (!isEmpty(r.requests)) parts.push(`"requests":${goJson(r.requests)}`);
  return `{${parts.join(',')}}`;
}

function mapJson<T>(m: Record<string, T>, each: (v: T) => string): string {
  const keys = Object.keys(m).sort(compareGoKeys);
  return `{${keys.map((k) => `${goJsonString(k)}:${each(m[k])}`).join(',')}}`;
}

/**
 * Serialises a state in OpenKruise's field order (docs/behaviour/cloneset.md#pod-annotations), omitting
 * false/empty fields.
 */
export function serializeInPlaceUpdateState(s: InPlaceUpdateState): string {
  const parts = [
    `"revision":${goJsonString(s.revision)}`,
    `"updateTimestamp":${goJsonString(s.updateTimestamp)}`,
    `"lastContainerStatuses":${
      s.lastContainerStatuses
        ? mapJson(s.lastContainerStatuses, (c) =>
            c.imageID ? `{"imageID":${goJsonString(c.imageID)}}` : '{}',
          )
        : 'null'
    }`,
  ];
  if (s.updateEnvFromMetadata) parts.push('"updateEnvFromMetadata":true');
  if (s.updateResources) parts.push('"updateResources":true');
  if (s.updateImages) parts.push('"updateImages":true');
  if (!isEmpty(s.nextContainerImages)) parts.push(`"nextContainerImages":${goJson(s.nextContainerImages)}`);
  if (s.nextContainerRefMetadata && !isEmpty(s.nextContainerRefMetadata))
    parts.push(`"nextContainerRefMetadata":${mapJson(s.nextContainerRefMetadata, refMetadataJson)}`);
  if (s.nextContainerResources && !isEmpty(s.nextContainerResources))
    parts.push(`"nextContainerResources":${mapJson(s.nextContainerResources, resourcesJson)}`);
  if (s.preCheckBeforeNext) {
    const names = s.preCheckBeforeNext.containersRequiredReady;
    parts.push(
      `"preCheckBeforeNext":${names && names.length > 0 ? `{"containersRequiredReady":${goJson(names)}}` : '{}'}`,
    );
  }
  if (s.containerBatchesRecord && s.containerBatchesRecord.length > 0) {
    const batches = s.containerBatchesRecord.map(
      (b) => `{"timestamp":${goJsonString(b.timestamp)},"containers":${goJson(b.containers)}}`,
    );
    parts.push(`"containerBatchesRecord":[${batches.join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * Serialises an `UpdateSpec` for the grace annotation (docs/behaviour/cloneset.md#pod-annotations);
 * `metaDataPatch` becomes base64.
 */
export function serializeUpdateSpec(s: UpdateSpec): string {
  const parts = [`"revision":${goJsonString(s.revision)}`];
  if (!isEmpty(s.containerImages)) parts.push(`"containerImages":${goJson(s.containerImages)}`);
  if (!isEmpty(s.containerRefMetadata))
    parts.push(`"containerRefMetadata":${mapJson(s.containerRefMetadata, refMetadataJson)}`);
  if (!isEmpty(s.containerResources))
    parts.push(`"containerResources":${mapJson(s.containerResources, resourcesJson)}`);
  if (s.metaDataPatch)
    parts.push(`"metaDataPatch":${goJsonString(Buffer.from(s.metaDataPatch, 'utf8').toString('base64'))}`);
  if (s.updateEnvFromMetadata) parts.push('"updateEnvFromMetadata":true');
  if (s.graceSeconds) parts.push(`"graceSeconds":${s.graceSeconds}`);
  return `{${parts.join(',')}}`;
}

/** The raw state annotation (new key, else the legacy key), or undefined. */
export function stateAnnotation(pod: Pod): string | undefined {
  const a = pod.metadata.annotations ?? {};
  return a[ANNOTATION_INPLACE_UPDATE_STATE] ?? a[ANNOTATION_INPLACE_UPDATE_STATE_LEGACY];
}

/** The raw grace annotation (new key, else the legacy key), or undefined. */
export function graceAnnotation(pod: Pod): string | undefined {
  const a = pod.metadata.annotations ?? {};
  return a[ANNOTATION_INPLACE_UPDATE_GRACE] ?? a[ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY];
}

/** Patch fragment `{annotationKey: null}` for every grace annotation key present on the pod. */
export function removeGraceAnnotations(pod: Pod): Record<string, null> {
  const a = pod.metadata.annotations ?? {};
  const out: Record<string, null> = {};
  for (const k of [ANNOTATION_INPLACE_UPDATE_GRACE, ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY])
    if (k in a) out[k] = null;
  return out;
}

/**
 * Deep-merges `src` into `dst` (objects recursively; arrays and scalars replace), as consecutive
 * strategic-merge patches on maps would combine. Returns `dst`.
 */
export function mergeInto(dst: JsonObject, src: JsonObject): JsonObject {
  for (const [k, v] of Object.entries(src)) {
    const cur: JsonValue | undefined = dst[k];
    if (isJsonObject(v) && isJsonObject(cur)) mergeInto(cur, v);
    else dst[k] = isJsonObject(v) ? mergeInto({}, v) : v;
  }
  return dst;
}
