/**
 * The randomized fault test, short run (docs/reliability.md#randomized-fault-test): random CloneSet specs and
 * user actions interleaved with API-server, DynamoDB, bus, crash and clock faults, driving the real
 * reconcileCloneSet against the in-memory API server and state stores. The faults are mocks of faults that cannot
 * be caused for real in a unit test (test/unit/controllers/cloneset/reconcile/chaos/faulty.ts); everything else is the real protocol.
 * The seed is fixed ({@link DEFAULT_SEED}) and printed in the test name; set CHAOS_SEED to run another. The
 * long run is `npm run test:chaos -- --steps N [--seed S]`.
 */
import fc from 'fast-check';
import { scenarioArb, stalledScaleDownArb, type Scenario } from './chaos/scenario.js';
import { namespaceOf } from '../../../../../lib/core/objectKey.js';
import { reconcileCloneSet } from '../../../../../lib/controllers/cloneset/index.js';
import { RESOURCES } from '../../../../../lib/kube/resources.js';
import { checkScenario, runScenario } from './chaos/simulation.js';
import { MUTANTS } from './chaos/mutants.js';
import { runMutant } from './chaos/mutantRun.js';

/**
 * A fixed seed, so `npm test` cannot go red by chance: the same 40 scenarios every run. CHAOS_SEED replays or
 * explores another seed; random seeds are for the long run (`npm run test:chaos` without --seed).
 */
const DEFAULT_SEED = 20261201;
const SEED = process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : DEFAULT_SEED;
/** 40 scenarios of 25–35 rounds: at least 1,000 rounds, every one with the fault injector on. */
const RUNS = 40;
/** Scenarios of the run with read faults too. */
const READ_RUNS = 12;

describe('randomized faults (seeded; CHAOS_SEED replays)', () => {
  test(`≥ 1,000 rounds: every invariant holds after every write, and each run converges to its fault-free twin (seed ${SEED})`, async () => {
    let rounds = 0;
    let faults = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb(25, 35), async (s) => {
        const v = await checkScenario(s);
        rounds += s.rounds.length;
        faults += Object.values(v.faulty.faults).reduce((a, b) => a + b, 0);
        expect(v.faulty.violations).toEqual([]);
        expect(v.clean.violations).toEqual([]);
        expect({ faulty: v.faulty.converged, clean: v.clean.converged }).toEqual({
          faulty: true,
          clean: true,
        });
        expect(v.divergence).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(rounds).toBeGreaterThanOrEqual(1000);
    expect(faults).toBeGreaterThan(300);
  });

  test(`read faults too (429, 500, no answer on a GET or LIST): every invariant holds and each run converges (seed ${SEED})`, async () => {
    const fired: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(scenarioArb(25, 35, { reads: true }), async (s) => {
        const v = await checkScenario(s);
        for (const [kind, n] of Object.entries(v.faulty.faults))
          if (kind.startsWith('read ')) fired[kind] = (fired[kind] ?? 0) + n;
        expect(v.faulty.violations).toEqual([]);
        expect(v.clean.violations).toEqual([]);
        expect({ faulty: v.faulty.converged, clean: v.clean.converged }).toEqual({
          faulty: true,
          clean: true,
        });
        expect(v.divergence).toEqual([]);
      }),
      { seed: SEED, numRuns: READ_RUNS, endOnFailure: true },
    );
    expect(Object.keys(fired).sort()).toEqual(['read internal500', 'read networkError', 'read throttled429']);
  });

  test('the shape of a harness gap it showed (seed 801639914, scenario 8: a Resync pass that lists no PVCs records a scale-down) holds every invariant', async () => {
    // the ninth scenario of that seed: the harness re-planned such a pass as if nothing had been listed, so it
    // reported the victims the pass recorded in the ledger as chosen by no plan
    const s = fc.sample(scenarioArb(25, 35), { seed: 801639914, numRuns: 9 })[8];
    expect(s.spec).toEqual({
      replicas: 1,
      image: 0,
      partition: 1,
      maxSurge: 3,
      maxUnavailable: 2,
      type: 'ReCreate',
      preDeleteHook: true,
      inPlaceUpdateHook: false,
    });
    const v = await checkScenario(s);
    expect(v.faulty.violations).toEqual([]);
    expect(v.clean.violations).toEqual([]);
    expect({ faulty: v.faulty.converged, clean: v.clean.converged }).toEqual({ faulty: true, clean: true });
    expect(v.divergence).toEqual([]);
  });

  const two: Scenario = {
    spec: { replicas: 2, image: 0, type: 'ReCreate', preDeleteHook: false, inPlaceUpdateHook: false },
    rounds: [
      { faults: [], dt: 2 },
      { faults: [], dt: 2 },
      { action: { kind: 'scale', replicas: 0 }, faults: [{ on: 'api', at: 2, kind: 'internal500' }], dt: 2 },
      { action: { kind: 'scale', replicas: 2 }, faults: [], dt: 2 },
      { faults: [], dt: 2 },
    ],
  };

  test('the shape of a bug it found (2 → 0, the second delete fails, back to 2 before the retry) now holds every invariant', async () => {
    const r = await runScenario(two, true);
    expect(r.faults).toEqual({ 'api internal500': 1 });
    expect(r.violations).toEqual([]);
    expect({ converged: r.converged, pods: r.projection.pods, available: r.projection.available }).toEqual({
      converged: true,
      pods: 2,
      available: 2,
    });
  });

  test('the checks can fail: a reconciler that also creates a pod of its own, or deletes one no plan chose, is reported', async () => {
    const extraPod: typeof reconcileCloneSet = async (deps, request) => {
      const out = await reconcileCloneSet(deps, request);
      const pods = (await deps.kube.list(RESOURCES.pods, { namespace: namespaceOf(request) })).items;
      if (pods.length > 0) {
        const copy = structuredClone(pods[0]);
        copy.metadata = {
          ...copy.metadata,
          name: `rogue-${pods.length}`,
          uid: undefined,
          resourceVersion: undefined,
        };
        await deps.kube.create(RESOURCES.pods, copy);
      }
      return out;
    };
    const created = await runScenario(two, false, extraPod);
    expect(created.violations[0]).toMatch(/created rogue-2: 3 pods > replicas 2 \+ maxSurge 0$/);

    const rogueDelete: typeof reconcileCloneSet = async (deps, request) => {
      const out = await reconcileCloneSet(deps, request);
      const [pod] = (await deps.kube.list(RESOURCES.pods, { namespace: namespaceOf(request) })).items;
      if (pod)
        await deps.kube.delete(
          RESOURCES.pods,
          { namespace: namespaceOf(request), name: pod.metadata.name ?? '' },
          { uid: pod.metadata.uid ?? '' },
        );
      return out;
    };
    const deleted = await runScenario(two, false, rogueDelete);
    expect(deleted.violations[0]).toMatch(/deleted web-\w{5}, which no plan chose$/);
  });

  test('a crashed execution is retried under its request id, as Lambda does, and the retry gets its own holder (review C)', async () => {
    const crash: Scenario = {
      spec: { replicas: 2, image: 0, type: 'ReCreate', preDeleteHook: false, inPlaceUpdateHook: false },
      rounds: [
        { faults: [{ on: 'api', at: 2, kind: 'crash' }], dt: 2 },
        ...Array.from({ length: 12 }, () => ({ faults: [], dt: 5 })),
      ],
    };
    const r = await runScenario(crash, true);
    expect(r.faults).toEqual({ 'api crash': 1 });
    expect(r.violations).toEqual([]);
    const [first, ...later] = r.holders;
    expect(first).toBe('req-1/x1');
    // the retry 20 s later finds its own request's dead lease, defers and requeues for just after the lease's end
    const retries = later.filter((h) => h.startsWith('req-1/'));
    expect(retries).toHaveLength(1);
    expect(retries[0]).not.toBe(first);
    expect({ converged: r.converged, pods: r.projection.pods }).toEqual({ converged: true, pods: 2 });
  });

  test('what-if: pod LISTs that lag the writes by a round make the unmutated code itself create beyond replicas + maxSurge, so that model cannot count catches (why every read is a quorum read; seed 20261201, scenario 24 with reads, names and staleLists)', async () => {
    const s = fc.sample(scenarioArb(20, 60, { reads: true, names: true, staleLists: true }), {
      seed: 20261201,
      numRuns: 25,
    })[24];
    expect(s.staleLists).toBe(true);
    const stale = await runScenario(s, true);
    // (scenario 39 showed it until a pass whose creates all fail made its update-phase writes instead, as
    // OpenKruise's syncCloneSet does: the faults then met other states; scenario 56 until a CloneSet created again
    // under its predecessor's name stopped waiting for the predecessor's expectations)
    expect(stale.violations[0]).toBe(
      't+3783s: req-240/x240 created web-28cbb: 11 pods > replicas 5 + maxSurge 5',
    );
    const quorum = await runScenario({ ...s, staleLists: false }, true);
    expect({ violations: quorum.violations, converged: quorum.converged }).toEqual({
      violations: [],
      converged: true,
    });
  });

  test('scenario 743 of seed 20261201 (in-flight writes): a pod made serving by a late write after the pass listed the pods is not charged to that pass, which chose it as unavailable (invariant 2; docs/reliability.md#mutants)', async () => {
    const s = fc.sample(scenarioArb(25, 35, { reads: true, names: true, inFlight: true }), {
      seed: 20261201,
      numRuns: 744,
    })[743];
    expect(s.spec).toMatchObject({ type: 'ReCreate', preDeleteHook: true });
    const v = await checkScenario(s);
    // req-2/x2's PreparingNormal → Normal patch of web-bbbbb waits in the API server 32 s and lands after req-8/x9
    // listed five PreparingNormal pods; req-8/x9 then marks web-bbbbb PreparingDelete for the 5 → 3 scale-down
    expect(v.faulty.faults['api inFlight']).toBe(2);
    expect({
      violations: v.faulty.violations,
      divergence: v.divergence,
      converged: v.faulty.converged,
    }).toEqual({
      violations: [],
      divergence: [],
      converged: true,
    });
  });

  test('a pod created under a released pod’s name gets a UID of its own, so its delete is not the old pod’s second (seed 20261201, scenario 463, reused names and in-flight writes; invariant 8)', async () => {
    const s = fc.sample(scenarioArb(25, 35, { reads: true, names: true, inFlight: true }), {
      seed: 20261201,
      numRuns: 464,
    })[463];
    expect(s.rounds.some((r) => r.action?.kind === 'release')).toBe(true);
    // req-12/x12's delete of web-lbbbb lands late, on the pod the user released meanwhile; the CloneSet then creates
    // a new web-lbbbb under the reused id and later deletes that one
    const v = await checkScenario(s);
    expect({
      violations: v.faulty.violations,
      divergence: v.divergence,
      converged: v.faulty.converged,
    }).toEqual({
      violations: [],
      divergence: [],
      converged: true,
    });
  });

  /** 3 → 1: the first delete of the scale-down is sent and waits in the API server; its sender is killed waiting. */
  const inFlightDelete: Scenario = {
    spec: { replicas: 3, image: 0, type: 'ReCreate', preDeleteHook: false, inPlaceUpdateHook: false },
    rounds: [
      { faults: [], dt: 2 },
      { faults: [], dt: 2 },
      { action: { kind: 'scale', replicas: 1 }, faults: [{ on: 'api', at: 1, kind: 'inFlight' }], dt: 2 },
      ...Array.from({ length: 12 }, () => ({ faults: [], dt: 5 })),
    ],
  };

  test('a delete in flight when its sender died is not sent again by the successor, which waits for its expectation (invariant 8: a pod is deleted once)', async () => {
    const v = await checkScenario(inFlightDelete);
    expect(v.faulty.faults).toEqual({ 'api inFlight': 1 });
    expect({
      violations: v.faulty.violations,
      divergence: v.divergence,
      converged: v.faulty.converged,
    }).toEqual({
      violations: [],
      divergence: [],
      converged: true,
    });
  });

  /**
   * 4 → 2 (maxSurge 1, maxUnavailable 0): the holder deletes web-bbbbb, passes the lease guard for web-cbbbb and
   * stalls 330 s before sending it (a suspended `kruiseless local`); web-fbbbb turns unhealthy meanwhile and is
   * healthy again, so it is the newest ready pod, first in OpenKruise's deletion order, when the successor plans —
   * after the 5-minute expectation timeout, which is the only time it plans while the stalled delete is to come.
   */
  const stalledDelete: Scenario = {
    spec: {
      replicas: 4,
      image: 0,
      type: 'InPlaceIfPossible',
      preDeleteHook: false,
      inPlaceUpdateHook: false,
      maxSurge: 1,
      maxUnavailable: 0,
    },
    rounds: [
      { faults: [], dt: 2 },
      { faults: [], dt: 2 },
      { faults: [], dt: 2 },
      {
        action: { kind: 'scale', replicas: 2 },
        faults: [{ on: 'api', at: 2, kind: 'stall', seconds: 330 }],
        dt: 2,
      },
      { action: { kind: 'readiness', pod: 2, healthy: false }, faults: [], dt: 5 },
      ...Array.from({ length: 8 }, () => ({ faults: [], dt: 5 })),
    ],
  };

  test('a holder stalled past the expectation timeout between the lease guard and a delete: the successor finishes the recorded scale-down, so the stalled delete finds its pod gone (invariant 9: no pod deleted beyond the plan)', async () => {
    const v = await checkScenario(stalledDelete);
    expect(v.faulty.faults).toEqual({ 'api stall': 1 });
    expect({
      violations: v.faulty.violations,
      divergence: v.divergence,
      converged: v.faulty.converged,
    }).toEqual({
      violations: [],
      divergence: [],
      converged: true,
    });
  });

  test('a holder stalled 45 s (past its lease, within the expectation timeout) before a delete: the successor waits for the delete expectations the holder stored first, with or without the scale-down ledger', async () => {
    const short: Scenario = {
      ...stalledDelete,
      rounds: stalledDelete.rounds.map((r) => ({
        ...r,
        faults: r.faults.map((f) => (f.on === 'api' ? { ...f, seconds: 45 } : f)),
      })),
    };
    for (const mutant of [
      undefined,
      MUTANTS.find((m) => m.name.startsWith('the scale-down ledger skipped')),
    ]) {
      const v = await checkScenario(short, mutant ? { mutant } : {});
      expect(v.faulty.faults).toEqual({ 'api stall': 1 });
      expect({
        violations: v.faulty.violations,
        divergence: v.divergence,
        converged: v.faulty.converged,
      }).toEqual({ violations: [], divergence: [], converged: true });
    }
  });

  describe('known mutants, quick subset (the full run: npm run test:chaos -- --mutants)', () => {
    const mutant = (name: string) => {
      const m = MUTANTS.find((x) => x.name === name);
      if (!m) throw new Error(`no mutant ${name}`);
      return m;
    };

    test('a lease store whose acquire grants a live lease, whose renew revives a released one, or whose takeover raises no fence fails the lease protocol check', async () => {
      for (const name of [
        'acquire grants a live lease',
        'renew without its expiry condition (revives a released lease)',
        'no fence raise on takeover (bookkeeping writes unfenced)',
      ]) {
        const v = await runMutant(mutant(name), { seed: DEFAULT_SEED, maxScenarios: 1 });
        expect({ caught: v.caught, scenarios: v.scenarios }).toEqual({ caught: true, scenarios: 0 });
      }
    });

    test('a create that takes every AlreadyExists for its own pod reports a released pod as created (seed 20261201, scenario 0, reused names)', async () => {
      const s = fc.sample(scenarioArb(25, 35, { reads: true, names: true }), {
        seed: 20261201,
        numRuns: 1,
      })[0];
      expect(s.rounds.some((r) => r.action?.kind === 'release')).toBe(true);
      const clean = await checkScenario(s);
      expect({ violations: clean.faulty.violations, divergence: clean.divergence }).toEqual({
        violations: [],
        divergence: [],
      });
      const v = await checkScenario(s, {
        mutant: mutant('Writer.create treats every AlreadyExists as ours'),
      });
      expect(v.faulty.violations[0]).toBe(
        't+96s: req-19/x21 created web-dbbbb for cs-uid-1, but the pod of that name is controlled by no one',
      );
    });

    test('a pass that does not read the expectations back creates beside a create still in flight (seed 20261201, scenario 63, in-flight writes)', async () => {
      const s = fc.sample(scenarioArb(25, 35, { reads: true, names: true, inFlight: true }), {
        seed: 20261201,
        numRuns: 64,
      })[63];
      const clean = await checkScenario(s);
      expect({ violations: clean.faulty.violations, divergence: clean.divergence }).toEqual({
        violations: [],
        divergence: [],
      });
      expect(clean.faulty.faults['api inFlight']).toBeGreaterThan(0);
      const v = await checkScenario(s, { mutant: mutant('expectations cleared early (never read back)') });
      expect(v.faulty.violations[0]).toBe(
        't+47s: req-8/x9 created web-hbbbb: 4 pods > replicas 3 + maxSurge 0',
      );
    });

    test('a deleteInstances that stores its expectations after the delete leaves the successor unaware of a delete in flight: it deletes the pod again (invariant 8)', async () => {
      const v = await checkScenario(inFlightDelete, {
        mutant: mutant('deleteInstance puts its expectations after the delete'),
      });
      expect(v.faulty.violations).toEqual([
        't+41s: req-4/x5 deleted web-bbbbb again: req-3/x3 had sent its delete already',
      ]);
    });

    test('a successor that does not read the scale-down ledger back chooses the newest ready pod while a stalled holder still deletes its recorded victim: one pod too many goes (invariant 9)', async () => {
      const v = await checkScenario(stalledDelete, {
        mutant: mutant('the scale-down ledger skipped (recorded, never read back)'),
      });
      expect(v.faulty.violations).toEqual([
        "t+340s: req-4/x4's late delete of web-cbbbb landed: the controller removed 3 of the pods it listed since (web-bbbbb, web-fbbbb, web-cbbbb), its plan chose 2",
      ]);
    });

    test('the same in the first stalled scale-down story of seed 20261201, which npm run test:chaos -- --mutants catches it on', async () => {
      const s = fc.sample(stalledScaleDownArb({ reads: true, names: true, inFlight: true }), {
        seed: 20261201,
        numRuns: 1,
      })[0];
      const clean = await checkScenario(s);
      expect({
        violations: clean.faulty.violations,
        divergence: clean.divergence,
        converged: clean.faulty.converged,
      }).toEqual({ violations: [], divergence: [], converged: true });
      expect(clean.faulty.faults['api stall']).toBe(1);
      const v = await checkScenario(s, {
        mutant: mutant('the scale-down ledger skipped (recorded, never read back)'),
      });
      expect(v.faulty.violations[0]).toBe(
        "t+340s: req-4/x4's late delete of web-bbbbb landed: the controller removed 3 of the pods it listed since (web-cbbbb, web-dbbbb, web-bbbbb), its plan chose 2",
      );
    });

    test('a lease released without the dirty check loses the event of an execution that overlapped the pass (seed 20261201, scenario 91)', async () => {
      const s = fc.sample(scenarioArb(25, 35, { reads: true }), { seed: 20261201, numRuns: 92 })[91];
      const clean = await checkScenario(s);
      expect(clean.faulty.violations).toEqual([]);
      const v = await checkScenario(s, { mutant: mutant('lease released without the dirty check') });
      expect(v.faulty.violations[0]).toMatch(
        /released the lease with an event unhandled: marked after its last read, no requeue since$/,
      );
    });
  });
});
