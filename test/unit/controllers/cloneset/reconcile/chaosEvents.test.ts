/**
 * The randomized fault test with the event path in the loop (docs/reliability.md#event-path): the simulated API
 * server's changes reach the bus only through the real watch pump (lib/source/pump.ts `pumpCluster` over HTTP to the
 * real lib/kube/watch.ts, relists, reopens and the cluster's one checkpoint lease and item included), the real
 * resync and the real admission webhook, with watches cut, stalled and expired (410 Gone), pump runs killed before
 * or after a write of their resume points and retried under their holder, overlapping and duplicated runs (a
 * duplicate fences the first out), extra and missed resync ticks, admission floods and outages — on top of the
 * reconcile loop's own faults. Seeded (CHAOS_SEED replays another); the long run is
 * `npm run test:chaos -- --steps N --events`.
 */
import fc from 'fast-check';
import { busOutageArb, scenarioArb } from './chaos/scenario.js';
import { checkScenario } from './chaos/simulation.js';
import { EVENT_MUTANTS, runEventMutant } from './chaos/eventMutants.js';

const DEFAULT_SEED = 20261201;
const SEED = process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : DEFAULT_SEED;
/** Scenarios of the seeded run (20–30 rounds each, about 1 s each with its fault-free twin). */
const RUNS = 5;

describe('randomized faults with the watch pump, resync and admission in the loop (seeded)', () => {
  test(`every invariant holds, no checkpoint passes an unpublished change, and each run converges to its fault-free twin with only the pump and the scheduled resync publishing (seed ${SEED})`, async () => {
    const fired: Record<string, number> = {};
    let rounds = 0;
    await fc.assert(
      fc.asyncProperty(
        scenarioArb(20, 30, { reads: true, names: true, inFlight: true, events: true }),
        async (s) => {
          const v = await checkScenario(s);
          rounds += s.rounds.length;
          for (const [k, n] of Object.entries(v.faulty.faults)) fired[k] = (fired[k] ?? 0) + n;
          expect(v.faulty.violations).toEqual([]);
          expect(v.clean.violations).toEqual([]);
          expect({ faulty: v.faulty.converged, clean: v.clean.converged }).toEqual({
            faulty: true,
            clean: true,
          });
          expect(v.divergence).toEqual([]);
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(rounds).toBeGreaterThanOrEqual(100);
    if (SEED === DEFAULT_SEED)
      expect(
        Object.keys(fired)
          .filter((k) => /^(watch|pump|resync|admission) /.test(k))
          .sort(),
      ).toEqual([
        'admission down',
        'admission flood',
        'pump duplicated',
        'pump fenced out',
        'pump killed after its checkpoint save',
        'pump killed before its checkpoint save',
        'pump overlap',
        'pump retried',
        'pump stream failed',
        'pump stream reopened',
        'resync tick',
        'watch 410 Gone',
        'watch cut',
        'watch stalled',
      ]);
  }, 60_000);

  // every event-path mutant is caught on its first scenario (the resync's on its first bus-outage story)
  test.each(EVENT_MUTANTS.map((m) => [m.name, m] as const))(
    'the event loop catches the mutant “%s” on its first scenario',
    async (_name, mutant) => {
      const v = await runEventMutant(mutant, { seed: DEFAULT_SEED, maxScenarios: 1 });
      expect({ caught: v.caught, unclean: v.unclean }).toEqual({ caught: true, unclean: [] });
    },
    60_000,
  );

  test('a bus outage after a scale-up is repaired by the scheduled resync alone: every story converges to its fault-free twin', async () => {
    const outcomes = [];
    for (const s of fc.sample(busOutageArb(), { seed: SEED, numRuns: 6 })) {
      const v = await checkScenario(s);
      outcomes.push({
        lost: v.faulty.faults['bus outage'] ?? 0,
        violations: [...v.faulty.violations, ...v.clean.violations],
        converged: v.faulty.converged && v.clean.converged,
        divergence: v.divergence,
      });
    }
    expect(outcomes.map(({ lost, ...rest }) => ({ ...rest, lost: lost > 0 }))).toEqual(
      outcomes.map(() => ({ violations: [], converged: true, divergence: [], lost: true })),
    );
  }, 60_000);
});
