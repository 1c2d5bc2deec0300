/**
 * Runs one known mutant (./mutants.ts) until a check catches it: first the lease protocol as the ports state it
 * (lib/state/ports.ts; a few deterministic calls), then seeded scenarios of the randomized fault test with the
 * mutant in the faulty run — caught when a run reports a violation, diverges from its fault-free twin, or does
 * not converge. Test-only; used by `npm run test:chaos -- --mutants` and the unit suite's quick subset.
 */
import fc from 'fast-check';
import { createMemoryStores, FencedOutError } from '../../../../../../lib/state/index.js';
import type { ChaosStores, Mutant } from './mutants.js';
import { scenarioArb } from './scenario.js';
import { checkScenario, type Verdict } from './simulation.js';

const KEY = { cluster: 'protocol', kind: 'apps.kruise.io/CloneSet', namespace: 'default', name: 'web' };
const T0 = Date.parse('2024-05-01T08:00:00Z');
const MS = 30_000;

/**
 * The lease protocol's promises (lib/state/ports.ts) that the scenarios cannot reach: a live lease is refused to
 * another holder, a released one is free at once, a late renew does not make it live again (no production caller
 * renews), and a takeover fences the previous holder's expectations and ledger writes (the model's only zombie,
 * `clockJump`, is stopped by the lease guard before it writes again).
 * @returns the first broken promise, or undefined
 */
export async function leaseProtocolProblem(stores: ChaosStores): Promise<string | undefined> {
  const a = await stores.leases.acquire(KEY, 'req-a/1', MS, T0);
  if (!a.acquired) return 'a free lease was refused';
  const b = await stores.leases.acquire(KEY, 'req-b/1', MS, T0 + 1);
  if (b.acquired) return 'a live lease was granted to another holder';
  await stores.leases.release(a.lease, undefined, { requeued: true });
  const late = await stores.leases.renew(a.lease, MS, T0 + 2).then(
    () => 'renewed',
    (e: unknown) => (e instanceof FencedOutError ? 'fenced' : String(e)),
  );
  if (late !== 'fenced') return `a renew after the release was ${late}, not FencedOutError`;
  const c = await stores.leases.acquire(KEY, 'req-c/1', MS, T0 + 3);
  if (!c.acquired) return 'a released lease was refused to the next holder';
  // c stalls; d takes over after c's lease ended (by d's clock): c's bookkeeping writes must be fenced out
  const d = await stores.leases.acquire(KEY, 'req-d/1', MS, T0 + 3 + MS);
  if (!d.acquired) return 'an expired lease was refused to the next holder';
  const fenced = async (write: Promise<void>) =>
    write.then(
      () => false,
      (e: unknown) => e instanceof FencedOutError,
    );
  const stale = { creates: [{ name: 'web-ghost', at: T0 }], deletes: [], updates: [] };
  if (!(await fenced(stores.expectations.put(c.lease, stale))))
    return 'an expectations put of the holder taken over was accepted (no fence raised on takeover)';
  const intent = { intentId: 'stale', createdAt: T0, pods: [] };
  if (!(await fenced(stores.ledger.record(c.lease, intent))))
    return 'a ledger record of the holder taken over was accepted (no fence raised on takeover)';
  return undefined;
}

/** What one mutant run found. */
export interface MutantVerdict {
  name: string;
  caught: boolean;
  /** The first check that caught it (`lease protocol: …` or `scenario <i>: …`). */
  by?: string;
  /** Scenarios run. */
  scenarios: number;
  /** Scenarios where the mutant broke a check but so did the unmutated code (not counted as catches). */
  unclean: number[];
}

/**
 * @param options `seed` the scenarios' seed; `maxScenarios` how many to try at most (25–35 rounds each); `reads`
 *   and `names` the scenario options (./scenario.ts `ScenarioOptions`), both on unless set false; `staleLists` the
 *   lagging-LIST what-if (off unless set: Kruiseless's LISTs are quorum reads)
 */
export async function runMutant(
  mutant: Mutant,
  options: {
    seed: number;
    maxScenarios: number;
    reads?: boolean;
    names?: boolean;
    inFlight?: boolean;
    staleLists?: boolean;
  },
): Promise<MutantVerdict> {
  const stores = mutant.parts().stores?.(createMemoryStores());
  const protocol = stores ? await leaseProtocolProblem(stores) : undefined;
  if (protocol)
    return { name: mutant.name, caught: true, by: `lease protocol: ${protocol}`, scenarios: 0, unclean: [] };
  const scenarios = fc.sample(
    scenarioArb(25, 35, {
      reads: options.reads ?? true,
      names: options.names ?? true,
      inFlight: options.inFlight ?? true,
      staleLists: options.staleLists ?? false,
    }),
    {
      seed: options.seed,
      numRuns: options.maxScenarios,
    },
  );
  const problemOf = (v: Verdict) =>
    v.faulty.violations[0] ??
    v.divergence[0] ??
    (v.faulty.converged ? undefined : 'did not converge to quiescence');
  const unclean: number[] = [];
  for (const [i, s] of scenarios.entries()) {
    const problem = problemOf(await checkScenario(s, { mutant }));
    if (!problem) continue;
    // a catch counts only where the unmutated code is clean: else the model, not the mutant, broke the check
    if (problemOf(await checkScenario(s))) {
      unclean.push(i);
      continue;
    }
    return { name: mutant.name, caught: true, by: `scenario ${i}: ${problem}`, scenarios: i + 1, unclean };
  }
  return { name: mutant.name, caught: false, scenarios: scenarios.length, unclean };
}
