/**
 * Go's `encoding/json` drops a field tagged `omitempty` when it holds its type's zero value. OpenKruise's mutating
 * webhooks decode an object into its Go struct and marshal it back, so a user's explicit zero (`paused: false`,
 * `minReadySeconds: 0`, an empty list) is not stored for a field that is not a pointer. The helpers here remove the
 * same fields from a JSON object, for the mutators that store what those webhooks store.
 */
import { isJsonObject, type JsonObject, type JsonValue } from './types.js';

/** Go's zero value of a non-pointer field as JSON: false, 0, "", an empty list or an empty map (null too). */
export function isGoZeroValue(v: unknown): boolean {
  return v === null || isGoZero(v);
}

/** Go's zero value of a non-pointer field as JSON: false, 0, "", an empty list or an empty map. */
function isGoZero(v: unknown): boolean {
  return (
    v === false ||
    v === 0 ||
    v === '' ||
    (Array.isArray(v) && v.length === 0) ||
    (isJsonObject(v) && Object.keys(v).length === 0)
  );
}

/**
 * A copy of `o` without those of `keys` that hold Go's zero value (false, 0, "", [] or {}): the non-pointer
 * `omitempty` fields among them, as Go's marshal leaves them out. Name only fields that are not pointers in the Go
 * type: a pointer's zero (`*bool` false) is kept by Go.
 * @returns a new object; `o` is not modified
 */
export function withoutGoZero(o: JsonObject, keys: readonly string[]): JsonObject {
  const out = { ...o };
  for (const k of keys) if (isGoZero(out[k])) delete out[k];
  return out;
}

/**
 * `lifecycle` (OpenKruise's `apps/pub` `Lifecycle`) without the zero-valued fields of each hook: `labelsHandler` {},
 * `finalizersHandler` [], `markPodNotReady` false, all non-pointer `omitempty` fields of `LifecycleHook`.
 * @returns a new object; anything not a JSON object is returned as is
 */
export function lifecycleWithoutGoZero(lifecycle: JsonValue): JsonValue {
  if (!isJsonObject(lifecycle)) return lifecycle;
  const hooks: JsonObject = { ...lifecycle };
  for (const [name, hook] of Object.entries(lifecycle))
    if (isJsonObject(hook))
      hooks[name] = withoutGoZero(hook, ['labelsHandler', 'finalizersHandler', 'markPodNotReady']);
  return hooks;
}
