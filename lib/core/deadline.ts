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
 * Runs `fn` once after `ms` milliseconds, never before it has returned; the function it returns cancels it (a no-op
 * once `fn` ran). A seam for the waits of work that reads its time from a {@link Clock}: {@link realTimer} in
 * production; a simulation that moves its clock itself runs them on it.
 */
export type Timer = (fn: () => void, ms: number) => () => void;

/**
 * The global `setTimeout` as a {@link Timer}, looked up at each call (not node:timers/promises), so that jest's fake
 * timers drive it like the deadline's own timer.
 */
export const realTimer: Timer = (fn, ms) => {
  const t = setTimeout(fn, ms);
  return () => clearTimeout(t);
};

/**
 * Waits `ms` milliseconds, or less when `signal` aborts first.
 * @param timer what waits (default {@link realTimer})
 * @returns true when the full time passed, false when `signal` ended the wait (never rejects)
 */
export function sleepUnlessAborted(
  ms: number,
  signal: AbortSignal,
  timer: Timer = realTimer,
): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      cancel();
      resolve(false);
    };
    const cancel = timer(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
