/**
 * The diff record of docs/behaviour/cloneset.md#diff against the 80 steps of scenarios 1–26
 * (docs/behaviour/scenarios.md) (OpenKruise's `TestCalculateDiffsWithExpectation`): the whole record is
 * compared, zero fields included.
 */
import {
  calculateDiff,
  emptyDiff,
  scalePhaseIsUpdated,
} from '../../../../../lib/controllers/cloneset/plan/sync/diff.js';
import { DIFF_SCENARIOS, scenarioContext } from '../../../support/diffScenarios.js';

describe('calculateDiff (docs/behaviour/cloneset.md#diff, scenarios 1–26)', () => {
  it.each(DIFF_SCENARIOS.map((s, i) => [`${i}: ${s.name}`, s] as const))('%s', (_name, s) => {
    const ctx = scenarioContext(s);
    expect(calculateDiff(ctx, scalePhaseIsUpdated(ctx))).toEqual({ ...emptyDiff(), ...s.diff });
  });
});
