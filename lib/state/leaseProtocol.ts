/**
 * The lease protocol shared by every lease of the state layer — the per-object reconcile lease and the watch
 * pump's per-stream checkpoint lease — and by both adapters (docs/architecture.md#lease):
 * - a lease is free when never taken, released (`expiresAt` = {@link RELEASED_AT}) or expired (`expiresAt <= now`);
 * - taking it (free, or already ours) adds 1 to its fencing token;
 * - only the holder with the current token may renew, save under, or release it.
 */

/** `expiresAt` of a released lease: free for anyone, and distinguishable from an expired one. */
export const RELEASED_AT = 0;

/**
 * Checks the caller-supplied timing of a lease operation.
 * @param durationMs lease length, ms, > 0
 * @param nowMs the caller's clock, epoch ms, > 0
 * @throws RangeError naming `operation` when either is out of range
 */
export function checkLeaseTiming(operation: string, durationMs: number, nowMs: number): void {
  if (!Number.isFinite(durationMs) || durationMs <= 0)
    throw new RangeError(`${operation}: durationMs must be a positive number of ms, got ${durationMs}`);
  if (!Number.isFinite(nowMs) || nowMs <= RELEASED_AT)
    throw new RangeError(`${operation}: nowMs must be a positive epoch ms, got ${nowMs}`);
}

/**
 * Checks the failure count a release stores (docs/reliability.md#backoff).
 * @throws RangeError naming `operation` unless it is an integer ≥ 0
 */
export function checkFailures(operation: string, failures: number): void {
  if (!Number.isInteger(failures) || failures < 0)
    throw new RangeError(`${operation}: failures must be an integer ≥ 0, got ${failures}`);
}
