/**
 * OpenKruise: none; the shape of Go's `reflect` view of a type that lib/podset/revision/spewHash.ts walks (go-spew
 * prints every field of a struct, typed, whether or not the JSON had it) and ./goRoundTrip.ts (encoding/json's
 * typed round trip).
 *
 * One Go type's layout, as test/unit/podset/revision/spew-golden/spewgen emits it.
 */

/** One struct field, in declaration order. */
export interface GoFieldLayout {
  /** The Go field name, as spew prints it (`Name`, `i`). */
  name: string;
  /** The Go type, as `reflect.Type.String()` prints it (`*int64`, `[]v1.Container`, `v1.ResourceList`). */
  type: string;
  /** Its JSON key; absent for an embedded (`inline`) field and for one JSON never sets. */
  json?: string;
  /** An embedded struct whose fields come from the enclosing JSON object (`json:",inline"`). */
  inline?: boolean;
  /** The JSON tag says `omitempty`: encoding/json leaves the field out when it holds its type's empty value. */
  omitempty?: boolean;
}

/** One Go type: its `reflect.Kind` and what it is made of. */
export interface GoTypeLayout {
  /** `struct`, `ptr`, `slice`, `map`, `string`, `bool`, `int32`, `int64`, `int`, `uint`, `uint8`, `uint64`. */
  kind: string;
  /** The pointed-to / element type (ptr, slice, map). */
  elem?: string;
  /** The key type (map). */
  key?: string;
  /** The fields (struct). */
  fields?: GoFieldLayout[];
}
