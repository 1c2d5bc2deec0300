/**
 * Results of OpenKruise's own e2e suite (`npm run parity:upstream-e2e`): read from the JSON report the suite's
 * ginkgo writes (`-ginkgo.json-report=<file>`, an array of suite reports whose `SpecReports` hold one entry per
 * node: `It` specs and suite-level setup), and the table comparing the two controllers.
 */
import { z } from 'zod';
import { errorMessage, KruiselessError } from '../../lib/core/errors.js';

/** How one spec ended, as ginkgo spells `State` in its JSON report. */
export type SpecState =
  'passed' | 'failed' | 'skipped' | 'pending' | 'panicked' | 'interrupted' | 'aborted' | 'timedout';

/** One `It` of the suite. */
export interface SpecResult {
  /**
   * container texts and the spec's own text joined by spaces, e.g. `CloneSet CloneSet Scaling scales in normal cases`;
   * read with `byFile`, after the spec file's API-version folder and name, e.g.
   * `v1alpha1/daemonset.go: DaemonSet DaemonSet Basic DaemonSet functionality [DaemonSetBasic] should run and stop simple daemon`
   */
  name: string;
  state: SpecState;
  /** run time, seconds (0 for specs that did not run) */
  seconds: number;
  /** ginkgo's failure message, whitespace collapsed, at most 200 characters, when the spec did not pass */
  failure?: string;
  /** `file.go:line` of the failure, when the spec did not pass */
  where?: string;
}

const LocationSchema = z.object({ FileName: z.string(), LineNumber: z.number() }).partial();

const SpecReportSchema = z.object({
  ContainerHierarchyTexts: z.array(z.string()).nullish(),
  LeafNodeType: z.string(),
  LeafNodeText: z.string().nullish(),
  LeafNodeLocation: LocationSchema.nullish(),
  State: z.enum(['passed', 'failed', 'skipped', 'pending', 'panicked', 'interrupted', 'aborted', 'timedout']),
  RunTime: z.number().nullish(),
  Failure: z.object({ Message: z.string().nullish(), Location: LocationSchema.nullish() }).nullish(),
});

const ReportSchema = z.array(z.object({ SpecReports: z.array(SpecReportSchema).nullish() }));

/** The report is not ginkgo's JSON report. */
export class GinkgoReportError extends KruiselessError {
  constructor(message: string) {
    super(`not a ginkgo JSON report: ${message}`);
    this.name = 'GinkgoReportError';
  }
}

/**
 * `v1alpha1/daemonset.go`: the spec file's last folder and name (of `LeafNodeLocation.FileName`, an absolute path
 * in the suite's source tree); empty when the report has no location.
 */
function specFile(fileName: string | undefined): string {
  return (fileName ?? '').split('/').slice(-2).join('/');
}

/**
 * The `It` specs of a ginkgo v2 JSON report (suite setup nodes dropped), in the order they appear.
 * @param text the file `-ginkgo.json-report` wrote
 * @param ran when true (default), only specs that ran: those the focus filtered out are `skipped` with no run time
 * @param byFile when true, each name starts with its spec file (`v1alpha1/daemonset.go: …`): a kind whose specs
 *   come from two files with the same spec names (OpenKruise's v1alpha1 and v1beta1 DaemonSet files) keeps a row each
 * @throws GinkgoReportError when the text is not JSON or not shaped like ginkgo's report
 */
export function parseGinkgoReport(text: string, ran = true, byFile = false): SpecResult[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new GinkgoReportError(errorMessage(e));
  }
  const parsed = ReportSchema.safeParse(json);
  if (!parsed.success) throw new GinkgoReportError(parsed.error.issues[0]?.message ?? 'unexpected shape');
  const out: SpecResult[] = [];
  for (const suite of parsed.data) {
    for (const r of suite.SpecReports ?? []) {
      if (r.LeafNodeType !== 'It') continue;
      const runTime = r.RunTime ?? 0;
      if (ran && r.State === 'skipped' && runTime === 0) continue;
      const name = [...(r.ContainerHierarchyTexts ?? []), r.LeafNodeText ?? ''].join(' ').trim();
      const result: SpecResult = {
        name: byFile ? `${specFile(r.LeafNodeLocation?.FileName ?? undefined)}: ${name}` : name,
        state: r.State,
        seconds: Math.round(runTime / 1e8) / 10,
      };
      if (r.State !== 'passed' && r.Failure?.Message) {
        result.failure = r.Failure.Message.replace(/\s+/g, ' ').trim().slice(0, 200);
        const loc = r.Failure.Location;
        if (loc?.FileName) result.where = `${loc.FileName.split('/').pop() ?? ''}:${loc.LineNumber ?? 0}`;
      }
      out.push(result);
    }
  }
  return out;
}

/** The results of each controller that ran (absent: not run). */
export interface UpstreamE2eRuns {
  openkruise?: readonly SpecResult[];
  kruiseless?: readonly SpecResult[];
}

/** One row of the table. */
export interface UpstreamE2eRow {
  spec: string;
  openkruise?: SpecState;
  kruiseless?: SpecState;
}

/** Spec → state on each controller, specs in the order of the first run that has them. */
export function upstreamE2eRows(runs: UpstreamE2eRuns): UpstreamE2eRow[] {
  const rows = new Map<string, UpstreamE2eRow>();
  const row = (spec: string): UpstreamE2eRow => {
    const r = rows.get(spec) ?? { spec };
    rows.set(spec, r);
    return r;
  };
  for (const s of runs.openkruise ?? []) row(s.name).openkruise = s.state;
  for (const s of runs.kruiseless ?? []) row(s.name).kruiseless = s.state;
  return [...rows.values()];
}

/** The table as lines: spec, then `pass`/`FAIL (<state>)`/`-` (not run) for OpenKruise and Kruiseless. */
export function renderUpstreamE2eTable(runs: UpstreamE2eRuns): string[] {
  const rows = upstreamE2eRows(runs);
  const width = Math.max(4, ...rows.map((r) => r.spec.length));
  const cell = (s: SpecState | undefined): string =>
    s === undefined ? '-' : s === 'passed' ? 'pass' : `FAIL (${s})`;
  const lines = [
    `${'spec'.padEnd(width)}  ${'OpenKruise'.padEnd(18)}  Kruiseless`,
    `${'-'.repeat(width)}  ${'-'.repeat(18)}  ${'-'.repeat(18)}`,
  ];
  for (const r of rows)
    lines.push(`${r.spec.padEnd(width)}  ${cell(r.openkruise).padEnd(18)}  ${cell(r.kruiseless)}`);
  return lines;
}

/**
 * `upstream-e2e: <n> specs, OpenKruise <a> passed, Kruiseless <b> passed, <c> pass on OpenKruise only`
 * (n: specs run on either controller; c: passed on OpenKruise and not on Kruiseless): the total line (or the one
 * line of a `--kind` run); with `kind`, one kind's line of a run of every kind: `upstream-e2e <kind>: …`.
 * @param runs one kind's runs, or several kinds' (their rows added up: each kind has its own spec file)
 */
export function upstreamE2eSummary(
  runs: UpstreamE2eRuns | readonly UpstreamE2eRuns[],
  kind?: string,
): string {
  const rows = (Array.isArray(runs) ? runs : [runs]).flatMap((r: UpstreamE2eRuns) => upstreamE2eRows(r));
  const passed = (k: 'openkruise' | 'kruiseless'): number => rows.filter((r) => r[k] === 'passed').length;
  const only = rows.filter((r) => r.openkruise === 'passed' && r.kruiseless !== 'passed').length;
  return `upstream-e2e${kind ? ` ${kind}` : ''}: ${rows.length} specs, OpenKruise ${passed('openkruise')} passed, Kruiseless ${passed('kruiseless')} passed, ${only} pass on OpenKruise only`;
}
