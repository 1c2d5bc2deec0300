/**
 * Whether two label selectors can select the same object, by OpenKruise's approximation (`IsSelectorOverlapping` in
 * `pkg/util/selector.go`): they overlap unless one of them is found disjoint from the other by the rules below.
 * Used by the SidecarSet validation to find the SidecarSets that may inject into the same pods.
 */
import type { LabelSelector } from './types.js';

const ALL = 'ALL';

/**
 * The values each key of `a` allows: a matchLabels entry allows its value, `In` adds its values, `Exists` allows
 * every value (written as the single value `ALL`, as upstream does, so a real value `ALL` is read as "every value"
 * too). `NotIn` and `DoesNotExist` restrict nothing here.
 */
function allowedValues(a: LabelSelector): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of Object.entries(a.matchLabels ?? {})) out.set(k, [v]);
  for (const r of a.matchExpressions ?? []) {
    // an `In` without values names no key (upstream appends value by value)
    if (r.operator === 'In') for (const v of r.values ?? []) out.set(r.key, [...(out.get(r.key) ?? []), v]);
    else if (r.operator === 'Exists') out.set(r.key, [ALL]);
  }
  return out;
}

/**
 * Upstream `isDisjoint(a, b)`: true when a term of `b` cannot hold together with the keys `a` constrains — a
 * matchLabels value or `In` set outside what `a` allows for the key, a `NotIn` covering all `a` allows, `Exists` on a
 * key `a` does not name, `DoesNotExist` on one it does.
 */
function isDisjoint(a: LabelSelector, b: LabelSelector): boolean {
  const allowed = allowedValues(a);
  for (const [k, v] of Object.entries(b.matchLabels ?? {})) {
    const values = allowed.get(k);
    if (values && !values.includes(ALL) && !values.includes(v)) return true;
  }
  for (const r of b.matchExpressions ?? []) {
    const values = allowed.get(r.key);
    const reqValues = r.values ?? [];
    switch (r.operator) {
      case 'In':
        if (values && !values.includes(ALL) && !values.some((v) => reqValues.includes(v))) return true;
        break;
      case 'NotIn':
        if (values && values.every((v) => reqValues.includes(v))) return true;
        break;
      case 'Exists':
        if (!values) return true;
        break;
      case 'DoesNotExist':
        if (values) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

/**
 * OpenKruise's `IsSelectorOverlapping`: false when either selector is disjoint from the other, true otherwise. An
 * absent selector is read as empty (overlapping everything); upstream never passes one.
 */
export function isSelectorOverlapping(a: LabelSelector | undefined, b: LabelSelector | undefined): boolean {
  const x = a ?? {};
  const y = b ?? {};
  return !(isDisjoint(x, y) || isDisjoint(y, x));
}
