/** The soak's arithmetic (scripts/soak/stats.ts): nearest-rank percentiles, the longest watch gap, the summary line. */
import { describe, expect, it } from '@jest/globals';
import {
  longestGap,
  percentile,
  progressLine,
  soakExitCode,
  summaryLine,
} from '../../../scripts/soak/stats.js';

describe('percentile (nearest rank)', () => {
  const ten = [10, 1, 9, 2, 8, 3, 7, 4, 6, 5];

  it('p50 of 1…10 is 5 and p99 is 10, whatever the order', () => {
    expect(percentile(ten, 50)).toBe(5);
    expect(percentile(ten, 90)).toBe(9);
    expect(percentile(ten, 99)).toBe(10);
    expect(percentile(ten, 100)).toBe(10);
    expect(percentile(ten, 1)).toBe(1);
  });

  it('p99 of 200 values is the 198th smallest, so two outliers show', () => {
    const values = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(percentile(values, 99)).toBe(198);
  });

  it('is undefined for no values and refuses p outside (0, 100]', () => {
    expect(percentile([], 50)).toBeUndefined();
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow('percentile 101 is not in (0, 100]');
  });

  it('leaves its input unsorted', () => {
    const values = [3, 1, 2];
    percentile(values, 50);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('longestGap', () => {
  it('is the whole range when no watch was open', () => {
    expect(longestGap([], 1000, 5000)).toBe(4000);
  });

  it('counts overlapping watches (a handover) as one: no gap', () => {
    expect(
      longestGap(
        [
          { from: 0, to: 62_000 },
          { from: 60_000, to: 122_000 },
        ],
        0,
        120_000,
      ),
    ).toBe(0);
  });

  it('finds the gap between one run and the next, and the ones at the edges', () => {
    const runs = [
      { from: 60_300, to: 122_000 },
      { from: 0, to: 62_000 },
      { from: 122_400, to: 184_000 },
    ];
    expect(longestGap(runs, 0, 184_000)).toBe(400);
    expect(longestGap(runs, 0, 190_000)).toBe(6000);
    expect(longestGap([{ from: 5000, to: 9000 }], 0, 10_000)).toBe(5000);
  });

  it('clips intervals to the range and ignores those outside it', () => {
    expect(
      longestGap(
        [
          { from: -50, to: 10 },
          { from: 90, to: 500 },
          { from: 900, to: 950 },
        ],
        0,
        100,
      ),
    ).toBe(80);
  });

  it('a watch inside a longer one does not end the coverage early', () => {
    expect(
      longestGap(
        [
          { from: 0, to: 100 },
          { from: 10, to: 20 },
          { from: 130, to: 200 },
        ],
        0,
        200,
      ),
    ).toBe(30);
  });
});

describe('summaryLine', () => {
  it('prints the figures in the form issue 18 asks for', () => {
    expect(
      summaryLine({
        minutes: 30.02,
        edits: 361,
        reactionsMs: [1200, 800, 2500, 1900, 10_400],
        watchGapMaxMs: 612,
        deadLetters: 0,
        converged: 4,
        clonesets: 4,
      }),
    ).toBe(
      'soak: 30 min, 361 edits, reaction p50 1.9 s p99 10.4 s max 10.4 s, watch gap max 0.6 s, dlq 0, converged 4/4',
    );
  });

  it('prints - for reactions when none was measured', () => {
    expect(
      summaryLine({
        minutes: 2,
        edits: 0,
        reactionsMs: [],
        watchGapMaxMs: 0,
        deadLetters: 1,
        converged: 3,
        clonesets: 4,
      }),
    ).toBe(
      'soak: 2 min, 0 edits, reaction p50 - s p99 - s max - s, watch gap max 0.0 s, dlq 1, converged 3/4',
    );
  });
});

describe('soakExitCode', () => {
  it('is 1 for a dead letter or a CloneSet not converged, else 0 (the p99 is not asserted)', () => {
    expect(soakExitCode({ deadLetters: 0, converged: 4, clonesets: 4 })).toBe(0);
    expect(soakExitCode({ deadLetters: 1, converged: 4, clonesets: 4 })).toBe(1);
    expect(soakExitCode({ deadLetters: 0, converged: 3, clonesets: 4 })).toBe(1);
  });
});

describe('progressLine', () => {
  it('shows the percentage, the elapsed minutes and the ETA in UTC', () => {
    const now = Date.parse('2026-12-01T21:00:00Z');
    expect(progressLine(15 * 60_000, 30 * 60_000, now, '120 edits')).toBe(
      'soak: 50 % (15.0 of 30 min), ETA 21:15:00 UTC, 120 edits',
    );
    expect(progressLine(31 * 60_000, 30 * 60_000, now, 'x')).toBe(
      'soak: 100 % (31.0 of 30 min), ETA 21:00:00 UTC, x',
    );
  });
});
