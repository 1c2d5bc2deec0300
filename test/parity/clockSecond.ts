/**
 * The `clockSecond` step: wait until the wall clock's second within its minute lies in a window. A scenario on an
 * every-minute schedule creates its object inside the window so that its ticks fall where its sleeps expect them,
 * whatever second the run reaches the step at. Created a few seconds before a minute, the first tick can come before
 * one side's first pass (on a loaded machine, or while a `kruiseless local` just started opens its watches), and that pass both
 * writes the status and makes the Job: the status write brings another pass, which lists the Job, where the side
 * that wrote its status before the tick shows none until the next one (docs/parity.md#advancedcronjob).
 */

/** A window of seconds within a minute: `from` (inclusive, 0–59) to `before` (exclusive, 1–60, above `from`). */
export interface ClockSecondWindow {
  from: number;
  before: number;
}

/**
 * Milliseconds to wait from `nowMs` (epoch ms) until the clock's second within the minute is in `window`: 0 when it
 * already is, else until the next minute's `from` (or this minute's, when `from` is still ahead).
 */
export function msUntilClockSecond(nowMs: number, window: ClockSecondWindow): number {
  const intoMinute = nowMs % 60_000;
  const fromMs = window.from * 1000;
  if (intoMinute >= fromMs && intoMinute < window.before * 1000) return 0;
  return intoMinute < fromMs ? fromMs - intoMinute : 60_000 - intoMinute + fromMs;
}
