/**
 * The verdict on one faulted run against the fault-free run of the same scenario (docs/reliability.md#fault-front):
 * the promise's invariants over the whole run, and whether the end state is the baseline's.
 */
import { compareRuns, type Difference } from '../parity/compare.js';
import type { ScenarioRun } from '../parity/run.js';
import type { Observed } from './observer.js';

/** One run as the verdict reads it. */
export interface RunRecord {
  run: ScenarioRun;
  observed: Observed;
  /** Leases of the run's objects still held once it settled (`<pk> holder <holder>`), excused ones left out. */
  leasesHeld: string[];
}

/** A broken promise. */
export interface Violation {
  /** Which promise (the words). */
  invariant: 'extra pod' | 'wrongly deleted pod' | 'stuck object' | 'lease held' | 'failed step';
  detail: string;
}

/** The verdict. */
export interface FaultVerdict {
  violations: Violation[];
  /** Same checkpoints as the baseline (timeline peaks aside: they are invariants). */
  converged: boolean;
  /** The end-state differences from the baseline (empty when converged). */
  differences: Difference[];
}

/** The sampled peaks are checked as invariants, not compared: a fault may lower them legitimately. */
const TIMELINE = {
  path: '*.timeline',
  reason: 'peaks are checked as invariants (no extra pod), not compared',
};

/**
 * Judges `faulted` against `baseline`:
 * - extra pod: more live pods at once than the baseline had, over the whole run or between two checkpoints;
 * - wrongly deleted pod: more pods created than the baseline created (a pod deleted that the plan did not choose is
 *   replaced by a new one; an extra pod created and deleted again counts here too);
 * - stuck object: a checkpoint that did not settle in the scenario's time while the baseline's did;
 * - failed step: the faulted run stopped at a step the baseline passed (nothing of the harness is faulted, so the
 *   object was not where the step expected it);
 * - lease held: a lease of the run still held after it settled (a kill's lease, until it runs out, is excused by
 *   the caller).
 */
export function judge(baseline: RunRecord, faulted: RunRecord): FaultVerdict {
  const violations: Violation[] = [];
  if (faulted.observed.maxLive > baseline.observed.maxLive)
    violations.push({
      invariant: 'extra pod',
      detail: `${faulted.observed.maxLive} live pods at once, the fault-free run ${baseline.observed.maxLive}`,
    });
  for (const [name, cp] of Object.entries(faulted.run.checkpoints)) {
    const base = baseline.run.checkpoints[name];
    if (!base) continue;
    if (cp.timeline.maxPods > base.timeline.maxPods)
      violations.push({
        invariant: 'extra pod',
        detail: `before checkpoint ${name}: ${cp.timeline.maxPods} live pods at once, the fault-free run ${base.timeline.maxPods}`,
      });
    if (!cp.settled && base.settled)
      violations.push({ invariant: 'stuck object', detail: `checkpoint ${name} did not settle` });
  }
  if (faulted.observed.podsCreated > baseline.observed.podsCreated)
    violations.push({
      invariant: 'wrongly deleted pod',
      detail: `${faulted.observed.podsCreated} pods created, the fault-free run ${baseline.observed.podsCreated}`,
    });
  if (faulted.run.error && !baseline.run.error)
    violations.push({ invariant: 'failed step', detail: faulted.run.error });
  for (const l of faulted.leasesHeld) violations.push({ invariant: 'lease held', detail: l });
  const verdict = compareRuns('', baseline.run, faulted.run, [TIMELINE]);
  const differences = verdict.differences.filter((d) => !d.deliberate);
  return { violations, converged: differences.length === 0, differences };
}
