/**
 * Advanced StatefulSet between `apps.kruise.io/v1alpha1` and `v1beta1` (the stored version). OpenKruise:
 * `ConvertTo`/`ConvertFrom` in `apis/apps/v1alpha1/statefulset_conversion.go` copy the fields both versions have
 * and drop the rest; so does this converter, field for field, with one difference: the v1beta1 fields v1alpha1
 * lacks ({@link V1BETA1_ONLY_FIELDS}) travel in the annotation {@link ANNOTATION_V1BETA1_FIELDS} of the v1alpha1
 * object and come back from it, so a v1alpha1 read-modify-write loses nothing (issue 17). v1alpha1 has no field
 * v1beta1 lacks. Unlike OpenKruise's Go structs, the JSON is copied as it is: no Go zero values are added
 * (`updateStrategy: {}`, `creationTimestamp: null`, zero status counts) and none are dropped (`paused: false`).
 */
import { ConversionError, type CrdConverter } from '../../../api/conversion/converter.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../../api/types.js';
import { ANNOTATION_V1BETA1_FIELDS } from './keys.js';

/** The group of both versions. */
export const STATEFULSET_GROUP = 'apps.kruise.io';

/**
 * The fields of v1beta1 (`apis/apps/v1beta1/statefulset_types.go`) that v1alpha1
 * (`apis/apps/v1alpha1/statefulset_types.go`) does not have, by part, in the order the annotation lists them.
 */
export const V1BETA1_ONLY_FIELDS = {
  spec: [
    'volumeClaimUpdateStrategy',
    'reserveOrdinals',
    'lifecycle',
    'scaleStrategy',
    'persistentVolumeClaimRetentionPolicy',
    'ordinals',
  ],
  status: ['updatedReadyReplicas', 'updatedAvailableReplicas', 'volumeClaims'],
} as const;

type Part = keyof typeof V1BETA1_ONLY_FIELDS;
const PARTS: readonly Part[] = ['spec', 'status'];

/** `object.metadata.annotations` without `key`; the map is left out when nothing else is in it. */
function withoutAnnotation(metadata: JsonObject, key: string): JsonObject {
  if (!isJsonObject(metadata.annotations) || !(key in metadata.annotations)) return metadata;
  const { [key]: _dropped, ...rest } = metadata.annotations;
  const { annotations: _old, ...others } = metadata;
  return Object.keys(rest).length > 0 ? { ...others, annotations: rest } : others;
}

/**
 * A v1beta1 StatefulSet as v1alpha1: apiVersion changed, {@link V1BETA1_ONLY_FIELDS} moved from spec and status
 * into the annotation {@link ANNOTATION_V1BETA1_FIELDS} (JSON; absent when the object has none of them, and any
 * such annotation the v1beta1 object carried is replaced), everything else as it is.
 * @param beta a v1beta1 StatefulSet as the API server stores it; not modified
 */
export function toV1alpha1(beta: JsonObject): JsonObject {
  const kept: Partial<Record<Part, JsonObject>> = {};
  const out: JsonObject = { ...beta, apiVersion: `${STATEFULSET_GROUP}/v1alpha1` };
  for (const part of PARTS) {
    const value = beta[part];
    if (!isJsonObject(value)) continue;
    const rest: JsonObject = { ...value };
    for (const field of V1BETA1_ONLY_FIELDS[part]) {
      if (!(field in rest)) continue;
      (kept[part] ??= {})[field] = rest[field];
      delete rest[field];
    }
    out[part] = rest;
  }
  const metadata = withoutAnnotation(
    isJsonObject(beta.metadata) ? beta.metadata : {},
    ANNOTATION_V1BETA1_FIELDS,
  );
  if (Object.keys(kept).length === 0) {
    if (isJsonObject(beta.metadata)) out.metadata = metadata;
    return out;
  }
  const annotations = isJsonObject(metadata.annotations) ? metadata.annotations : {};
  out.metadata = {
    ...metadata,
    annotations: { ...annotations, [ANNOTATION_V1BETA1_FIELDS]: JSON.stringify(kept) },
  };
  return out;
}

/** The annotation's JSON, checked: an object whose `spec` and `status`, when present, are objects. */
function readKeptFields(text: JsonValue | undefined): Partial<Record<Part, JsonObject>> {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = typeof text === 'string' ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const kept = parsed as JsonValue | undefined;
  if (!isJsonObject(kept) || PARTS.some((p) => kept[p] !== undefined && !isJsonObject(kept[p])))
    throw new ConversionError(
      `metadata.annotations[${ANNOTATION_V1BETA1_FIELDS}]: not the JSON {"spec": {...}, "status": {...}} Kruiseless ` +
        'writes there (remove the annotation to drop the v1beta1-only fields it carried)',
    );
  return kept;
}

/**
 * A v1alpha1 StatefulSet as v1beta1: apiVersion changed, the annotation {@link ANNOTATION_V1BETA1_FIELDS} (if any)
 * removed and its {@link V1BETA1_ONLY_FIELDS} put back into spec and status (other keys in it are ignored),
 * everything else as it is.
 * @param alpha a v1alpha1 StatefulSet; not modified
 * @throws ConversionError when the annotation is not the JSON object {@link toV1alpha1} writes
 */
export function toV1beta1(alpha: JsonObject): JsonObject {
  const out: JsonObject = { ...alpha, apiVersion: `${STATEFULSET_GROUP}/v1beta1` };
  if (!isJsonObject(alpha.metadata)) return out;
  const annotations = isJsonObject(alpha.metadata.annotations) ? alpha.metadata.annotations : {};
  const kept = readKeptFields(annotations[ANNOTATION_V1BETA1_FIELDS]);
  out.metadata = withoutAnnotation(alpha.metadata, ANNOTATION_V1BETA1_FIELDS);
  for (const part of PARTS) {
    const fields = kept[part];
    if (!fields) continue;
    const restored: JsonObject = isJsonObject(alpha[part]) ? { ...alpha[part] } : {};
    for (const field of V1BETA1_ONLY_FIELDS[part]) if (field in fields) restored[field] = fields[field];
    out[part] = restored;
  }
  return out;
}

/** The Advanced StatefulSet converter of lib/controllers/conversions.ts. */
export const statefulSetConverter: CrdConverter = {
  group: STATEFULSET_GROUP,
  kind: 'StatefulSet',
  plural: 'statefulsets',
  versions: ['v1beta1', 'v1alpha1'],
  convert(object, _from, to) {
    return to === 'v1alpha1' ? toV1alpha1(object) : toV1beta1(object);
  },
};
