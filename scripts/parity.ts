/**
 * `npm run parity`: every scenario of test/parity/scenarios run on OpenKruise (the reference) and on Kruiseless,
 * side by side on two local control planes, compared checkpoint by checkpoint. Prints progress with an ETA, the
 * table, the differences, and ends with `parity: <n> scenarios, <i> identical, <d> deliberate, <x> different`.
 * Exit code 0 only when nothing is different. `--quick` runs the scenarios marked `quick`; `--if-cached` skips
 * the whole run (exit 0, with the reason printed) when the reference binary is not built yet.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { parse } from 'yaml';
import { z } from 'zod';
import { compareRuns, type Verdict } from '../test/parity/compare.js';
import { ParityCluster } from '../test/parity/cluster.js';
import { renderReport, summaryLine } from '../test/parity/report.js';
import { runScenario } from '../test/parity/run.js';
import { DeliberateSchema, loadScenarios, SCENARIO_DIR, type Scenario } from '../test/parity/scenario.js';
import {
  gatesFlag,
  kruiselessStateDir,
  startKruiseless,
  startOpenKruise,
  type Side,
} from '../test/parity/sides.js';
import { openKruiseUpToDate } from '../infra/reference/build.js';
import { requestedVersion } from '../infra/reference/settings.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const opts = new Command('parity')
  .option('--quick', 'only the scenarios marked quick (the subset npm test runs)')
  .option('--only <names>', 'comma-separated scenario names')
  .option('--keep', 'keep the scenario namespaces for inspection')
  .option('--if-cached', 'skip (exit 0) with a printed reason when the reference is not built')
  .parse(process.argv)
  .opts<{ quick?: boolean; only?: string; keep?: boolean; ifCached?: boolean }>();

const globalDeliberate = z
  .array(DeliberateSchema)
  .parse(parse(readFileSync(path.join(SCENARIO_DIR, '..', 'deliberate.yaml'), 'utf8')));

async function main(): Promise<number> {
  if (opts.ifCached && !(await openKruiseUpToDate(requestedVersion()))) {
    console.log(
      'parity: skipped — the OpenKruise reference is not built (run `npm run reference:build`, ~5 min)',
    );
    return 0;
  }
  const only = opts.only?.split(',').filter(Boolean);
  const scenarios = loadScenarios().filter((s) => (only ? only.includes(s.name) : !opts.quick || s.quick));
  if (only && scenarios.length !== only.length)
    throw new Error(`unknown scenario in --only ${opts.only ?? ''}`);
  // one controller start per distinct set of feature gates
  const groups = new Map<string, Scenario[]>();
  for (const s of scenarios) {
    const key = gatesFlag(s.gates);
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const verdicts: Verdict[] = [];
  const started = Date.now();
  let done = 0;
  for (const group of groups.values()) {
    const gates = group[0]?.gates ?? {};
    const [reference, ours] = await Promise.all([startOpenKruise(gates), startKruiseless(gates)]);
    try {
      console.log(`[parity] ${reference.detail} vs ${ours.detail}`);
      for (const s of group) {
        verdicts.push(await runBoth(s, reference, ours));
        done += 1;
        const elapsed = (Date.now() - started) / 1000;
        const eta = Math.round((elapsed / done) * (scenarios.length - done));
        const last = verdicts[verdicts.length - 1];
        console.log(
          `[parity] ${Math.round((done / scenarios.length) * 100)}% (${done}/${scenarios.length}) ${s.name}: ${last?.result ?? '?'} — ETA ${eta} s`,
        );
      }
    } finally {
      await ours.stop();
      await reference.stop();
    }
  }
  const out = path.join(kruiselessStateDir(), 'parity-last.json');
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(verdicts, null, 2));
  for (const line of renderReport(verdicts)) console.log(line);
  console.log(`(full results: ${out})`);
  console.log(summaryLine(verdicts));
  return verdicts.some((v) => v.result === 'different') ? 1 : 0;
}

async function runBoth(s: Scenario, reference: Side, ours: Side): Promise<Verdict> {
  const [a, b] = await Promise.all([
    runScenario(new ParityCluster(reference.kubeconfig), s, { keep: opts.keep }),
    runScenario(new ParityCluster(ours.kubeconfig), s, { keep: opts.keep }),
  ]);
  return compareRuns(s.name, a, b, [...s.deliberate, ...globalDeliberate]);
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`parity: failed — ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  },
);
