/**
 * Compares the two runs of a scenario (OpenKruise, the reference, and Kruiseless) checkpoint by checkpoint, and
 * sorts each difference into "deliberate" (a path a scenario or the global list names, with a reason) or not.
 */
import diff from 'microdiff';
import type { Deliberate } from './scenario.js';
import type { ScenarioRun } from './run.js';

/** One differing value: its path (`checkpoint.section.…`) and both sides. */
export interface Difference {
  path: string;
  reference: unknown;
  kruiseless: unknown;
  /** The reason, when the difference is deliberate. */
  deliberate?: string;
}

/** The verdict on one scenario. */
export interface Verdict {
  scenario: string;
  result: 'identical' | 'deliberate' | 'different';
  differences: Difference[];
}

/**
 * Compares two runs. A failed step on either side (the run's `error`) is a difference at path `error` unless both
 * sides failed with the same text (the same refusal, test/parity/stepError.ts), deliberate only under an entry whose
 * path is exactly `error` (e.g. a refusal whose text names a different refuser on each side).
 * @param deliberate differences chosen on purpose: the scenario's own plus the global ones
 */
export function compareRuns(
  scenario: string,
  reference: ScenarioRun,
  kruiseless: ScenarioRun,
  deliberate: readonly Deliberate[],
): Verdict {
  const differences: Difference[] = [];
  if ((reference.error || kruiseless.error) && reference.error !== kruiseless.error) {
    // deliberate only where a scenario names `error` itself (a refusal one side makes on purpose), never by a wider
    // pattern: a run that stopped early is otherwise always a difference
    const why = deliberate.find((x) => x.path === 'error');
    differences.push({
      path: 'error',
      reference: reference.error,
      kruiseless: kruiseless.error,
      ...(why ? { deliberate: why.reason } : {}),
    });
  }
  for (const d of diff(reference.checkpoints, kruiseless.checkpoints)) {
    const p = d.path.map(String).join('.');
    const ref = d.type === 'CREATE' ? undefined : d.oldValue;
    const ours = d.type === 'REMOVE' ? undefined : d.value;
    const why = deliberate.find((x) => matchesPath(x.path, p));
    differences.push({
      path: p,
      reference: ref,
      kruiseless: ours,
      ...(why ? { deliberate: why.reason } : {}),
    });
  }
  const result =
    differences.length === 0
      ? 'identical'
      : differences.every((d) => d.deliberate)
        ? 'deliberate'
        : 'different';
  return { scenario, result, differences };
}

/**
 * Whether a difference path falls under a deliberate pattern: dot-separated segments, `*` matches one segment,
 * and a pattern matches every path below it (`edited.pods.*.annotations` covers `edited.pods.0.annotations.x`).
 */
export function matchesPath(pattern: string, p: string): boolean {
  const want = pattern.split('.');
  const got = p.split('.');
  if (got.length < want.length) return false;
  return want.every((w, i) => w === '*' || w === got[i]);
}
