/**
 * The parity report: a table scenario → result, the differences of every scenario that is not identical, and the
 * summary lines scripts read (one per kind when several ran, and the total last).
 */
import type { Verdict } from './compare.js';

/** Longest value rendering in a difference line. */
const MAX_VALUE = 160;

/** The table and the differences, as lines. */
export function renderReport(verdicts: readonly Verdict[]): string[] {
  const width = Math.max(8, ...verdicts.map((v) => v.scenario.length));
  const lines = [`${'scenario'.padEnd(width)}  result`, `${'-'.repeat(width)}  ----------`];
  for (const v of verdicts) lines.push(`${v.scenario.padEnd(width)}  ${v.result}`);
  for (const v of verdicts.filter((x) => x.result !== 'identical')) {
    lines.push('', `${v.scenario}: ${v.result}`);
    for (const d of v.differences) {
      const tag = d.deliberate ? `deliberate (${d.deliberate})` : 'DIFFERENT';
      lines.push(`  ${d.path}: ${tag}`);
      lines.push(`    openkruise: ${show(d.reference)}`);
      lines.push(`    kruiseless: ${show(d.kruiseless)}`);
    }
  }
  return lines;
}

/**
 * `parity: <n> scenarios, <i> identical, <d> deliberate, <x> different`: the total line (or the one line of a
 * `--kind` run); with `kind`, one kind's line of a run of every kind: `parity <kind>: <n> scenarios, …`.
 */
export function summaryLine(verdicts: readonly Verdict[], kind?: string): string {
  const count = (r: Verdict['result']): number => verdicts.filter((v) => v.result === r).length;
  return `parity${kind ? ` ${kind}` : ''}: ${verdicts.length} scenarios, ${count('identical')} identical, ${count('deliberate')} deliberate, ${count('different')} different`;
}

function show(v: unknown): string {
  const s = v === undefined ? '(absent)' : JSON.stringify(v);
  return s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE)}…` : s;
}
