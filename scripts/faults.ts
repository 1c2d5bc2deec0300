/**
 * `npm run test:faults [-- --seed S] [--runs N] [--scenario a,b] [--quick]`: the fault front on the real stack
 * (docs/reliability.md#fault-front). The CloneSet parity scenarios (the Kruiseless side only) and the seed story
 * run through a fault proxy in front of a local kube-apiserver (test/faults/proxy.ts): first once without faults
 * (the baseline of each), then N runs with seeded faults — latency, resets, 429/500/503, answers dropped after the
 * write was applied, watch streams cut, and in every third run the reconciler process killed mid-pass and restarted
 * with its DynamoDB state kept. Each faulted run is judged against its baseline (test/faults/verdict.ts): the
 * invariants over the whole run and whether the end state is the same. Progress (percent, ETA) goes to stderr; the
 * last line on stdout is
 *   faults: <runs> runs, <n> faults, violations <v>, converged <k>/<runs>
 * Exit 1 on any violation, 2 when the stage cannot be brought up. The same --seed draws the same faults for the same
 * requests (the API server's timing still varies from run to run).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { cloneSet } from '../test/parity/kinds/cloneset/index.js';
import { loadScenarios } from '../test/parity/scenario.js';
import { fmtSecs } from '../infra/local/progress.js';
import { gatesFlag } from '../test/parity/sides.js';
import { FAULT_KINDS, NO_FAULTS, type FaultRates } from '../test/faults/faultPlan.js';
import { randomInt, seededRandom } from '../test/faults/rng.js';
import {
  runOnce,
  STORY,
  subjectGates,
  subjectName,
  type RunResult,
  type Subject,
} from '../test/faults/runs.js';
import { startStage, type Stage } from '../test/faults/stage.js';
import { judge, type FaultVerdict } from '../test/faults/verdict.js';
import { errorMessage } from '../lib/core/errors.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** Faulted runs by default: with their baselines about 15 min on 2 busy cores. */
const DEFAULT_RUNS = 8;
/** What `--quick` runs: the seed story both ways, about 3 min. */
const QUICK = ['seed-story', STORY];

const opts = new Command('faults')
  .option('--seed <s>', 'seed of the fault draws (default: random, printed)')
  .option('--runs <n>', 'faulted runs', String(DEFAULT_RUNS))
  .option('--scenario <names>', `comma-separated scenario names (${STORY} is the seed story)`)
  .option('--quick', `${QUICK.join(' and ')}, one faulted run each`)
  .option('--request-rate <p>', 'probability of a fault per request', '0.15')
  .parse(process.argv)
  .opts<{ seed?: string; runs: string; scenario?: string; quick?: boolean; requestRate: string }>();

/** One faulted run's outcome. */
interface Outcome {
  subject: string;
  seed: number;
  rates: FaultRates;
  faults: RunResult['faults'];
  faultLog: readonly string[];
  verdict: FaultVerdict;
}

function subjects(): Subject[] {
  const all: Subject[] = [...loadScenarios(cloneSet).map((scenario) => ({ scenario })), { story: true }];
  const names = opts.quick ? QUICK : opts.scenario?.split(',').filter(Boolean);
  if (!names) return all;
  const unknown = names.filter((n) => !all.some((s) => subjectName(s) === n));
  if (unknown.length) throw new Error(`unknown scenario: ${unknown.join(', ')}`);
  return all.filter((s) => names.includes(subjectName(s)));
}

async function main(): Promise<number> {
  const seed = opts.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(opts.seed);
  const random = seededRandom(seed);
  const pool = subjects();
  const runs = opts.quick ? pool.length : Math.max(1, Number(opts.runs));
  // the faulted runs take the subjects in a seeded order, round robin; the subjects they use get a baseline
  const order = [...pool].sort(() => random() - 0.5);
  const plan = Array.from({ length: runs }, (_, i) => ({
    subject: order[i % order.length],
    seed: randomInt(random, 1, 2 ** 31 - 1),
    rates: {
      request: Number(opts.requestRate),
      watch: 0.3,
      ...(i % 3 === 2 || (opts.quick && i === 0) ? { killAfterWrite: randomInt(random, 2, 12) } : {}),
    } satisfies FaultRates,
  }));
  const used = order.filter((s) => plan.some((p) => p.subject === s));
  console.error(
    `[faults] seed ${seed}: ${runs} faulted runs of ${used.length} subjects, each after its baseline`,
  );
  let stage: Stage;
  try {
    stage = await startStage();
  } catch (e) {
    console.error(`faults: the stage did not come up — ${errorMessage(e)}`);
    return 2;
  }
  const outcomes: Outcome[] = [];
  const total = used.length + runs;
  const started = Date.now();
  let done = 0;
  let gates: string | undefined;
  const tick = (what: string): void => {
    done += 1;
    const spent = Date.now() - started;
    const eta = fmtSecs((spent / done) * (total - done));
    console.error(
      `[faults] ${Math.round((done / total) * 100)}% (${done}/${total}) ${what} — ${fmtSecs(spent)}, ETA ${eta}`,
    );
  };
  try {
    // grouped by gates: one reconciler start per group, as the parity runner does
    for (const subject of [...used].sort((a, b) =>
      gatesFlag(subjectGates(a)) < gatesFlag(subjectGates(b)) ? -1 : 1,
    )) {
      const flag = gatesFlag(subjectGates(subject));
      if (flag !== gates) {
        await stage.reconciler.start(subjectGates(subject));
        gates = flag;
      }
      const baseline = await runOnce(stage, subject, 0, NO_FAULTS);
      tick(
        `${subjectName(subject)} baseline${baseline.record.run.error ? `: ${baseline.record.run.error}` : ''}`,
      );
      for (const p of plan.filter((x) => x.subject === subject)) {
        const r = await runOnce(stage, subject, p.seed, p.rates);
        const verdict = judge(baseline.record, r.record);
        const n = FAULT_KINDS.reduce((k, f) => k + r.faults[f], 0);
        outcomes.push({
          subject: subjectName(subject),
          seed: p.seed,
          rates: p.rates,
          faults: r.faults,
          faultLog: r.faultLog,
          verdict,
        });
        const state = verdict.violations.length
          ? `${verdict.violations.length} violations`
          : verdict.converged
            ? 'converged'
            : 'not converged';
        tick(
          `${subjectName(subject)} seed ${p.seed}: ${n} faults${r.faults.kill ? ' (killed)' : ''}, ${state}`,
        );
        for (const v of verdict.violations)
          console.error(`[faults]   violation (${v.invariant}): ${v.detail}`);
        if (!verdict.converged)
          for (const d of verdict.differences.slice(0, 8))
            console.error(
              `[faults]   differs at ${d.path}: ${JSON.stringify(d.reference)} → ${JSON.stringify(d.kruiseless)}`,
            );
      }
    }
  } finally {
    await stage.stop();
  }
  const out = path.join(stage.stateDir, 'faults-last.json');
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ seed, outcomes }, null, 2));
  const faults = outcomes.reduce((n, o) => n + FAULT_KINDS.reduce((k, f) => k + o.faults[f], 0), 0);
  const byKind = FAULT_KINDS.map((f) => `${f} ${outcomes.reduce((n, o) => n + o.faults[f], 0)}`).join(', ');
  const violations = outcomes.reduce((n, o) => n + o.verdict.violations.length, 0);
  const converged = outcomes.filter((o) => o.verdict.converged).length;
  console.error(`[faults] by kind: ${byKind} (full results: ${out})`);
  console.log(
    `faults: ${outcomes.length} runs, ${faults} faults, violations ${violations}, converged ${converged}/${outcomes.length}`,
  );
  return violations > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`faults: failed — ${errorMessage(e)}`);
    process.exit(2);
  },
);
