/**
 * The name the API server gives an object created with `generateName` only (k8s.io/apiserver
 * `names.SimpleNameGenerator.GenerateName`): the prefix cut to {@link MAX_GENERATED_BASE} characters, then 5 random
 * ones. The random part is the caller's (lib/reconcile/pods/randomSuffix.ts `randomSuffix`), so planners stay pure.
 */

/** The API server keeps at most this much of a `generateName` before its 5 random characters (63 - 5). */
export const MAX_GENERATED_BASE = 58;

/**
 * `generateName` as the API server would complete it.
 * @param generateName the prefix, e.g. `web-`
 * @param suffix the random part, 5 characters of lib/api/keys.ts `SAFE_ALPHABET`
 * @returns e.g. `web-x2b4z`
 */
export function generatedName(generateName: string, suffix: string): string {
  return `${generateName.slice(0, MAX_GENERATED_BASE)}${suffix}`;
}
