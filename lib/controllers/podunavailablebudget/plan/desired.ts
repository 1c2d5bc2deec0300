/**
 * OpenKruise: pkg/controller/podunavailablebudget/podunavailablebudget_controller.go `getDesiredAvailableForPub`
 * (v1.9.0), over apimachinery's `intstr.GetScaledValueFromIntOrPercent` (rounding up).
 *
 * How many pods must stay available: `maxUnavailable` wins (expected minus it, at least 0); else `minAvailable` (an
 * int as is, even above the expected count; a percentage of it); else 0.
 */
import { IntOrPercentError } from '../../../api/intOrPercent.js';
import type { IntOrString } from '../../../api/types.js';
import type { PodUnavailableBudgetSpec } from '../api/types.js';

/**
 * apimachinery's `GetScaledValueFromIntOrPercent` with `roundUp`: an int is itself; a string must be an integer
 * followed by `%` (no fractions, unlike lib/api/intOrPercent.ts's webhook helper), its share of `total` rounded up.
 * @throws IntOrPercentError with apimachinery's message otherwise
 */
export function scaledValueRoundUp(value: IntOrString, total: number): number {
  if (typeof value === 'number') return value;
  if (!value.endsWith('%'))
    throw new IntOrPercentError('invalid value for IntOrString: invalid type: string is not a percentage');
  const body = value.slice(0, -1);
  if (!/^[+-]?\d+$/.test(body))
    throw new IntOrPercentError(
      `invalid value for IntOrString: invalid value "${value}": strconv.Atoi: parsing "${body}": invalid syntax`,
    );
  return Math.ceil((parseInt(body, 10) * total) / 100);
}

/**
 * @param spec the PUB's spec
 * @param expectedCount the expected replicas (`status.totalReplicas`)
 * @returns the desired available pods
 * @throws IntOrPercentError for a string that is not an integer percentage (see {@link scaledValueRoundUp})
 */
export function desiredAvailable(spec: PodUnavailableBudgetSpec, expectedCount: number): number {
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    return Math.max(0, expectedCount - scaledValueRoundUp(spec.maxUnavailable, expectedCount));
  }
  if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
    return scaledValueRoundUp(spec.minAvailable, expectedCount);
  }
  return 0;
}
