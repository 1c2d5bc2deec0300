/**
 * `npm run parity`: the scenarios of test/parity/scenarios/<kind>/ run on OpenKruise (the reference) and on
 * Kruiseless, side by side on two local control planes, compared checkpoint by checkpoint. `--kind <kind>` (the
 * lower-case kind name, e.g. `cloneset`) runs one kind's scenarios and ends with
 * `parity: <n> scenarios, <i> identical, <d> deliberate, <x> different`; without it every kind of
 * test/parity/kinds/index.ts runs, and the run ends with one `parity <kind>: …` line per kind and the total
 * `parity: …` line last. Prints progress with an ETA, the table and the differences per kind.
 * Exit code 0 only when nothing is different; 2 (one line) on an unknown kind or a run that could not be made.
 * Before a kind's scenarios, each side gets the cluster setup of the kind's upstream e2e runs (its
 * `upstreamE2e.manifests`, e.g. WorkloadSpread's custom-workload whitelist); a reused reference whose manager started
 * before a setup object last changed is restarted (test/parity/upstreamE2eSetup.ts `applySetupToSide`). `--quick` runs
 * the scenarios marked `quick`; `--if-cached` skips the whole run (exit 0, with the reason printed, recorded as a hollow
 * run: infra/reference/hollow.ts) when the reference binary is not built yet.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { compareRuns, type Verdict } from '../test/parity/compare.js';
import { ParityCluster } from '../test/parity/cluster.js';
import type { ParityKind } from '../test/parity/kind.js';
import { selectKinds, UnknownKindError } from '../test/parity/kinds/index.js';
import { renderReport, summaryLine } from '../test/parity/report.js';
import { runScenario } from '../test/parity/run.js';
import { loadScenarios, type Scenario } from '../test/parity/scenario.js';
import { applySetupToSide, readUpstreamE2eManifests } from '../test/parity/upstreamE2eSetup.js';
import {
  gatesFlag,
  kruiselessStateDir,
  startKruiseless,
  startOpenKruise,
  type Side,
} from '../test/parity/sides.js';
import { openKruiseNotBuiltReason } from '../infra/reference/build.js';
import { recordHollow } from '../infra/reference/hollow.js';
import { openKruisePaths, requestedVersion } from '../infra/reference/settings.js';
import { errorMessage } from '../lib/core/errors.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const opts = new Command('parity')
  .option('--kind <kind>', 'only the scenarios of this kind (lower-case kind name, e.g. cloneset)')
  .option('--quick', 'only the scenarios marked quick (the subset npm test runs)')
  .option('--only <names>', 'comma-separated scenario names')
  .option('--keep', 'keep the scenario namespaces for inspection')
  .option('--if-cached', 'skip (exit 0) with a printed reason when the reference is not built')
  .parse(process.argv)
  .opts<{ kind?: string; quick?: boolean; only?: string; keep?: boolean; ifCached?: boolean }>();

/** One kind's scenarios selected for this run. */
interface KindRun {
  kind: ParityKind;
  scenarios: Scenario[];
}

async function main(): Promise<number> {
  const kinds = selectKinds(opts.kind);
  const version = requestedVersion();
  const notBuilt = opts.ifCached ? await openKruiseNotBuiltReason(version) : undefined;
  if (notBuilt) {
    // the same sentence as the reference suites' (referenceNotBuilt), so the HOLLOW line names it once
    const reason = `${notBuilt}; \`npm run reference:build\` builds it`;
    const suite = opts.quick ? 'parity:quick' : 'parity';
    console.log(`parity: skipped — ${recordHollow({ suite, component: 'openkruise', version, reason })}`);
    return 0;
  }
  const runs = selectScenarios(kinds);
  const total = runs.reduce((n, r) => n + r.scenarios.length, 0);
  const verdicts = new Map<ParityKind, Verdict[]>();
  const started = Date.now();
  let done = 0;
  for (const { kind, scenarios } of runs) {
    console.log(`[parity] ${kind.name}: ${scenarios.length} scenarios`);
    const mine: Verdict[] = [];
    verdicts.set(kind, mine);
    // the cluster setup upstream's e2e makes for the kind (its whitelist, CRDs), read before any side starts
    const setup =
      scenarios.length > 0 && kind.upstreamE2e?.manifests?.length
        ? await readUpstreamE2eManifests(kind.upstreamE2e.manifests, {
            openKruiseDir: openKruisePaths(version).src,
          })
        : [];
    for (const group of byGates(scenarios)) {
      const gates = group[0]?.gates ?? {};
      const [reference, ours] = await Promise.all([startOpenKruise(gates), startKruiseless(gates)]);
      try {
        console.log(`[parity] ${reference.detail} vs ${ours.detail}`);
        const log = (line: string) => console.log(line);
        await Promise.all([
          applySetupToSide(reference, setup, log, { prefix: '[parity]' }),
          applySetupToSide(ours, setup, log, { prefix: '[parity]' }),
        ]);
        for (const s of group) {
          const verdict = await runBoth(kind, s, reference, ours);
          mine.push(verdict);
          done += 1;
          const elapsed = (Date.now() - started) / 1000;
          const eta = Math.round((elapsed / done) * (total - done));
          console.log(
            `[parity] ${Math.round((done / total) * 100)}% (${done}/${total}) ${kind.name}/${s.name}: ${verdict.result} — ETA ${eta} s`,
          );
        }
      } finally {
        await ours.stop();
        await reference.stop();
      }
    }
  }
  const out = path.join(kruiselessStateDir(), 'parity-last.json');
  mkdirSync(path.dirname(out), { recursive: true });
  const byKind = Object.fromEntries([...verdicts].map(([k, v]) => [k.name, v]));
  writeFileSync(out, JSON.stringify(byKind, null, 2));
  for (const [kind, mine] of verdicts) {
    if (!opts.kind) console.log(`${kind.name}:`);
    for (const line of renderReport(mine)) console.log(line);
  }
  console.log(`(full results: ${out})`);
  const all = [...verdicts.values()].flat();
  if (!opts.kind) for (const [kind, mine] of verdicts) console.log(summaryLine(mine, kind.name));
  console.log(summaryLine(all));
  return all.some((v) => v.result === 'different') ? 1 : 0;
}

/**
 * The scenarios of each kind that `--quick` and `--only` select (every kind is listed, possibly with none).
 * @throws Error naming the `--only` names no selected kind has, or a scenario name two kinds share (both would use
 *   namespace `parity-<name>`)
 */
function selectScenarios(kinds: readonly ParityKind[]): KindRun[] {
  const only = opts.only?.split(',').filter(Boolean);
  const runs = kinds.map((kind) => ({
    kind,
    scenarios: loadScenarios(kind).filter((s) => (only ? only.includes(s.name) : !opts.quick || s.quick)),
  }));
  const names = runs.flatMap((r) => r.scenarios.map((s) => s.name));
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length) throw new Error(`scenario names in more than one kind: ${twice.join(', ')}`);
  const unknown = only?.filter((n) => !names.includes(n)) ?? [];
  if (unknown.length) throw new Error(`unknown scenario in --only: ${unknown.join(', ')}`);
  return runs;
}

/** Scenarios grouped by their feature gates, in first-seen order: one controller start per group. */
function byGates(scenarios: readonly Scenario[]): Scenario[][] {
  const groups = new Map<string, Scenario[]>();
  for (const s of scenarios) {
    const key = gatesFlag(s.gates);
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups.values()];
}

async function runBoth(kind: ParityKind, s: Scenario, reference: Side, ours: Side): Promise<Verdict> {
  const [a, b] = await Promise.all([
    runScenario(new ParityCluster(reference.kubeconfig, kind), s, { keep: opts.keep }),
    runScenario(new ParityCluster(ours.kubeconfig, kind), s, { keep: opts.keep }),
  ]);
  // both sides' runs as read, for a reader who wants to see what an identical or different verdict stands on
  const runs = path.join(kruiselessStateDir(), 'parity-runs', kind.name);
  mkdirSync(runs, { recursive: true });
  writeFileSync(path.join(runs, `${s.name}.json`), JSON.stringify({ openkruise: a, kruiseless: b }, null, 2));
  return compareRuns(s.name, a, b, [...s.deliberate, ...kind.deliberate]);
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    const message = errorMessage(e);
    console.error(e instanceof UnknownKindError ? `parity: ${message}` : `parity: failed — ${message}`);
    process.exit(2);
  },
);
