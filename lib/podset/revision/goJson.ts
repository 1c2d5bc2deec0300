/**
 * OpenKruise: none; reproduces Go's `encoding/json` and `hash/fnv`, apimachinery's
 * `rand.SafeEncodeString` and Kubernetes' `hashutil.DeepHashObject` (spew) that OpenKruise's revision names
 * and hash annotations depend on.
 *
 * Byte-compatible reproductions of the Go serialisation and hashing that name OpenKruise's
 * ControllerRevisions (docs/behaviour/cloneset.md#revisions,
 * docs/behaviour/cloneset.md#controller-revisions): `encoding/json` output of untyped maps, FNV-1/FNV-1a
 * 32-bit, and apimachinery's `SafeEncodeString`. Pure functions; strings go in and out, bytes are UTF-8.
 */
import { SAFE_ALPHABET } from '../../api/keys.js';

import { compareGoKeys, goJson, goJsonString } from '../../api/goJson.js';
import type { JsonValue } from '../../api/types.js';

export { GoJsonError, compareGoKeys, goJson, goJsonNumber, goJsonString } from '../../api/goJson.js';

/** UTF-8 bytes of a string (unpaired surrogates become U+FFFD, as Go's conversion does). */
export function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

/**
 * FNV-1 32-bit (multiply, then xor) over `bytes`, as Go's `hash/fnv.New32()`.
 * @param seed continue from a previous sum (default: the FNV offset basis)
 * @returns the unsigned 32-bit sum
 */
export function fnv1_32(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) {
    h = Math.imul(h, 0x01000193) >>> 0;
    h = (h ^ b) >>> 0;
  }
  return h;
}

/** FNV-1a 32-bit (xor, then multiply), as Go's `hash/fnv.New32a()`; returns the unsigned sum. */
export function fnv1a_32(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) {
    h = (h ^ b) >>> 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * apimachinery's `rand.SafeEncodeString`: every character `c` becomes `SAFE_ALPHABET[code(c) mod 27]`, so the
 * output has no vowels and no look-alike characters (digits `0`–`9` → `4 5 6 7 8 9 b c d f`). Input is
 * expected to be ASCII (a decimal number in practice).
 */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += SAFE_ALPHABET[s.charCodeAt(i) % SAFE_ALPHABET.length];
  return out;
}

// ---- typed PersistentVolumeClaim serialisation (VCT hash, docs/behaviour/cloneset.md#controller-revisions)
// ----

type Obj = { [key: string]: unknown };

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A decoded JSON scalar as the text of the Go `string` it fills: a string as is, a number or boolean as it prints
 * (`1` → `"1"`); anything else (a malformed object or list, which Go's typed decode would refuse) as its JSON.
 */
function scalarText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v) ?? String(v);
}

/**
 * A Go `map[string]string`-like value (resource lists, matchLabels), keys sorted; numbers print as strings.
 */
function stringMap(v: unknown): string {
  const m = v as Obj;
  return `{${Object.keys(m)
    .sort(compareGoKeys)
    .map((k) => `${goJsonString(k)}:${goJsonString(scalarText(m[k]))}`)
    .join(',')}}`;
}

function nonEmptyMap(v: unknown): boolean {
  return isObj(v) && Object.keys(v).length > 0;
}

function optString(v: unknown): string {
  return v === undefined || v === null ? 'null' : goJsonString(scalarText(v));
}

/** Fields in Go struct order; `undefined` members are omitted (omitempty). */
function struct(fields: [string, string | undefined][]): string {
  return `{${fields
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `"${k}":${v}`)
    .join(',')}}`;
}

function labelSelector(sel: Obj): string {
  const exprs = Array.isArray(sel.matchExpressions) ? (sel.matchExpressions as Obj[]) : [];
  return struct([
    ['matchLabels', nonEmptyMap(sel.matchLabels) ? stringMap(sel.matchLabels) : undefined],
    [
      'matchExpressions',
      exprs.length > 0
        ? `[${exprs
            .map((e) =>
              struct([
                ['key', goJsonString(scalarText(e.key ?? ''))],
                ['operator', goJsonString(scalarText(e.operator ?? ''))],
                [
                  'values',
                  Array.isArray(e.values) && e.values.length > 0 ? goJson(e.values as JsonValue) : undefined,
                ],
              ]),
            )
            .join(',')}]`
        : undefined,
    ],
  ]);
}

function typedRef(ref: unknown, withNamespace: boolean): string | undefined {
  if (!isObj(ref)) return undefined;
  return struct([
    ['apiGroup', optString(ref.apiGroup)],
    ['kind', goJsonString(scalarText(ref.kind ?? ''))],
    ['name', goJsonString(scalarText(ref.name ?? ''))],
    [
      'namespace',
      withNamespace && ref.namespace != null ? goJsonString(scalarText(ref.namespace)) : undefined,
    ],
  ]);
}

function pointer(v: unknown): string | undefined {
  return v === undefined || v === null ? undefined : goJsonString(scalarText(v));
}

/**
 * `corev1.PersistentVolumeClaimSpec` as Go's typed `json.Marshal` writes it (field order, omitempty rules).
 */
function pvcSpec(spec: Obj): string {
  const res = isObj(spec.resources) ? spec.resources : {};
  const accessModes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  return struct([
    ['accessModes', accessModes.length > 0 ? goJson(accessModes as JsonValue) : undefined],
    ['selector', isObj(spec.selector) ? labelSelector(spec.selector) : undefined],
    [
      'resources',
      struct([
        ['limits', nonEmptyMap(res.limits) ? stringMap(res.limits) : undefined],
        ['requests', nonEmptyMap(res.requests) ? stringMap(res.requests) : undefined],
      ]),
    ],
    ['volumeName', spec.volumeName ? goJsonString(scalarText(spec.volumeName)) : undefined],
    ['storageClassName', pointer(spec.storageClassName)],
    ['volumeMode', pointer(spec.volumeMode)],
    ['dataSource', typedRef(spec.dataSource, false)],
    ['dataSourceRef', typedRef(spec.dataSourceRef, true)],
    ['volumeAttributesClassName', pointer(spec.volumeAttributesClassName)],
  ]);
}

/**
 * `json.Marshal` of a `[]corev1.PersistentVolumeClaim` whose items carry only `metadata.name` and `spec` —
 * the typed (struct-ordered, omitempty-aware) form upstream hashes for the VCT-hash annotation
 * (docs/behaviour/cloneset.md#controller-revisions): per item
 * `{"metadata":{"name":…,"creationTimestamp":null},"spec":{…},"status":{}}`, spec fields in Go struct order
 * (accessModes, selector, resources, volumeName, storageClassName, volumeMode, dataSource, dataSourceRef,
 * volumeAttributesClassName). Items are written in the given order; an empty list is `null` (a nil Go slice).
 *
 * Caveats: fields unknown to `PersistentVolumeClaimSpec` are dropped (as Go's typed decoding does);
 * quantities are written as given, whereas Go re-prints them in canonical form (`"1024Mi"` becomes `"1Gi"`).
 */
export function goTypedPvcListJson(items: readonly { name: string; spec: unknown }[]): string {
  if (items.length === 0) return 'null';
  return `[${items
    .map(
      (t) =>
        `{"metadata":${struct([
          ['name', t.name ? goJsonString(t.name) : undefined],
          ['creationTimestamp', 'null'],
        ])},"spec":${pvcSpec(isObj(t.spec) ? t.spec : {})},"status":{}}`,
    )
    .join(',')}]`;
}

/** go-spew's `%#v` rendering of a Go `[]byte` holding the UTF-8 of `s`: `([]uint8)[b0 b1 …]`. */
export function goSpewBytes(s: string): string {
  return `([]uint8)[${Array.from(utf8(s)).join(' ')}]`;
}
