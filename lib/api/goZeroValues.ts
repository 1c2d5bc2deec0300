/**
 * Go's zero values as they arrive in JSON. OpenKruise's mutating webhooks compare the decoded object, and a field Go
 * decodes to its zero value is the same as an absent one (lib/api/goRoundTrip.ts writes the whole round trip).
 */
import { isJsonObject } from './types.js';

/** Go's zero value of a non-pointer field as JSON: false, 0, "", an empty list or an empty map (null too). */
export function isGoZeroValue(v: unknown): boolean {
  return (
    v === null ||
    v === false ||
    v === 0 ||
    v === '' ||
    (Array.isArray(v) && v.length === 0) ||
    (isJsonObject(v) && Object.keys(v).length === 0)
  );
}
