/**
 * `npm run parity:upstream-e2e`: OpenKruise's own e2e specs of a kind (its suite binary, built and cached by
 * infra/reference/build.ts; the kind's spec files from its ParityKind's `upstreamE2e`, for CloneSet
 * `test/e2e/apps/v1alpha1/cloneset.go`, for Advanced DaemonSet both `apps/v1alpha1/daemonset.go` and
 * `apps/v1beta1/daemonset.go`, run as one suite run) run against OpenKruise v1.9.0 (the reference, `npm run reference:up`) and
 * against Kruiseless (`kruiseless local` on its own control plane), one after the other, with the gates OpenKruise's
 * own install uses (`AllAlpha=true,AllBeta=true`), each side first given the kind's share of upstream's e2e setup
 * (its `upstreamE2e.manifests`, e.g. WorkloadSpread's TFJob CRD and `test/kruise-e2e-config.yaml`:
 * test/parity/upstreamE2eSetup.ts, one `[upstream-e2e] <side>: applied <kind>/<name>` line per object). Prints
 * progress per spec with an ETA, the table spec → result per controller, and `--kind <kind>` ends with `upstream-e2e: <n> specs, OpenKruise <a> passed, Kruiseless <b> passed,
 * <c> pass on OpenKruise only`; without `--kind` every kind with specs runs, and the run ends with one
 * `upstream-e2e <kind>: …` line per kind and the total line last. Each kind's report goes to
 * `<parity state dir>/upstream-e2e/<kind>/report.txt` too. Exit code 2 (one line) on an unknown kind or a failure.
 * Options: `--kind <kind>`, `--controller openkruise|kruiseless|both`, `--focus <regex>` (spec names),
 * `--skip <regex>` (spec names left out), `--gates <list>`, `--file <path>` (another spec file of OpenKruise's suite in
 * place of the kind's, e.g. `test/e2e/apps/v1beta1/cloneset.go`). A full run (no --focus, --skip or --file) stores each
 * controller's results, so a later run of one controller is tabled with the other's last full run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { ensureOpenKruiseE2e } from '../infra/reference/build.js';
import type { ParityKind } from '../test/parity/kind.js';
import { selectKinds, UnknownKindError } from '../test/parity/kinds/index.js';
import { runUpstreamE2e } from '../test/parity/upstreamE2e.js';
import {
  applySetupToSide,
  readUpstreamE2eManifests,
  type SetupManifestFile,
} from '../test/parity/upstreamE2eSetup.js';
import { startExtraControllers, type ExtraControllers } from '../test/parity/extraControllers.js';
import {
  parseGinkgoReport,
  renderUpstreamE2eTable,
  upstreamE2eSummary,
  type SpecResult,
  type UpstreamE2eRuns,
} from '../test/parity/upstreamE2eReport.js';
import { kruiselessStateDir, startKruiseless, startOpenKruise, type Side } from '../test/parity/sides.js';
import { errorMessage } from '../lib/core/errors.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** OpenKruise's own e2e install: every alpha and beta gate on, and (as it generates its own webhook certificates) EnableExternalCerts off. */
const DEFAULT_GATES = 'AllAlpha=true,AllBeta=true,EnableExternalCerts=false';

const opts = new Command('upstream-e2e')
  .option('--kind <kind>', "only this kind's specs (lower-case kind name, e.g. cloneset)")
  .addOption(
    new Option('--controller <which>', 'which controller to test')
      .choices(['openkruise', 'kruiseless', 'both'])
      .default('both'),
  )
  .option('--focus <regex>', 'only the specs whose name matches (ginkgo -focus)')
  .option('--skip <regex>', 'leave out the specs whose name matches (ginkgo -skip)')
  .option('--gates <list>', 'feature gates for both controllers', DEFAULT_GATES)
  .option('--file <path>', "another spec file of OpenKruise's suite in place of the kind's (test/e2e/….go)")
  .parse(process.argv)
  .opts<{
    kind?: string;
    controller: 'openkruise' | 'kruiseless' | 'both';
    focus?: string;
    skip?: string;
    gates: string;
    file?: string;
  }>();

if (opts.file !== undefined && (!/^test\/e2e\/[\w/.-]+\.go$/.test(opts.file) || opts.file.includes('..'))) {
  console.error(`upstream-e2e: --file "${opts.file}" is not a spec file of the suite (test/e2e/<path>.go)`);
  process.exit(2);
}

/** A run narrowed by --focus, --skip or --file: its files get a `-focus` suffix and it is not stored as a full run. */
const narrowed = Boolean(opts.focus ?? opts.skip ?? opts.file);

/** Where one kind's reports, logs and table go. */
const outDir = (kind: ParityKind): string => path.join(kruiselessStateDir(), 'upstream-e2e', kind.name);

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
  kind: ParityKind,
  name: 'openkruise' | 'kruiseless',
  binary: string,
  gates: Record<string, boolean>,
  setup: readonly SetupManifestFile[],
): Promise<SpecResult[]> {
  const t0 = Date.now();
  const specs = specsOf(kind);
  console.log(`[upstream-e2e] ${kind.name}: starting ${name}`);
  const side: Side = name === 'openkruise' ? await startOpenKruise(gates) : await startKruiseless(gates);
  let extra: ExtraControllers | undefined;
  try {
    console.log(`[upstream-e2e] ${side.detail} up in ${Math.round((Date.now() - t0) / 1000)} s`);
    await applySetupToSide(side, setup, (l) => console.log(l));
    const suffix = narrowed ? '-focus' : '';
    if (specs.kcmControllers) {
      const log = path.join(outDir(kind), `${name}${suffix}-kcm.log`);
      extra = await startExtraControllers(side.kubeconfig, specs.kcmControllers, log);
      console.log(`[upstream-e2e] ${name}: also running ${specs.kcmControllers.join(', ')} (log: ${log})`);
    }
    const results = await runUpstreamE2e({
      binary,
      kubeconfig: side.kubeconfig,
      focusFiles: specFiles(kind),
      focus: opts.focus ?? specs.focus,
      skip: opts.skip,
      reportFile: path.join(outDir(kind), `${name}${suffix}.json`),
      logFile: path.join(outDir(kind), `${name}${suffix}.log`),
      label: `${kind.name} ${name}`,
      progress: (l) => console.log(l),
    });
    console.log(`[upstream-e2e] ${name} finished in ${Math.round((Date.now() - t0) / 60000)} min`);
    return results;
  } finally {
    await extra?.stop();
    await side.stop();
  }
}

/** The kind's OpenKruise e2e specs. @throws Error when it has none */
function specsOf(kind: ParityKind): NonNullable<ParityKind['upstreamE2e']> {
  if (!kind.upstreamE2e) throw new Error(`${kind.name} has no OpenKruise e2e specs`);
  return kind.upstreamE2e;
}

/** The spec files a run of `kind` runs: `--file`, else the kind's own. @throws as {@link specsOf} */
function specFiles(kind: ParityKind): string[] {
  return opts.file !== undefined ? [opts.file] : specsOf(kind).focusFiles;
}

/** The last full run of `name` for `kind`, when one was stored. */
function lastFullRun(kind: ParityKind, name: 'openkruise' | 'kruiseless'): SpecResult[] | undefined {
  const file = path.join(outDir(kind), `${name}.json`);
  return existsSync(file)
    ? parseGinkgoReport(readFileSync(file, 'utf8'), true, specsOf(kind).focusFiles.length > 1)
    : undefined;
}

/** Runs one kind's specs on the controllers asked for; prints and writes its report. @returns its runs */
async function runKind(
  kind: ParityKind,
  binary: string,
  moduleDir: string,
  gates: Record<string, boolean>,
): Promise<UpstreamE2eRuns> {
  mkdirSync(outDir(kind), { recursive: true });
  // read (and downloaded) before a side starts, so that a missing module or file fails the run at once
  const setup = await readUpstreamE2eManifests(specsOf(kind).manifests ?? [], { openKruiseDir: moduleDir });
  const runs: UpstreamE2eRuns = {};
  const notes: string[] = [];
  for (const name of ['openkruise', 'kruiseless'] as const) {
    if (opts.controller === name || opts.controller === 'both')
      runs[name] = await runOn(kind, name, binary, gates, setup);
    else if (!narrowed && (runs[name] = lastFullRun(kind, name))) {
      notes.push(`(${name}: last full run, ${path.join(outDir(kind), `${name}.json`)})`);
    }
  }
  const lines = [
    `OpenKruise e2e suite, ${kind.name} (${specFiles(kind).join(', ')}), gates ${opts.gates}${opts.focus ? `, focus ${opts.focus}` : ''}${opts.skip ? `, skip ${opts.skip}` : ''}`,
    ...renderUpstreamE2eTable(runs),
    ...notes,
    upstreamE2eSummary(runs),
  ];
  const report = path.join(outDir(kind), narrowed ? 'report-focus.txt' : 'report.txt');
  writeFileSync(report, `${lines.join('\n')}\n`);
  for (const l of lines.slice(0, -1)) console.log(l);
  console.log(`(report: ${report})`);
  return runs;
}

async function main(): Promise<number> {
  const selected = selectKinds(opts.kind);
  // a kind asked for by name must have specs; a run of every kind leaves out those without
  if (opts.kind) for (const k of selected) specsOf(k);
  const kinds = selected.filter((k) => k.upstreamE2e);
  const gates = gateMap(opts.gates);
  const { binary, moduleDir } = await ensureOpenKruiseE2e();
  const perKind: [ParityKind, UpstreamE2eRuns][] = [];
  for (const kind of kinds) perKind.push([kind, await runKind(kind, binary, moduleDir, gates)]);
  if (!opts.kind) for (const [kind, runs] of perKind) console.log(upstreamE2eSummary(runs, kind.name));
  console.log(upstreamE2eSummary(perKind.map(([, runs]) => runs)));
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    const message = errorMessage(e);
    console.error(
      e instanceof UnknownKindError ? `upstream-e2e: ${message}` : `upstream-e2e: failed — ${message}`,
    );
    process.exit(2);
  },
);
