/**
 * test/parity/clockSecond.ts and its use: the wait until the clock's second is in a window, and every
 * AdvancedCronJob scenario that sets a minute schedule waits for one first (in CI's quick run of 2026-12-06,
 * `acj-next-minute`'s status showed its Job on Kruiseless and not on OpenKruise: a first pass after the tick writes
 * the status and the Job together, and the status write brings a pass that lists the Job).
 */
import { describe, expect, it } from '@jest/globals';
import { msUntilClockSecond } from '../../parity/clockSecond.js';
import { advancedCronJob } from '../../parity/kinds/advancedcronjob/index.js';
import { loadScenarios, StepSchema } from '../../parity/scenario.js';

const at = (minute: number, second: number, ms = 0) => Date.UTC(2026, 11, 6, 12, minute, second, ms);
const window = { from: 3, before: 45 };

describe('msUntilClockSecond', () => {
  it('waits not at all inside the window, its first millisecond included', () => {
    expect(msUntilClockSecond(at(5, 3), window)).toBe(0);
    expect(msUntilClockSecond(at(5, 44, 999), window)).toBe(0);
  });

  it('waits for this minute’s start of the window when it is still ahead', () => {
    expect(msUntilClockSecond(at(5, 0), window)).toBe(3000);
    expect(msUntilClockSecond(at(5, 2, 500), window)).toBe(500);
  });

  it('waits for the next minute’s start of the window from its end on', () => {
    expect(msUntilClockSecond(at(5, 45), window)).toBe(18_000);
    expect(msUntilClockSecond(at(5, 59, 900), window)).toBe(3100);
  });

  it('a step with from not below before is refused', () => {
    expect(StepSchema.safeParse({ clockSecond: { from: 50, before: 50 } }).success).toBe(false);
    expect(StepSchema.safeParse({ clockSecond: { from: 3, before: 61 } }).success).toBe(false);
    expect(StepSchema.safeParse({ clockSecond: window }).success).toBe(true);
  });
});

describe('AdvancedCronJob scenarios on a minute schedule', () => {
  /** The schedule a create or patch step sets, if any. */
  const scheduleSet = (step: Record<string, unknown>): string | undefined => {
    const body = (step.create ?? step.patch) as { spec?: { schedule?: unknown } } | undefined;
    return typeof body?.spec?.schedule === 'string' ? body.spec.schedule : undefined;
  };

  it('wait for a clock second inside the minute just before the step that sets the schedule', () => {
    const unaligned: string[] = [];
    let minuteSchedules = 0;
    for (const scenario of loadScenarios(advancedCronJob)) {
      scenario.steps.forEach((step, i) => {
        const schedule = scheduleSet(step);
        // five fields whose first (the minute) fires every minute: `*` or `*/1`
        if (schedule === undefined || !/^\*(\/1)?( \S+){4}$/.test(schedule)) return;
        minuteSchedules++;
        const before = scenario.steps[i - 1];
        if (!before || !('clockSecond' in before)) unaligned.push(`${scenario.name} step ${i}`);
      });
    }
    expect(minuteSchedules).toBeGreaterThanOrEqual(13);
    expect(unaligned).toEqual([]);
  });
});
