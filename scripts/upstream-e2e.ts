/**
 * `npm run parity:upstream-e2e`: OpenKruise's own CloneSet e2e specs (its suite binary, built and cached by
 * infra/reference/build.ts) run against OpenKruise v1.9.0 (the reference, `npm run reference:up`) and against
 * Kruiseless (`kruiseless local` on its own control plane), one after the other, with the gates OpenKruise's own
 * install uses (`AllAlpha=true,AllBeta=true`). Prints progress per spec with an ETA, the table spec → result per
 * controller, and ends with `upstream-e2e: <n> specs, OpenKruise <a> passed, Kruiseless <b> passed, <c> pass on
 * OpenKruise only`. The report goes to `<parity state dir>/upstream-e2e/report.txt` too.
 * Options: `--controller openkruise|kruiseless|both`, `--focus <regex>` (spec names), `--gates <list>`.
 * A full run (no --focus) stores each controller's results, so a later run of one controller is tabled with the
 * other's last full run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { ensureOpenKruiseE2e } from '../infra/reference/build.js';
import { runUpstreamE2e } from '../test/parity/upstreamE2e.js';
import {
  parseGinkgoReport,
  renderUpstreamE2eTable,
  upstreamE2eSummary,
  type SpecResult,
  type UpstreamE2eRuns,
} from '../test/parity/upstreamE2eReport.js';
import { kruiselessStateDir, startKruiseless, startOpenKruise, type Side } from '../test/parity/sides.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** OpenKruise's own e2e install: every alpha and beta gate on, and (as it generates its own webhook certificates) EnableExternalCerts off. */
const DEFAULT_GATES = 'AllAlpha=true,AllBeta=true,EnableExternalCerts=false';

const opts = new Command('upstream-e2e')
  .addOption(
    new Option('--controller <which>', 'which controller to test')
      .choices(['openkruise', 'kruiseless', 'both'])
      .default('both'),
  )
  .option('--focus <regex>', 'only the specs whose name matches (ginkgo -focus)')
  .option('--gates <list>', 'feature gates for both controllers', DEFAULT_GATES)
  .parse(process.argv)
  .opts<{ controller: 'openkruise' | 'kruiseless' | 'both'; focus?: string; gates: string }>();

const outDir = (): string => path.join(kruiselessStateDir(), 'upstream-e2e');

/** `A=true,B=false` as a map (the parity sides take gates so). */
function gateMap(list: string): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const item of list.split(',').filter((s) => s.trim())) {
    const [k, v] = item.split('=');
    if (!k || (v !== 'true' && v !== 'false')) throw new Error(`--gates: "${item}" is not Name=true|false`);
    out[k.trim()] = v === 'true';
  }
  return out;
}

async function runOn(
  name: 'openkruise' | 'kruiseless',
  binary: string,
  gates: Record<string, boolean>,
): Promise<SpecResult[]> {
  const t0 = Date.now();
  console.log(`[upstream-e2e] starting ${name}`);
  const side: Side = name === 'openkruise' ? await startOpenKruise(gates) : await startKruiseless(gates);
  try {
    console.log(`[upstream-e2e] ${side.detail} up in ${Math.round((Date.now() - t0) / 1000)} s`);
    const suffix = opts.focus ? '-focus' : '';
    const specs = await runUpstreamE2e({
      binary,
      kubeconfig: side.kubeconfig,
      focus: opts.focus,
      reportFile: path.join(outDir(), `${name}${suffix}.json`),
      logFile: path.join(outDir(), `${name}${suffix}.log`),
      label: name,
      progress: (l) => console.log(l),
    });
    console.log(`[upstream-e2e] ${name} finished in ${Math.round((Date.now() - t0) / 60000)} min`);
    return specs;
  } finally {
    await side.stop();
  }
}

/** The last full run of `name`, when one was stored. */
function lastFullRun(name: 'openkruise' | 'kruiseless'): SpecResult[] | undefined {
  const file = path.join(outDir(), `${name}.json`);
  return existsSync(file) ? parseGinkgoReport(readFileSync(file, 'utf8')) : undefined;
}

async function main(): Promise<number> {
  const gates = gateMap(opts.gates);
  const { binary } = await ensureOpenKruiseE2e();
  mkdirSync(outDir(), { recursive: true });
  const runs: UpstreamE2eRuns = {};
  const notes: string[] = [];
  for (const name of ['openkruise', 'kruiseless'] as const) {
    if (opts.controller === name || opts.controller === 'both') runs[name] = await runOn(name, binary, gates);
    else if (!opts.focus && (runs[name] = lastFullRun(name))) {
      notes.push(`(${name}: last full run, ${path.join(outDir(), `${name}.json`)})`);
    }
  }
  const lines = [
    `OpenKruise e2e suite, gates ${opts.gates}${opts.focus ? `, focus ${opts.focus}` : ''}`,
    ...renderUpstreamE2eTable(runs),
    ...notes,
    upstreamE2eSummary(runs),
  ];
  const report = path.join(outDir(), opts.focus ? 'report-focus.txt' : 'report.txt');
  writeFileSync(report, `${lines.join('\n')}\n`);
  for (const l of lines.slice(0, -1)) console.log(l);
  console.log(`(report: ${report})`);
  console.log(lines[lines.length - 1]);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`upstream-e2e: failed — ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  },
);
