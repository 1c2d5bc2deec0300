/**
 * Runs one known mutant (./mutants.ts) until a check catches it: first the lease protocol as the ports state it
 * (lib/state/ports.ts; a few deterministic calls), then seeded scenarios of the randomized fault test with the
 * mutant in the faulty run, then seeded stalled scale-down stories (./scenario.ts `stalledScaleDownArb`) — caught
 * when a run reports a violation, diverges from its fault-free twin, or does not converge. Test-only; used by `npm run test:chaos -- --mutants` and the unit suite's quick subset.
 */
import fc from 'fast-check';
import { createMemoryStores, FencedOutError } from '../../../../../../lib/state/index.js';
import type { ChaosStores, Mutant } from './mutants.js';
import { scenarioArb, stalledScaleDownArb, type Scenario } from './scenario.js';
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
  /** The first check that caught it (`lease protocol: …`, `scenario <i>: …` or `stalled scale-down story <i>: …`). */
  by?: string;
  /** Scenarios run. */
  scenarios: number;
  /** Stalled scale-down stories run (after the scenarios; absent where there are none). */
  stories?: number;
  /** Scenarios where the mutant broke a check but so did the unmutated code (not counted as catches). */
  unclean: number[];
  /** The same for stories. */
  uncleanStories?: number[];
}

/**
 * @param options `seed` the scenarios' seed; `maxScenarios` how many to try at most (25–35 rounds each); `reads`,
 *   `names` and `inFlight` the scenario options (./scenario.ts `ScenarioOptions`), on unless set false, and `stalls`,
 *   off unless set (the stalls are in the stories: in random scenarios a spec change clears the intent first); `staleLists` the
 *   lagging-LIST what-if (off unless set: Kruiseless's LISTs are quorum reads); `maxStories` how many stalled
 *   scale-down stories to try after the scenarios (default 200; none with `staleLists`)
 */
export async function runMutant(
  mutant: Mutant,
  options: {
    seed: number;
    maxScenarios: number;
    reads?: boolean;
    names?: boolean;
    inFlight?: boolean;
    stalls?: boolean;
    staleLists?: boolean;
    maxStories?: number;
  },
): Promise<MutantVerdict> {
  const none = { scenarios: 0, stories: 0, unclean: [], uncleanStories: [] };
  const stores = mutant.parts().stores?.(createMemoryStores());
  const protocol = stores ? await leaseProtocolProblem(stores) : undefined;
  if (protocol) return { name: mutant.name, caught: true, by: `lease protocol: ${protocol}`, ...none };
  const scenarios = fc.sample(
    scenarioArb(25, 35, {
      reads: options.reads ?? true,
      names: options.names ?? true,
      inFlight: options.inFlight ?? true,
      stalls: options.stalls ?? false,
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
  /** The first scenario the mutant breaks a check on while the unmutated code is clean, and the unclean ones. */
  const search = async (list: Scenario[]) => {
    const unclean: number[] = [];
    for (const [i, s] of list.entries()) {
      const problem = problemOf(await checkScenario(s, { mutant }));
      if (!problem) continue;
      // a catch counts only where the unmutated code is clean: else the model, not the mutant, broke the check
      if (problemOf(await checkScenario(s))) {
        unclean.push(i);
        continue;
      }
      return { at: i, problem, unclean };
    }
    return { unclean };
  };
  const found = await search(scenarios);
  if (found.at !== undefined)
    return {
      name: mutant.name,
      caught: true,
      by: `scenario ${found.at}: ${found.problem}`,
      ...none,
      scenarios: found.at + 1,
      unclean: found.unclean,
    };
  const stories = options.staleLists
    ? []
    : fc.sample(
        stalledScaleDownArb({
          reads: options.reads ?? true,
          names: options.names ?? true,
          inFlight: options.inFlight ?? true,
        }),
        { seed: options.seed, numRuns: options.maxStories ?? 200 },
      );
  const story = await search(stories);
  return {
    name: mutant.name,
    caught: story.at !== undefined,
    ...(story.at !== undefined ? { by: `stalled scale-down story ${story.at}: ${story.problem}` } : {}),
    scenarios: scenarios.length,
    stories: story.at !== undefined ? story.at + 1 : stories.length,
    unclean: found.unclean,
    uncleanStories: story.unclean,
  };
}
