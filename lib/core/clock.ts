/**
 * The one clock type: every component that reads time takes a {@link Clock}, so tests can drive time.
 */

/** Wall-clock time in epoch milliseconds (like `Date.now`). */
export type Clock = () => number;

/** The system clock. */
export const systemClock: Clock = () => Date.now();
