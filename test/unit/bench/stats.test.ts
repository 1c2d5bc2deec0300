/** Percentiles, ratios and the summary line of `npm run bench`. */
import { median, percentile, ratio, summaryLine } from '../../../bench/support/stats.js';
import { parsePlannerOutput } from '../../../bench/scenarios/planner.js';

describe('percentile (nearest rank)', () => {
  const xs = [0.9, 0.3, 0.5, 0.7, 0.1, 1.1, 0.2, 0.4, 0.6, 0.8];
  test('p50 and p99 of ten samples', () => {
    expect(percentile(xs, 50)).toBe(0.5);
    expect(percentile(xs, 99)).toBe(1.1);
    expect(percentile(xs, 10)).toBe(0.1);
    expect(median([3, 1, 2])).toBe(2);
  });
  test('no samples is NaN; the input is not reordered', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(xs[0]).toBe(0.9);
  });
});

describe('ratio', () => {
  test('ours ÷ reference to 2 decimals', () => {
    expect(ratio(21.8, 18.7)).toBe(1.17);
    expect(ratio(9.4, 18.8)).toBe(0.5);
  });
  test('NaN when a side is missing or the reference is 0', () => {
    expect(ratio(undefined, 3)).toBeNaN();
    expect(ratio(3, undefined)).toBeNaN();
    expect(ratio(3, 0)).toBeNaN();
  });
});

describe('summaryLine', () => {
  test('the exact last line', () => {
    expect(
      summaryLine({
        scaleUpVsOpenKruise: 1.16,
        scaleUpVsDeployment: 2.3,
        rolloutVsOpenKruise: 1.05,
        noopReads: 3,
        noopWrites: 0,
      }),
    ).toBe(
      'bench: scale-up 1.16x OpenKruise 2.30x Deployment; rollout 1.05x OpenKruise; noop reads 3 writes 0',
    );
  });
  test('a no-op part that did not run prints n/a, not NaN', () => {
    expect(
      summaryLine({
        scaleUpVsOpenKruise: 0.26,
        scaleUpVsDeployment: 0.54,
        rolloutVsOpenKruise: 0.24,
        noopReads: NaN,
        noopWrites: NaN,
      }),
    ).toBe(
      'bench: scale-up 0.26x OpenKruise 0.54x Deployment; rollout 0.24x OpenKruise; noop reads n/a writes n/a',
    );
  });
  test('a missing ratio prints n/a', () => {
    expect(
      summaryLine({
        scaleUpVsOpenKruise: NaN,
        scaleUpVsDeployment: 0.5,
        rolloutVsOpenKruise: NaN,
        noopReads: 3,
        noopWrites: 0,
      }),
    ).toBe(
      'bench: scale-up n/ax OpenKruise 0.50x Deployment; rollout n/ax OpenKruise; noop reads 3 writes 0',
    );
  });
});

describe('parsePlannerOutput', () => {
  test('the lines plan.bench.ts printed in a run on this machine', () => {
    const text = [
      'pods=1000 plan=2.52 ms (median of 50) reference JSON round trip=8.08 ms ratio=0.31x phase=Update actions=12',
      'some other line',
      'pods=10000 plan=23.63 ms (median of 15) reference JSON round trip=97.30 ms ratio=0.24x phase=Update actions=101',
    ].join('\n');
    expect(parsePlannerOutput(text)).toEqual([
      { pods: 1000, planMs: 2.52, jsonRoundTripMs: 8.08 },
      { pods: 10000, planMs: 23.63, jsonRoundTripMs: 97.3 },
    ]);
  });
});
