/**
 * The soak's arithmetic (`npm run soak`, scripts/soak.ts): percentiles of the reaction times, the longest time a
 * watched stream had no open watch, and the one summary line. Pure: the runner (./run.ts) measures, this counts.
 */

/**
 * The `p`-th percentile of `values` by the nearest-rank method (the smallest value with at least p % of the values
 * at or below it), so a p99 is always one of the values seen.
 * @param values any order; not modified
 * @param p 0 < p ≤ 100
 * @returns undefined for no values
 * @throws RangeError when p is outside (0, 100]
 */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile ${p} is not in (0, 100]`);
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1];
}

/** A closed interval of epoch ms (an open watch: from its request to the end of its stream). */
export interface Interval {
  from: number;
  to: number;
}

/**
 * The longest stretch of `[from, to]` covered by none of `intervals`, ms (overlapping watches of one stream, as
 * during a handover, count as one).
 * @param intervals any order, may overlap or reach outside `[from, to]`; an interval still open is given with
 *   `to` = the end of the measurement
 * @returns `to - from` when no interval touches the range; 0 when it is covered throughout
 */
export function longestGap(intervals: readonly Interval[], from: number, to: number): number {
  const sorted = intervals
    .filter((i) => i.to >= from && i.from <= to)
    .map((i) => ({ from: Math.max(i.from, from), to: Math.min(i.to, to) }))
    .sort((a, b) => a.from - b.from);
  let longest = 0;
  let coveredUntil = from;
  for (const i of sorted) {
    longest = Math.max(longest, i.from - coveredUntil);
    coveredUntil = Math.max(coveredUntil, i.to);
  }
  return Math.max(longest, to - coveredUntil);
}

/** What one soak measured. */
export interface SoakFigures {
  /** Length of the edit phase, minutes. */
  minutes: number;
  /** Edits made. */
  edits: number;
  /** Reaction times measured (edit → first write by Kruiseless on the edited CloneSet's objects), ms. */
  reactionsMs: readonly number[];
  /** Longest time with no open watch on any one stream, ms. */
  watchGapMaxMs: number;
  /** Messages in the dead-letter queue at the end. */
  deadLetters: number;
  /** CloneSets whose status matched their spec within the bound after the edits stopped. */
  converged: number;
  clonesets: number;
}

/** Seconds with one decimal, `-` for none. */
function seconds(ms: number | undefined): string {
  return ms === undefined ? '-' : (ms / 1000).toFixed(1);
}

/**
 * The one line a script reads (issue 18):
 * `soak: <m> min, <edits> edits, reaction p50 <x> s p99 <y> s max <z> s, watch gap max <g> s, dlq <d>, converged <k>/<n>`.
 */
export function summaryLine(f: SoakFigures): string {
  const r = f.reactionsMs;
  const max = r.length === 0 ? undefined : Math.max(...r);
  return (
    `soak: ${Number(f.minutes.toFixed(1))} min, ${f.edits} edits, ` +
    `reaction p50 ${seconds(percentile(r, 50))} s p99 ${seconds(percentile(r, 99))} s max ${seconds(max)} s, ` +
    `watch gap max ${seconds(f.watchGapMaxMs)} s, dlq ${f.deadLetters}, converged ${f.converged}/${f.clonesets}`
  );
}

/** Exit code of the soak: 1 when anything reached the DLQ or a CloneSet did not converge (the p99 is only reported). */
export function soakExitCode(f: Pick<SoakFigures, 'deadLetters' | 'converged' | 'clonesets'>): number {
  return f.deadLetters > 0 || f.converged < f.clonesets ? 1 : 0;
}

/**
 * The progress line: `soak: <pct> % (<elapsed> of <total> min), ETA <hh:mm:ss> UTC, <edits> edits, …`.
 * @param elapsedMs time since the edits started
 * @param totalMs length of the edit phase
 * @param now epoch ms (for the ETA)
 */
export function progressLine(elapsedMs: number, totalMs: number, now: number, detail: string): string {
  const pct = Math.min(100, (100 * elapsedMs) / totalMs);
  const eta = new Date(now + Math.max(0, totalMs - elapsedMs)).toISOString().slice(11, 19);
  return `soak: ${pct.toFixed(0)} % (${(elapsedMs / 60_000).toFixed(1)} of ${(totalMs / 60_000).toFixed(0)} min), ETA ${eta} UTC, ${detail}`;
}
