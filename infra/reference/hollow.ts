/**
 * Hollow runs: a suite that needs an optional build (the OpenKruise reference, kubectl-kruise, or the control plane
 * the reference runs on) and did not really run because it is not built — it only checked its skip message. Each
 * such suite records itself in a ledger (a JSON-lines file named by env `KRUISELESS_HOLLOW_LEDGER`, which `.ci/run`
 * sets); at the end `scripts/hollow.ts` turns the ledger and the builds' recorded outcomes (buildStatus.ts) into
 * ONE loud line, and under `CI=true` fails the run unless every missing build failed because the registry was
 * unreachable.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { failureSummary, readBuildStatus, type BuildComponent, type BuildStatus } from './buildStatus.js';

/** What a hollow suite was missing: a component with a recorded build, or the control plane's binaries. */
export type HollowComponent = BuildComponent | 'control-plane';

const HollowSuiteSchema = z.object({
  /** the suite's short name, e.g. `reference`, `switch`, `kubectl-kruise`, `parity:quick` */
  suite: z.string().min(1),
  component: z.enum(['openkruise', 'kubectl-kruise', 'control-plane']),
  /** the version of `component` the suite needed (a recorded build of another version does not explain it) */
  version: z.string().optional(),
  /** the suite's own skip reason, e.g. `OpenKruise v1.9.0 is not built (no …/.stamp); …` */
  reason: z.string(),
});

/** One suite that did not really run. */
export type HollowSuite = z.infer<typeof HollowSuiteSchema>;

/** Env naming the ledger file; unset: nothing is recorded (a developer's run). */
export const HOLLOW_LEDGER_ENV = 'KRUISELESS_HOLLOW_LEDGER';

/** How each component is named in the line, in the line's order. */
const TITLES: Record<HollowComponent, string> = {
  openkruise: 'OpenKruise',
  'control-plane': 'control plane',
  'kubectl-kruise': 'kubectl-kruise',
};

/**
 * The last build's outcome, for a skip message: `` when none was recorded, else e.g.
 * ` (last build 2026-12-01T10:00:00.000Z: failed, registry unreachable: dial tcp: lookup proxy.golang.org: no such host)`.
 */
export function lastBuildNote(status: BuildStatus | undefined): string {
  if (!status) return '';
  const what =
    status.outcome === 'building'
      ? 'did not finish'
      : status.outcome === 'failed'
        ? `failed, ${causeText(status)}`
        : status.fallback
          ? `built ${status.fallback} instead, ${causeText(status)}`
          : `built ${status.version}`;
  return ` (last build ${status.at}: ${what})`;
}

/**
 * Records that `entry.suite` did not really run (appends one line to the ledger when `KRUISELESS_HOLLOW_LEDGER` is
 * set) and returns what the suite's skip test should be named after: its reason and the last recorded build's
 * outcome (buildStatus.ts; the control plane records none).
 */
export function recordHollow(entry: HollowSuite): string {
  const ledger = process.env[HOLLOW_LEDGER_ENV];
  if (ledger) fs.appendFileSync(ledger, `${JSON.stringify(entry)}\n`);
  const status = entry.component === 'control-plane' ? undefined : readBuildStatus(entry.component);
  return `${entry.reason}${lastBuildNote(statusFor(entry, status))}`;
}

/**
 * The suites of a ledger file, in the order they were recorded (a missing file: none).
 * @throws Error naming the line when a line is not a recorded suite
 */
export function readHollowLedger(file: string): HollowSuite[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const parsed = HollowSuiteSchema.safeParse(JSON.parse(l));
      if (!parsed.success) throw new Error(`${file}:${i + 1}: not a hollow suite record`);
      return parsed.data;
    });
}

/** What a hollow run comes to. */
export interface HollowVerdict {
  /** `HOLLOW: <suites> did not run: <why, per missing component> — <what CI does about it>` */
  line: string;
  /** true when the run must fail: under CI, and a missing build is not excused by an unreachable registry */
  fail: boolean;
}

/**
 * Whether a missing component is excused: its last recorded build failed (or fell back to another version)
 * because the registry was unreachable. No record, a build that did not finish, or any other failure is not.
 */
export function excused(status: BuildStatus | undefined): boolean {
  return (
    status?.cause === 'registry-unreachable' && (status.outcome === 'failed' || Boolean(status.fallback))
  );
}

/** Suites in the order the line names them (the order `.ci/run` runs them); others follow, sorted. */
const SUITE_ORDER = [
  'reference',
  'switch',
  'kubectl-kruise',
  'kubectl-kruise-asts',
  'parity:quick',
  'parity',
];

function bySuiteOrder(a: string, b: string): number {
  const rank = (s: string): number => (SUITE_ORDER.includes(s) ? SUITE_ORDER.indexOf(s) : SUITE_ORDER.length);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The one line a hollow run prints, and whether it fails:
 * `HOLLOW: <suites> did not run: <why> — <verdict>`. Suites are grouped by the component they miss (OpenKruise,
 * control plane, kubectl-kruise); each group says why that component is missing (its recorded build's failure when
 * there is one, else the suites' own reason), followed by its suites in brackets when there is more than one group.
 * @param suites the ledger (a suite recorded twice counts once)
 * @param statuses the recorded builds
 * @param ci whether the run is CI's (`CI=true`)
 * @returns undefined when every suite really ran
 */
export function hollowVerdict(
  suites: readonly HollowSuite[],
  statuses: Partial<Record<BuildComponent, BuildStatus>>,
  ci: boolean,
): HollowVerdict | undefined {
  if (suites.length === 0) return undefined;
  const groups = (Object.keys(TITLES) as HollowComponent[])
    .map((component) => {
      const mine = suites.filter((s) => s.component === component);
      const names = [...new Set(mine.map((s) => s.suite))].sort(bySuiteOrder);
      const first = mine[0];
      const status =
        component === 'control-plane' || !first ? undefined : statusFor(first, statuses[component]);
      return { component, names, status, reason: first?.reason ?? '' };
    })
    .filter((g) => g.names.length > 0);
  const why = groups.map(
    (g) =>
      `${missing(g.component, g.status, g.reason)}${groups.length > 1 ? ` [${g.names.join(', ')}]` : ''}`,
  );
  const allExcused = groups.every((g) => excused(g.status));
  const verdict = allExcused
    ? 'not failing: the registry is unreachable'
    : ci
      ? 'failing (CI=true): only an unreachable registry excuses a hollow run'
      : 'CI=true would fail: only an unreachable registry excuses a hollow run';
  const names = [...new Set(groups.flatMap((g) => g.names))].sort(bySuiteOrder);
  return {
    line: `HOLLOW: ${names.join(', ')} did not run: ${why.join('; ')} — ${verdict}`,
    fail: ci && !allExcused,
  };
}

/** `status` when it is of the version `suite` needed (or the suite named none), else undefined. */
function statusFor(suite: HollowSuite, status: BuildStatus | undefined): BuildStatus | undefined {
  return status && (suite.version === undefined || suite.version === status.version) ? status : undefined;
}

/** Why one component is missing, e.g. `OpenKruise v1.9.0 not built: registry unreachable (dial tcp …)`. */
function missing(component: HollowComponent, status: BuildStatus | undefined, reason: string): string {
  if (!status) return component === 'control-plane' ? reason : `${reason} (no build recorded)`;
  const title = `${TITLES[component]} ${status.version}`;
  switch (status.outcome) {
    case 'building':
      return `${title}: its build did not finish (started ${status.at})`;
    case 'failed':
      return `${title} not built: ${causeText(status)}`;
    case 'built':
      return status.fallback
        ? `${title} not built (built ${status.fallback} instead): ${causeText(status)}`
        : reason;
  }
}

/** `registry unreachable (<line>)` or `build failed (<line>)` of a recorded failure. */
function causeText(status: BuildStatus): string {
  const cause = status.cause === 'registry-unreachable' ? 'registry unreachable' : 'build failed';
  return status.error ? `${cause} (${failureSummary(status.error)})` : cause;
}
