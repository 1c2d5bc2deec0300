/**
 * The retry schedule of an object whose writes keep failing (docs/reliability.md#backoff): per-item exponential
 * backoff as client-go's `workqueue.ItemExponentialFailureRateLimiter.When`, which OpenKruise's CloneSet controller
 * uses through `workqueue.DefaultControllerRateLimiter`. The failure count it is computed from is kept on the
 * CloneSet's lease item (lib/state), so it survives between stateless invocations.
 */
import { exponentialDelay } from '../core/backoff.js';

/** The two numbers of the schedule, seconds. */
export interface BackoffSettings {
  /** Delay after the first failure, seconds, > 0. */
  baseSeconds: number;
  /** Longest delay, seconds, ≥ `baseSeconds`. */
  maxSeconds: number;
}

/**
 * Kruiseless's defaults: 1 s doubling up to 1000 s. Upstream's cap (1000 s) is kept; its base (5 ms) is raised to
 * 1 s because each retry here is an invocation (and EventBridge Scheduler fires at minute precision anyway), so
 * sub-second retries would only add failed writes.
 */
export const DEFAULT_BACKOFF: Readonly<BackoffSettings> = { baseSeconds: 1, maxSeconds: 1000 };

/**
 * The delay before the next attempt after `failures` consecutive failed passes: `base × 2^(failures − 1)`, at most
 * `max`; 0 when `failures` is 0 (nothing failed) — lib/core/backoff.ts `exponentialDelay`.
 * @param failures consecutive failed passes, an integer ≥ 0
 * @returns seconds
 * @throws RangeError when `failures` is negative or not an integer
 */
export function backoffSeconds(failures: number, settings: Readonly<BackoffSettings>): number {
  return exponentialDelay(failures, settings.baseSeconds, settings.maxSeconds);
}

/**
 * Checks a schedule read from configuration.
 * @throws RangeError naming the bad number: base not a finite number > 0, or max below base
 */
export function checkBackoff(settings: Readonly<BackoffSettings>): void {
  const { baseSeconds, maxSeconds } = settings;
  if (!Number.isFinite(baseSeconds) || baseSeconds <= 0)
    throw new RangeError(`backoff base must be a number of seconds > 0, got ${baseSeconds}`);
  if (!Number.isFinite(maxSeconds) || maxSeconds < baseSeconds)
    throw new RangeError(
      `backoff max must be a number of seconds ≥ the base (${baseSeconds}), got ${maxSeconds}`,
    );
}
