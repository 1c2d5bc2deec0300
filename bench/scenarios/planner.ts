/**
 * Scenario 6, the planner: bench/plan.bench.ts (kept as `npm run bench:plan`) run as a child process, its lines
 * parsed.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** One size's figures as plan.bench.ts prints them. */
export interface PlannerResult {
  pods: number;
  planMs: number;
  jsonRoundTripMs: number;
}

/**
 * Parse plan.bench.ts's output lines (`pods=<n> plan=<ms> ms … JSON round trip=<ms> ms …`); other lines are skipped.
 */
export function parsePlannerOutput(text: string): PlannerResult[] {
  const out: PlannerResult[] = [];
  for (const m of text.matchAll(/^pods=(\d+) plan=([\d.]+) ms .*round trip=([\d.]+) ms/gm))
    out.push({ pods: Number(m[1]), planMs: Number(m[2]), jsonRoundTripMs: Number(m[3]) });
  return out;
}

/** Run plan.bench.ts for `sizes`. */
export function runPlanner(repoRoot: string, sizes: readonly number[]): PlannerResult[] {
  const text = execFileSync(
    path.join(repoRoot, 'node_modules', '.bin', 'tsx'),
    [path.join(repoRoot, 'bench', 'plan.bench.ts'), ...sizes.map(String)],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  return parsePlannerOutput(text);
}
