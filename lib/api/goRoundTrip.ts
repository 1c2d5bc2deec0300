/**
 * OpenKruise: none; reproduces what its mutating webhooks store — they decode the object into its Go struct, default
 * it, `json.Marshal` it and answer the JSON Patch from the request to that (controller-runtime's
 * `PatchResponseFromRaw`). Go's typed round trip leaves its marks on the stored object: a non-pointer struct field is
 * always written (`metadata.creationTimestamp: null` — `metav1.Time` marshals its zero as null —, a container's
 * `resources: {}`, a claim template's `status: {}`, CloneSet's `scaleStrategy: {}`), a field tagged `omitempty` that
 * holds its type's empty value is dropped (`paused: false`, `[]`), one without `omitempty` is written even when
 * absent (`""`, `0`, `null`), a quantity is written in canonical form, and a field Go does not know is dropped.
 * Pure; driven by the generated layouts of ./goTypeLayout.ts.
 *
 * Approximations: a quantity is also rounded up to milli-units (./quantity.ts `canonicalQuantity`; Go rounds only
 * under `SetDefaults_ResourceList`, which the webhooks run on the templates they default); Go's case-insensitive
 * matching of JSON keys is not repeated (a key in another case is dropped, where Go would read it); a value of the
 * wrong JSON type (Go's decode refuses the whole object) is kept as sent.
 */
import type { GoTypeLayout } from './goLayout.js';
import { GO_TYPE_LAYOUT } from './goTypeLayout.js';
import { canonicalQuantity } from './quantity.js';
import { isJsonObject, type JsonObject, type JsonValue } from './types.js';

/** The Go types {@link goRoundTrip} is asked for (the roots of ./goTypeLayout.ts). */
export type GoRootType =
  | 'v1.PodTemplateSpec'
  | 'v1.PersistentVolumeClaim'
  | 'v1alpha1.CloneSetSpec'
  | 'v1beta1.CloneSetSpec'
  | 'v1beta1.DaemonSetSpec'
  | 'v1beta1.BroadcastJobSpec'
  | 'v1beta1.AdvancedCronJobSpec'
  | 'v1beta1.StatefulSetSpec';

/** One encoded value and whether Go's `omitempty` counts it empty (false, 0, "", nil, a zero-length list or map). */
interface Encoded {
  value: JsonValue;
  empty: boolean;
}

const NIL: Encoded = { value: null, empty: true };

/** Types with their own `MarshalJSON`: what each writes for a value read from `v` (undefined: absent). */
const CUSTOM: Readonly<Record<string, (v: JsonValue | undefined) => JsonValue>> = {
  // metav1.Time: null for the zero time, else RFC 3339 in seconds (the stored text already has that form)
  'v1.Time': (v) => (typeof v === 'string' && v !== '' ? v : null),
  // resource.Quantity: its canonical text; a missing one is the zero quantity
  'resource.Quantity': (v) =>
    typeof v === 'string' ? canonicalQuantity(v) : typeof v === 'number' ? canonicalQuantity(String(v)) : '0',
  // intstr.IntOrString: the int or the string as read; a missing one is the int 0
  'intstr.IntOrString': (v) => (typeof v === 'number' || typeof v === 'string' ? v : 0),
  // metav1.FieldsV1: its raw JSON as is
  'v1.FieldsV1': (v) => (v === undefined ? null : v),
};

function scalar(v: JsonValue | undefined, zero: JsonValue, type: 'string' | 'number' | 'boolean'): Encoded {
  if (v === undefined || v === null || typeof v !== type) {
    // a wrong JSON type makes Go refuse the object; keep it as sent rather than guess
    if (v !== undefined && v !== null) return { value: v, empty: false };
    return { value: zero, empty: true };
  }
  return { value: v, empty: v === zero };
}

function encode(type: string, v: JsonValue | undefined, layouts: Layouts): Encoded {
  const custom = CUSTOM[type];
  if (custom) return { value: custom(v), empty: false };
  const layout = layouts[type];
  if (!layout) return v === undefined ? NIL : { value: v, empty: false }; // not a type Go knows here: as sent
  switch (layout.kind) {
    case 'string':
      return scalar(v, '', 'string');
    case 'bool':
      return scalar(v, false, 'boolean');
    case 'int':
    case 'int32':
    case 'int64':
    case 'uint':
    case 'uint64':
    case 'float64':
      return scalar(v, 0, 'number');
    case 'ptr':
      // a set pointer is never empty, even to a zero value
      return v === undefined || v === null
        ? NIL
        : { value: encode(layout.elem ?? '', v, layouts).value, empty: false };
    case 'slice':
      if (v === undefined || v === null) return NIL;
      if (layout.elem === 'uint8' || !Array.isArray(v)) return { value: v, empty: v === '' };
      // Array.from, not v.map: a new plain array whatever realm `v` comes from
      return {
        value: Array.from(v, (x) => encode(layout.elem ?? '', x, layouts).value),
        empty: v.length === 0,
      };
    case 'map': {
      if (v === undefined || v === null) return NIL;
      if (!isJsonObject(v)) return { value: v, empty: false };
      const out: JsonObject = {};
      // Go writes a map's keys sorted
      for (const k of Object.keys(v).sort()) out[k] = encode(layout.elem ?? '', v[k], layouts).value;
      return { value: out, empty: Object.keys(out).length === 0 };
    }
    case 'struct':
      if (v !== undefined && v !== null && !isJsonObject(v)) return { value: v, empty: false };
      return { value: encodeStruct(layout, v ?? {}, layouts), empty: false };
    default:
      return v === undefined ? NIL : { value: v, empty: false };
  }
}

function encodeStruct(layout: GoTypeLayout, o: JsonObject, layouts: Layouts): JsonObject {
  const out: JsonObject = {};
  for (const f of layout.fields ?? []) {
    if (f.inline) {
      const inner = layouts[f.type];
      if (inner?.kind === 'struct') Object.assign(out, encodeStruct(inner, o, layouts));
      continue;
    }
    if (!f.json) continue;
    const e = encode(f.type, o[f.json], layouts);
    if (f.omitempty && e.empty) continue;
    out[f.json] = e.value;
  }
  return out;
}

/** Go type name → layout (./goTypeLayout.ts). */
type Layouts = Readonly<Record<string, GoTypeLayout>>;

/**
 * `value` decoded into Go type `type` and marshalled again by `encoding/json` (the approximations are in the module
 * header). Object keys come out in Go's order: a struct's in field order, a map's sorted.
 * @param type one of the layouts' root types
 * @param value the JSON as sent (not modified)
 * @returns a new value
 */
export function goRoundTrip(type: GoRootType, value: JsonValue): JsonValue {
  return encode(type, value, GO_TYPE_LAYOUT).value;
}

/**
 * `object` with its `spec` as OpenKruise's webhook writes it back: decoded into `specType`, marshalled again. The
 * object's metadata and status are kept as sent (the API server sets the one on CREATE and keeps the stored other
 * on UPDATE whatever the webhook answers). An object without a spec object is returned as is.
 * @returns a new object; `object` is not modified
 */
export function withGoStoredSpec(object: JsonObject, specType: GoRootType): JsonObject {
  if (!isJsonObject(object.spec)) return object;
  return { ...object, spec: goRoundTrip(specType, object.spec) };
}
