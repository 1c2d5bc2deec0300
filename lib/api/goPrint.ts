/**
 * Go's `%#v` forms of the few Kubernetes values `field.Invalid` prints in validation messages (apimachinery
 * `field.Error.ErrorBody` falls back to `%#v` for a struct without a value `String` method): a string map and a
 * `metav1.LabelSelector`. Map keys are sorted, as `fmt` prints them; `nil` maps and slices print as `T(nil)`.
 */
import type { LabelSelector } from './types.js';

const q = (s: string): string => JSON.stringify(s);

/** `%#v` of a `map[string]string`: `map[string]string{"a":"b", "c":"d"}`, or `map[string]string(nil)` when absent. */
export function goStringMap(m: Record<string, string> | undefined): string {
  if (m === undefined || m === null) return 'map[string]string(nil)';
  const keys = Object.keys(m).sort();
  return `map[string]string{${keys.map((k) => `${q(k)}:${q(String(m[k]))}`).join(', ')}}`;
}

/** `%#v` of a `[]string`. */
function goStrings(v: string[] | undefined): string {
  return v === undefined || v === null ? '[]string(nil)' : `[]string{${v.map(q).join(', ')}}`;
}

/**
 * `%#v` of a `metav1.LabelSelector` value, e.g.
 * `v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}`.
 */
export function goLabelSelector(sel: LabelSelector): string {
  const exprs = sel.matchExpressions;
  const reqs =
    exprs === undefined || exprs === null
      ? '[]v1.LabelSelectorRequirement(nil)'
      : `[]v1.LabelSelectorRequirement{${exprs
          .map(
            (r) =>
              `v1.LabelSelectorRequirement{Key:${q(r.key ?? '')}, Operator:${q(r.operator ?? '')}, Values:${goStrings(r.values)}}`,
          )
          .join(', ')}}`;
  return `v1.LabelSelector{MatchLabels:${goStringMap(sel.matchLabels)}, MatchExpressions:${reqs}}`;
}
