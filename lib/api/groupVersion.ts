/**
 * An `apiVersion` as apimachinery's `schema.ParseGroupVersion` reads it: `""` and `"/"` are the empty group version,
 * `v1` a version of the core group, `apps/v1` a group and a version; more slashes are an error. One parser for the
 * webhooks and controllers that compare references by group (PodUnavailableBudget and WorkloadSpread targets, the
 * WorkloadSpread custom-workload whitelist).
 */

/** A parsed group version. */
export interface GroupVersion {
  /** `''` for the core group. */
  group: string;
  /** `''` for the empty group version. */
  version: string;
}

/**
 * `s` as `schema.ParseGroupVersion` parses it (see the module doc).
 * @returns the group and version, or an error message in upstream's words (`unexpected GroupVersion string: <s>`)
 */
export function parseGroupVersion(s: string): GroupVersion | { error: string } {
  if (s === '' || s === '/') return { group: '', version: '' };
  const parts = s.split('/');
  if (parts.length === 1) return { group: '', version: s };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return { error: `unexpected GroupVersion string: ${s}` };
}
