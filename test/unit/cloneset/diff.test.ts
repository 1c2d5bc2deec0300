/**
 * The diff record of spec §3.5 against the 80 steps of spec §5 items 1–26 (OpenKruise's
 * `TestCalculateDiffsWithExpectation`): the whole record is compared, zero fields included.
 */
import { calculateDiff, emptyDiff, scalePhaseIsUpdated } from '../../../lib/cloneset/sync/diff.js';
import { DIFF_SCENARIOS, scenarioContext } from '../support/diffScenarios.js';

describe('calculateDiff (spec §3.5, scenarios 1–26)', () => {
  it.each(DIFF_SCENARIOS.map((s, i) => [`${i}: ${s.name}`, s] as const))('%s', (_name, s) => {
    const ctx = scenarioContext(s);
    expect(calculateDiff(ctx, scalePhaseIsUpdated(ctx))).toEqual({ ...emptyDiff(), ...s.diff });
  });
});
