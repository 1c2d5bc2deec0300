/** The parts of a bench run that `--only` selects from (bench/run.ts). */

/**
 * Every part, in the order the bench runs them. `rollout` is the CloneSet part (CloneSet beside OpenKruise's and
 * the Deployment controller), `asts` the Advanced StatefulSet part (beside OpenKruise's and the StatefulSet
 * controller), `ads` the Advanced DaemonSet part (beside OpenKruise's and the DaemonSet controller).
 */
export const PARTS = ['packaging', 'planner', 'rollout', 'asts', 'ads', 'reaction', 'noop', 'fleet'] as const;

/** A part of a bench run. */
export type Part = (typeof PARTS)[number];

const isPart = (s: string): s is Part => (PARTS as readonly string[]).includes(s);

/**
 * The parts a comma-separated `--only` list selects; every part without one. A name that is no part is refused
 * before anything starts: it used to be dropped in silence, so `--only fleets` started both control planes and
 * wrote a results file with nothing in it.
 * @param only the `--only` value, or undefined
 * @throws Error, one line naming the unknown names and the parts there are
 */
export function selectParts(only: string | undefined): Set<Part> {
  if (only === undefined) return new Set(PARTS);
  const names = only
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = names.filter((n) => !isPart(n));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(
      `bench: --only ${unknown.length > 0 ? `names no part ${unknown.join(', ')}` : 'is empty'}; the parts are ${PARTS.join(', ')}`,
    );
  return new Set(names.filter(isPart));
}
