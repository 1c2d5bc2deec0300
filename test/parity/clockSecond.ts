/**
 * The `clockSecond` step: wait until the wall clock's second within its minute lies in a window. A scenario on an
 * every-minute schedule creates its object inside the window so that its ticks fall where its sleeps expect them,
 * whatever second the run reaches the step at: created in a minute's last second, the first tick comes before the
 * slower side's first pass (Kruiseless's local event pump polls every second) and that pass both writes the status and
 * makes the Job, where OpenKruise wrote the status a tick earlier (docs/parity.md#advancedcronjob).
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
