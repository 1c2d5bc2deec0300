/**
 * Known defects of the event path (./eventPath.ts `EventMutantKind`) that only the event loop can catch: the
 * reconcile-only loop has no pump and no resync. Each is run on seeded scenarios with the event path on until a check
 * catches it — a violation, a divergence from the fault-free twin, or no convergence — on a scenario where the
 * unmutated code is clean (as ./mutantRun.ts counts catches). Test-only; `npm run test:chaos -- --mutants --events`
 * and the unit suite run them.
 */
import fc from 'fast-check';
import type { EventMutantKind } from './eventPath.js';
import type { MutantVerdict } from './mutantRun.js';
import { busOutageArb, scenarioArb } from './scenario.js';
import { checkScenario, type Verdict } from './simulation.js';

/** An event-path mutant: its name and the defect. */
export interface EventMutant {
  name: string;
  kind: EventMutantKind;
  /**
   * Run on {@link busOutageArb}'s stories instead of the random scenarios: the defect shows only when a change's
   * every delivery is lost and nothing changes after it.
   */
  stories?: 'busOutage';
}

/** The known event-path mutants. */
export const EVENT_MUTANTS: readonly EventMutant[] = [
  { name: 'pump saves its checkpoint before publishing', kind: 'checkpointBeforePublish' },
  { name: 'the CloneSet registration without its Owns watch', kind: 'ownsWatchDropped' },
  { name: 'resync lists nothing', kind: 'resyncListsNothing', stories: 'busOutage' },
];

const problemOf = (v: Verdict): string | undefined =>
  v.faulty.violations[0] ??
  v.divergence[0] ??
  (v.faulty.converged ? undefined : 'did not converge to quiescence');

/**
 * Run `mutant` on up to `maxScenarios` seeded scenarios with the event path on (25–35 rounds; read faults, reused
 * names and in-flight writes too), or of its {@link EventMutant.stories}.
 */
export async function runEventMutant(
  mutant: EventMutant,
  options: { seed: number; maxScenarios: number },
): Promise<MutantVerdict> {
  const arb =
    mutant.stories === 'busOutage'
      ? busOutageArb()
      : scenarioArb(25, 35, { reads: true, names: true, inFlight: true, events: true });
  const scenarios = fc.sample(arb, { seed: options.seed, numRuns: options.maxScenarios });
  const unclean: number[] = [];
  for (const [i, s] of scenarios.entries()) {
    const problem = problemOf(await checkScenario(s, { eventMutant: mutant.kind }));
    if (!problem) continue;
    if (problemOf(await checkScenario(s))) {
      unclean.push(i);
      continue;
    }
    return { name: mutant.name, caught: true, by: `scenario ${i}: ${problem}`, scenarios: i + 1, unclean };
  }
  return { name: mutant.name, caught: false, scenarios: scenarios.length, unclean };
}
