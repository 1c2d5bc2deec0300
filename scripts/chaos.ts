/**
 * `npm run test:chaos -- --steps N [--seed S] [--verbose]`: the long run of the randomized fault test
 * (docs/reliability.md#randomized-fault-test). Generates scenarios from the seed until N rounds ran, runs each with
 * its faults and without, and ends with one line on stdout:
 *   chaos: <steps> steps, <faults> faults, violations <v>, converged <yes|no>
 * `--stores dynamo` runs the faulty runs on the DynamoDB adapter over dynalite (slower: a short run).
 * `--events` puts the event path in the loop (scenarioArb's `events`; docs/reliability.md#event-path): changes reach
 * the bus only through the real watch pump (over HTTP, with its relists and checkpoint leases), the real resync and
 * the real admission webhook, with watch, pump, resync and admission faults.
 * Progress (percentage and ETA) and the first violations go to stderr. Exit 0 only with no violation and every run
 * converged; the same --seed replays the same run. Read faults, reused pod names, in-flight writes and holders
 * stalled between the lease guard and a write are on (scenarioArb's `reads`, `names`, `inFlight` and `stalls`).
 *
 * `npm run test:chaos -- --mutants [--seed S] [--scenarios K]`: runs every known mutant
 * (test/unit/controllers/cloneset/reconcile/chaos/mutants.ts) until a check catches it, at most K scenarios each
 * (default 1000), then 200 stalled scale-down stories (chaos/scenario.ts `stalledScaleDownArb`), one line per
 * mutant on stderr, and ends with one line on stdout:
 *   chaos mutants: <caught> of <n> caught
 * Exit 0 only when every mutant was caught. With `--events`, the event path's mutants instead
 * (test/unit/controllers/cloneset/reconcile/chaos/eventMutants.ts: defects of the pump and the resync that only the
 * event loop can catch), ending with `chaos mutants (event path): <caught> of <n> caught`.
 *
 * `--stale-lists` (either mode) is a what-if: about half the scenarios answer the faulty run's pod LISTs from a
 * watch cache that lags the writes by up to a round. Kruiseless's LISTs are quorum reads, and the unmutated code
 * is not clean under it (docs/reliability.md#mutants), so its catches are not counted as catches.
 */
import fc from 'fast-check';
import { Command } from 'commander';
import { scenarioArb } from '../test/unit/controllers/cloneset/reconcile/chaos/scenario.js';
import { checkScenario } from '../test/unit/controllers/cloneset/reconcile/chaos/simulation.js';
import { MUTANTS } from '../test/unit/controllers/cloneset/reconcile/chaos/mutants.js';
import {
  runMutant,
  type MutantVerdict,
} from '../test/unit/controllers/cloneset/reconcile/chaos/mutantRun.js';
import {
  EVENT_MUTANTS,
  runEventMutant,
} from '../test/unit/controllers/cloneset/reconcile/chaos/eventMutants.js';
import {
  startChaosDynamo,
  type ChaosDynamo,
} from '../test/unit/controllers/cloneset/reconcile/chaos/dynamoStores.js';

const program = new Command()
  .option('--steps <n>', 'rounds to run in total', '10000')
  .option('--seed <s>', 'seed (default: random, printed)')
  .option('--verbose', 'print every violation, not only the first ones')
  .option('--mutants', 'run the known mutants instead, and say how many the checks caught')
  .option('--scenarios <k>', 'with --mutants: scenarios per mutant at most', '1000')
  .option(
    '--stale-lists',
    'what-if: pod LISTs of about half the faulty runs lag the writes by up to a round (a resourceVersion=0 read, which Kruiseless does not make)',
  )
  .option('--events', 'the watch pump, resync and admission in the loop, with their faults')
  .option(
    '--stores <adapter>',
    'state stores of the faulty runs: memory, or dynamo (the DynamoDB adapter on dynalite)',
    'memory',
  )
  .parse();
const opts = program.opts<{
  steps: string;
  seed?: string;
  verbose?: boolean;
  mutants?: boolean;
  scenarios: string;
  stores: string;
  staleLists?: boolean;
  events?: boolean;
}>();
const staleLists = !!opts.staleLists;
if (opts.stores !== 'memory' && opts.stores !== 'dynamo') {
  console.error('chaos: --stores must be memory or dynamo');
  process.exit(2);
}
const steps = Number(opts.steps);
const seed = opts.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(opts.seed);
if (!Number.isInteger(steps) || steps <= 0 || !Number.isInteger(seed)) {
  console.error('chaos: --steps must be a positive integer and --seed an integer');
  process.exit(2);
}

if (opts.mutants) {
  const maxScenarios = Number(opts.scenarios);
  const mutantSeed = opts.seed === undefined ? 20261201 : seed;
  let caught = 0;
  const list = opts.events ? EVENT_MUTANTS : MUTANTS;
  for (const m of list) {
    const v: MutantVerdict =
      'kind' in m
        ? await runEventMutant(m, { seed: mutantSeed, maxScenarios })
        : await runMutant(m, { seed: mutantSeed, maxScenarios, staleLists });
    if (v.caught) caught++;
    console.error(
      v.caught
        ? `  caught   ${v.name} (${v.by})`
        : `  MISSED   ${v.name} (${v.scenarios} scenarios${v.stories ? ` and ${v.stories} stalled scale-down stories` : ''}, seed ${mutantSeed})`,
    );
    if (v.unclean.length > 0)
      console.error(
        `           not counted: scenarios ${v.unclean.join(', ')} break a check without the mutant too`,
      );
    if ((v.uncleanStories ?? []).length > 0)
      console.error(
        `           not counted: stalled scale-down stories ${(v.uncleanStories ?? []).join(', ')} break a check without the mutant too`,
      );
  }
  // under the what-if the unmutated code fails too: say so on the result line, so it is never read as a catch
  const what = staleLists
    ? 'chaos mutants (what-if stale lists, not counted)'
    : opts.events
      ? 'chaos mutants (event path)'
      : 'chaos mutants';
  console.log(`${what}: ${caught} of ${list.length} caught`);
  process.exit(caught === list.length ? 0 : 1);
}

const MIN_ROUNDS = 20;
const MAX_ROUNDS = 60;
const started = Date.now();
console.error(`chaos: seed ${seed} (replay: npm run test:chaos -- --steps ${steps} --seed ${seed})`);

const scenarios = fc.sample(
  scenarioArb(MIN_ROUNDS, MAX_ROUNDS, {
    reads: true,
    names: true,
    inFlight: true,
    stalls: true,
    staleLists,
    events: !!opts.events,
  }),
  {
    seed,
    numRuns: Math.ceil(steps / MIN_ROUNDS) + 1,
  },
);
let done = 0;
let ran = 0;
let violations = 0;
let converged = true;
let printed = 0;
let settleMax = 0;
const faults: Record<string, number> = {};
let lastProgress = 0;
const dynamo: ChaosDynamo | undefined = opts.stores === 'dynamo' ? await startChaosDynamo() : undefined;
if (dynamo) console.error('chaos: faulty runs on the DynamoDB adapter over dynalite');
if (opts.events) console.error('chaos: the watch pump, resync and admission in the loop');
for (const [i, s] of scenarios.entries()) {
  if (done >= steps) break;
  const v = await checkScenario(s, dynamo ? { stores: await dynamo.stores() } : {});
  done += s.rounds.length;
  ran++;
  for (const [k, n] of Object.entries(v.faulty.faults)) faults[k] = (faults[k] ?? 0) + n;
  const problems = [
    ...v.faulty.violations,
    ...v.clean.violations.map((x) => `fault-free run: ${x}`),
    ...v.divergence,
  ];
  violations += problems.length;
  settleMax = Math.max(settleMax, v.faulty.settleRounds);
  if (!v.faulty.converged || !v.clean.converged) {
    converged = false;
    problems.push(`did not converge (faulty ${v.faulty.converged}, fault-free ${v.clean.converged})`);
  }
  for (const p of problems) {
    if (printed++ < 20 || opts.verbose) console.error(`  scenario ${i}: ${p}`);
  }
  if (problems.length > 0 && printed <= 20) console.error(`  scenario ${i} spec: ${JSON.stringify(s.spec)}`);
  const now = Date.now();
  if (now - lastProgress > 2000 || done >= steps) {
    lastProgress = now;
    const pct = Math.min(100, (100 * done) / steps);
    const eta = done > 0 ? ((now - started) / done) * Math.max(0, steps - done) : 0;
    console.error(`chaos: ${pct.toFixed(1)}% (${done}/${steps} steps), ETA ${(eta / 1000).toFixed(0)} s`);
  }
}
await dynamo?.close();
const total = Object.values(faults).reduce((a, b) => a + b, 0);
const byKind = Object.entries(faults)
  .sort(([a], [b]) => (a < b ? -1 : 1))
  .map(([k, n]) => `${k} ${n}`)
  .join(', ');
console.error(`chaos: faults by kind: ${byKind}`);
console.error(`chaos: ${ran} scenarios, each run with its faults and without`);
console.error(
  `chaos: longest final resync ${settleMax} rounds; wall time ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
console.log(
  `chaos: ${done} steps, ${total} faults, violations ${violations}, converged ${converged ? 'yes' : 'no'}`,
);
process.exit(violations === 0 && converged ? 0 : 1);
