/**
 * The "only these spec fields may change" rule of OpenKruise's update webhooks (DaemonSet's
 * `validateDaemonSetUpdateV1beta1`, AdvancedCronJob's `validateAdvancedCronJobUpdate`, StatefulSet's
 * `ValidateStatefulSetUpdate`): the new spec with every
 * mutable field put back to its old value must equal the old spec (`apiequality.Semantic.DeepEqual`; here deep JSON
 * equality of the defaulted objects).
 */
import { isDeepStrictEqual } from 'node:util';

/** Whether a spec field outside `mutable` differs between `spec` and `old` (both JSON objects; absent → `{}`). */
export function frozenFieldsChanged(
  spec: object | undefined,
  old: object | undefined,
  mutable: readonly string[],
): boolean {
  const rest = (s: object | undefined): Record<string, unknown> => {
    const copy: Record<string, unknown> = { ...(s ?? {}) };
    for (const k of mutable) delete copy[k];
    for (const [k, v] of Object.entries(copy)) if (v === undefined) delete copy[k];
    return copy;
  };
  return !isDeepStrictEqual(rest(spec), rest(old));
}
