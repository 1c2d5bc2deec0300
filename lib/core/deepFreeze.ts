/**
 * Deep freezing of parsed JSON: objects a reader may share but never change (docs/architecture.md#watched-lists: a
 * pass's listed pods). A write to a frozen object throws `TypeError` in strict code (every module here), so a reader
 * that mutates what it was given fails loudly in the first test that runs it instead of corrupting a shared copy.
 */

/**
 * Freeze `value` and everything reachable from it, children before parents, and return it. A frozen object is taken
 * as already frozen all the way down (only this function freezes here, and it freezes a parent last), so freezing
 * again is O(1). Meant for JSON data (plain objects, arrays, primitives); anything else is frozen as it is.
 * @returns `value` itself, typed as before (the compiler does not see the freeze; the runtime does)
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value as object)) deepFreeze(child);
  return Object.freeze(value);
}
