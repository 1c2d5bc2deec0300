/**
 * The one exponential-backoff rule of Kruiseless: the delay doubles with each consecutive failure from a base, up
 * to a cap — as client-go's `workqueue.ItemExponentialFailureRateLimiter.When`. Used by the CloneSet retry schedule
 * (lib/reconcile/backoff.ts), the event publisher's resends (lib/requests/publisher.ts, with full jitter on top) and
 * the embedded watch pump's restarts (lib/local/embedded.ts). Unit-free: the result is in the unit of `base`.
 */

/**
 * The delay after `failures` consecutive failures: `base × 2^(failures − 1)`, at most `max`; 0 when `failures` is 0.
 * @param failures consecutive failures, an integer ≥ 0
 * @param base delay after the first failure (> 0), in any unit
 * @param max longest delay, same unit
 * @returns the delay, in the unit of `base`
 * @throws RangeError when `failures` is negative or not an integer
 */
export function exponentialDelay(failures: number, base: number, max: number): number {
  if (!Number.isInteger(failures) || failures < 0)
    throw new RangeError(`failures must be an integer ≥ 0, got ${failures}`);
  if (failures === 0) return 0;
  // 2^n overflows to Infinity long after the cap is reached, and Math.min handles Infinity
  return Math.min(base * 2 ** (failures - 1), max);
}
