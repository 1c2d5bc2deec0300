/**
 * The three int-or-percent evaluators of docs/behaviour/cloneset.md#int-or-percent. OpenKruise keeps them
 * separate and they disagree on purpose (e.g. `"5"` is an error for the first two and 5 % for the legacy
 * one), so they stay separate here.
 */
import type { IntOrString } from './types.js';
import { KruiselessError } from '../core/errors.js';

/** Rounding direction for a percentage of a total. */
export type Rounding = 'up' | 'down';

/** Thrown when an int-or-percent value cannot be evaluated. */
export class IntOrPercentError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'IntOrPercentError';
  }
}

function roundPercent(percent: number, total: number, rounding: Rounding): number {
  // multiply first, then divide by 100, in IEEE double precision (spec conventions)
  const exact = (percent * total) / 100;
  return rounding === 'up' ? Math.ceil(exact) : Math.floor(exact);
}

/**
 * The webhook's validation helper (docs/behaviour/cloneset.md#int-or-percent): an integer is itself; a string
 * must end with `%` and its number (fractions allowed, e.g. `"10.5%"`) is taken as a percentage of `total`.
 * @param value an int-or-percent value
 * @param total the count a percentage refers to (pods)
 * @param rounding `up` = ceil, `down` = floor
 * @returns a pod count (may be negative or exceed `total`; callers validate)
 * @throws IntOrPercentError for strings without `%` or with an unparsable number
 */
export function scaledValueFromIntOrPercent(value: IntOrString, total: number, rounding: Rounding): number {
  if (typeof value === 'number') return value;
  if (!value.endsWith('%')) {
    throw new IntOrPercentError(`invalid value for IntOrString: invalid type: string is not a percentage`);
  }
  const body = value.slice(0, -1);
  const percent = Number(body);
  if (body.trim() === '' || !Number.isFinite(percent)) {
    throw new IntOrPercentError(`invalid value "${value}": must be an integer or a percentage such as "20%"`);
  }
  return roundPercent(percent, total, rounding);
}

/**
 * The controller's partition helper, `CalculatePartitionReplicas`
 * (docs/behaviour/cloneset.md#int-or-percent): absent → 0; otherwise the validation helper rounding up
 * against `replicas`; a percentage other than exactly `"100%"` that yields all replicas (with replicas > 1)
 * leaves one pod to update; the result is clamped to `[0, replicas]`.
 * @param partition `updateStrategy.partition`
 * @param replicas `spec.replicas` (1 when absent)
 * @returns the number of pods kept at the current revision
 * @throws IntOrPercentError for an invalid string (callers treat partition as 0 then)
 */
export function calculatePartitionReplicas(
  partition: IntOrString | undefined,
  replicas: number | undefined,
): number {
  if (partition === undefined || partition === null) return 0;
  const r = replicas ?? 1;
  let p = scaledValueFromIntOrPercent(partition, r, 'up');
  if (r > 1 && p === r && typeof partition === 'string' && partition !== '100%') p = r - 1;
  return Math.min(Math.max(p, 0), r);
}

/**
 * The legacy helper used for update maxUnavailable, maxSurge and scaleStrategy.maxUnavailable
 * (docs/behaviour/cloneset.md#int-or-percent): an integer is itself; for a string every `%` is removed and
 * the rest parsed as an integer percentage, so `"5"` means 5 % and `"10.5%"` fails. Errors yield 0 (upstream
 * ignores them).
 * @param value int-or-percent, or undefined (→ 0)
 * @param total the count a percentage refers to (pods)
 * @param rounding `up` = ceil, `down` = floor
 * @returns a pod count
 */
export function legacyScaledValue(value: IntOrString | undefined, total: number, rounding: Rounding): number {
  if (value === undefined || value === null) return 0;
  return legacyScaledValueOrUndefined(value, total, rounding) ?? 0;
}

/**
 * apimachinery's deprecated `intstr.GetValueFromIntOrPercent`, the reading behind {@link legacyScaledValue}, with
 * its error kept: undefined where it errs (a string whose `%`-stripped rest is not an integer). BroadcastJob's
 * `parallelism` creates no pod then.
 * @param value int-or-percent
 * @param total the count a percentage refers to
 * @returns a count, or undefined
 */
export function legacyScaledValueOrUndefined(
  value: IntOrString,
  total: number,
  rounding: Rounding,
): number | undefined {
  if (typeof value === 'number') return value;
  const body = value.replace(/%/g, '');
  if (!/^[+-]?\d+$/.test(body)) return undefined;
  return roundPercent(parseInt(body, 10), total, rounding);
}
