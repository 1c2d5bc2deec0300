/**
 * A deadline as an AbortSignal: what a scheduled handler hands to the work it starts (a watch, a page of a list, the
 * next cluster of a resync) so that the work ends when the invocation's time budget does, not when Lambda kills it
 * (review findings 8 and 9, docs/reliability.md#time-budgets).
 */
import type { Clock } from './clock.js';

/** An AbortSignal that aborts at a deadline or when its parent does; {@link Deadline.dispose} drops its timer. */
export interface Deadline {
  /** Aborted at `deadlineMs` (by `clock`), or as soon as the parent signal aborts. */
  signal: AbortSignal;
  /** Clears the timer and the parent listener (the signal is left as it is). */
  dispose(): void;
}

/**
 * A signal that aborts at `deadlineMs` or with `parent`. The timer is a `setTimeout` of (`deadlineMs` − `clock()`),
 * so a fake clock must be driven with the timers (jest's fake timers drive both).
 * @param deadlineMs epoch ms; at or before `clock()` the signal is aborted at once
 * @param parent e.g. the embedded default's stop
 */
export function deadlineSignal(clock: Clock, deadlineMs: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  const left = deadlineMs - clock();
  const timer = left > 0 ? setTimeout(abort, left) : undefined;
  if (timer === undefined) abort();
  if (parent?.aborted) abort();
  parent?.addEventListener('abort', abort, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', abort);
    },
  };
}

/**
 * Waits `ms` milliseconds, or less when `signal` aborts first.
 * @returns true when the full time passed, false when `signal` ended the wait (never rejects)
 */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  // the global setTimeout (not node:timers/promises), so that fake timers drive it like the deadline's own timer
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
