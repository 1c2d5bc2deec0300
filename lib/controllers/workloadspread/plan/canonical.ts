/**
 * JSON with object keys sorted and `undefined` members left out, so that two values compare equal as text exactly
 * when they hold the same data in any key order (the WorkloadSpread status written back, a pod a subset patch would
 * leave as it is). Pure.
 */

/** The canonical JSON text of `v` (see the file comment). */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}
