/**
 * The randomized fault test on the DynamoDB adapter over dynalite (review C; docs/reliability.md#randomized-fault-test):
 * seeded scenarios whose faulty run keeps its lease, expectations and ledger in a real table, so the adapter's
 * separate requests (the take and the fence raises of an acquire, the two-step release, the ledger's read after a
 * failed condition) interleave between overlapping executions. The long run: `npm run test:chaos -- --stores dynamo`.
 */
import fc from 'fast-check';
import { scenarioArb } from '../../unit/controllers/cloneset/reconcile/chaos/scenario.js';
import { checkScenario } from '../../unit/controllers/cloneset/reconcile/chaos/simulation.js';
import { freshChaosStores } from '../../unit/controllers/cloneset/reconcile/chaos/dynamoStores.js';
import { testDynamoBackend, useDynalite } from '../support/dynamo.js';

const SEED = 20261201;
const db = useDynalite();

test(`8 scenarios on the DynamoDB stores (${testDynamoBackend()}): every invariant holds and each run converges to its fault-free twin (seed ${SEED})`, async () => {
  const scenarios = fc.sample(scenarioArb(25, 35, { reads: true }), { seed: SEED, numRuns: 8 });
  const client = db.client();
  let rounds = 0;
  let concurrent = 0;
  for (const s of scenarios) {
    const v = await checkScenario(s, { stores: await freshChaosStores(client) });
    rounds += s.rounds.length;
    concurrent += v.faulty.faults['bus concurrent'] ?? 0;
    expect(v.faulty.violations).toEqual([]);
    expect({ faulty: v.faulty.converged, clean: v.clean.converged }).toEqual({ faulty: true, clean: true });
    expect(v.divergence).toEqual([]);
  }
  expect(rounds).toBeGreaterThanOrEqual(200);
  expect(concurrent).toBeGreaterThan(0);
}, 300_000);
