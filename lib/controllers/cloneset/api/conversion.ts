/**
 * CloneSet between `apps.kruise.io/v1alpha1` (Kruiseless's stored version) and `v1beta1` (OpenKruise v1.9.0's
 * stored version), for the CRD conversion webhook. The fields map as OpenKruise maps them (./versionMapping.ts);
 * where that mapping would lose something (OnDelete with rolling fields, `excludePreparingDelete` without its
 * label, an empty `inPlaceUpdateStrategy`, an absent `scaleStrategy`, …) the converted object carries a marker
 * annotation with the source's mapped part, and converting it back restores that part exactly, so a
 * read-modify-write through either version loses nothing. A marker whose converted part was changed since (a
 * client edited the strategy) is dropped and the plain mapping applies.
 */
import { isDeepStrictEqual } from 'node:util';
import { ConversionError, type CrdConverter } from '../../../api/conversion/converter.js';
import { GROUP, KIND } from '../../../api/keys.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../../api/types.js';
import {
  mapToV1alpha1,
  mapToV1beta1,
  mappedPart,
  withMappedPart,
  type MappedPart,
} from './versionMapping.js';

/** The two served versions. */
export type CloneSetVersion = 'v1alpha1' | 'v1beta1';

/**
 * On a CloneSet read as v1alpha1: what the v1beta1 object had that the plain mapping would not give back, as JSON
 * `{"was": <v1beta1 mapped part>, "as": <v1alpha1 mapped part>}` (./versionMapping.ts `MappedPart`). Kruiseless's
 * own; OpenKruise's converter drops those values instead.
 */
export const ANNOTATION_CLONESET_V1BETA1_FIELDS = 'kruiseless.io/v1beta1-fields';
/** The same on a CloneSet read as v1beta1, for what its v1alpha1 object had. */
export const ANNOTATION_CLONESET_V1ALPHA1_FIELDS = 'kruiseless.io/v1alpha1-fields';

/** The marker a `version` object carries about the other version. */
function markerOn(version: CloneSetVersion): string {
  return version === 'v1alpha1' ? ANNOTATION_CLONESET_V1BETA1_FIELDS : ANNOTATION_CLONESET_V1ALPHA1_FIELDS;
}

interface Marker {
  was: MappedPart;
  as: MappedPart;
}

/**
 * A mapped part with the defaults the API server applies to that version before a conversion request: v1alpha1's
 * from infra/crds/apps.kruise.io_clonesets.yaml (`updateStrategy` type ReCreate, partition 0, maxUnavailable 20%,
 * maxSurge 0), v1beta1's from OpenKruise's schema (`scaleStrategy.enablePVCReuse` false).
 */
function withServerDefaults(version: CloneSetVersion, part: MappedPart): MappedPart {
  if (version === 'v1alpha1') {
    const us = isJsonObject(part.updateStrategy) ? part.updateStrategy : {};
    const defaults: JsonObject = { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 };
    return { ...part, updateStrategy: { ...defaults, ...us } };
  }
  if (!isJsonObject(part.scaleStrategy)) return part;
  return { ...part, scaleStrategy: { enablePVCReuse: false, ...part.scaleStrategy } };
}

function samePart(version: CloneSetVersion, a: MappedPart, b: MappedPart): boolean {
  return isDeepStrictEqual(withServerDefaults(version, a), withServerDefaults(version, b));
}

function stringMap(v: JsonValue | undefined): v is Record<string, string> {
  return isJsonObject(v) && Object.values(v).every((x) => typeof x === 'string');
}

function isPart(v: JsonValue | undefined): v is JsonObject & MappedPart {
  return isJsonObject(v) && stringMap(v.labels) && stringMap(v.annotations);
}

/** The marker's JSON, checked. */
function readMarker(key: string, text: JsonValue): Marker {
  let parsed: JsonValue | undefined;
  try {
    parsed = typeof text === 'string' ? (JSON.parse(text) as JsonValue) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!isJsonObject(parsed) || !isPart(parsed.was) || !isPart(parsed.as))
    throw new ConversionError(
      `metadata.annotations[${key}]: not the JSON {"was": {...}, "as": {...}} Kruiseless writes there ` +
        '(remove the annotation to convert without it)',
    );
  return { was: parsed.was, as: parsed.as };
}

/** `cs` without both marker annotations (the map left out when nothing else is in it). */
function withoutMarkers(cs: JsonObject): JsonObject {
  const meta = isJsonObject(cs.metadata) ? cs.metadata : undefined;
  if (!meta || !isJsonObject(meta.annotations)) return cs;
  const {
    [ANNOTATION_CLONESET_V1BETA1_FIELDS]: _b,
    [ANNOTATION_CLONESET_V1ALPHA1_FIELDS]: _a,
    ...rest
  } = meta.annotations;
  const { annotations: _old, ...others } = meta;
  return { ...cs, metadata: Object.keys(rest).length > 0 ? { ...others, annotations: rest } : others };
}

function withAnnotation(cs: JsonObject, key: string, value: string): JsonObject {
  const meta = isJsonObject(cs.metadata) ? cs.metadata : {};
  const annotations = isJsonObject(meta.annotations) ? meta.annotations : {};
  return { ...cs, metadata: { ...meta, annotations: { ...annotations, [key]: value } } };
}

const MAP_TO: Record<CloneSetVersion, (p: MappedPart) => MappedPart> = {
  v1alpha1: mapToV1alpha1,
  v1beta1: mapToV1beta1,
};

/**
 * A CloneSet of version `from` as version `to`. A marker for `to` on the object whose recorded part still matches
 * (modulo the defaults the API server adds to a stored object) gives back the recorded part; otherwise the
 * OpenKruise mapping applies, and when mapping the result back would not give the source's part exactly, the
 * result carries a marker for `from`. Any other
 * marker annotation on the input is dropped. Only metadata.labels and metadata.annotations of metadata change.
 * @param cs the object as the API server sends it; not modified
 * @throws ConversionError when a marker annotation is not the JSON this converter writes
 */
export function convertCloneSet(cs: JsonObject, from: CloneSetVersion, to: CloneSetVersion): JsonObject {
  const apiVersion = `${GROUP}/${to}`;
  if (from === to) return { ...cs, apiVersion };
  const meta = isJsonObject(cs.metadata) ? cs.metadata : {};
  const markerText = isJsonObject(meta.annotations) ? meta.annotations[markerOn(from)] : undefined;
  const source = withoutMarkers(cs);
  const sourcePart = mappedPart(source);
  if (markerText !== undefined) {
    const marker = readMarker(markerOn(from), markerText);
    if (samePart(from, sourcePart, marker.as)) return { ...withMappedPart(source, marker.was), apiVersion };
  }
  const part = MAP_TO[to](sourcePart);
  const out: JsonObject = { ...withMappedPart(source, part), apiVersion };
  if (isDeepStrictEqual(MAP_TO[from](part), sourcePart)) return out;
  const marker: Marker = { was: sourcePart, as: part };
  return withAnnotation(out, markerOn(to), JSON.stringify(marker));
}

/**
 * What OpenKruise's controller, which reads CloneSets as v1beta1, sees in an object that the stored v1alpha1 does not
 * say: the parts of a v1beta1 write that OpenKruise's v1alpha1 has no place for, kept only in this converter's
 * marker (honoured by {@link convertCloneSet} while the strategy it recorded is unchanged).
 */
export interface V1beta1View {
  /** `scaleStrategy.excludePreparingDelete` (v1alpha1 spells it as a label and does not carry it back). */
  excludePreparingDelete: boolean;
  /**
   * `updateStrategy.type` OnDelete with a `rollingUpdate` block beside it: OpenKruise's `calculateDiffsWithExpectation`
   * then reads the block's partition, maxSurge and maxUnavailable, where an OnDelete of v1alpha1 (converted without a
   * block) has partition 0 and maxUnavailable 20%.
   */
  onDeleteRollingUpdate: boolean;
}

/** The {@link V1beta1View} of an object without a v1beta1 marker: nothing beyond v1alpha1. */
const PLAIN_V1ALPHA1: V1beta1View = { excludePreparingDelete: false, onDeleteRollingUpdate: false };

/**
 * The CloneSet as stored (v1alpha1) read as v1beta1, the version OpenKruise's controller reads: what it has beyond
 * v1alpha1 ({@link V1beta1View}). Never throws: a marker that cannot be read counts as none.
 * @param stored the CloneSet as the API server stores it (before in-memory defaults, which the marker does not know)
 */
export function v1beta1View(stored: JsonObject): V1beta1View {
  const meta = isJsonObject(stored.metadata) ? stored.metadata : {};
  if (!isJsonObject(meta.annotations) || meta.annotations[ANNOTATION_CLONESET_V1BETA1_FIELDS] === undefined)
    return PLAIN_V1ALPHA1;
  try {
    const beta = convertCloneSet(stored, 'v1alpha1', 'v1beta1');
    const spec = isJsonObject(beta.spec) ? beta.spec : {};
    const us = isJsonObject(spec.updateStrategy) ? spec.updateStrategy : {};
    return {
      excludePreparingDelete:
        isJsonObject(spec.scaleStrategy) && spec.scaleStrategy.excludePreparingDelete === true,
      onDeleteRollingUpdate: us.type === 'OnDelete' && isJsonObject(us.rollingUpdate),
    };
  } catch {
    return PLAIN_V1ALPHA1;
  }
}

/** The CloneSet converter of lib/controllers/conversions.ts. */
export const cloneSetConverter: CrdConverter = {
  group: GROUP,
  kind: KIND,
  plural: 'clonesets',
  versions: ['v1alpha1', 'v1beta1'],
  convert(object, from, to) {
    return convertCloneSet(object, from as CloneSetVersion, to as CloneSetVersion);
  },
};
