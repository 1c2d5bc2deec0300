/**
 * OpenKruise: Kubernetes pkg/controller/history `FindEqualRevisions` and `EqualRevision`, as the workloads' sync
 * functions use them to settle on their newest revision (OpenKruise's SidecarSet `registerLatestRevision`, the
 * same steps as DaemonSet's and StatefulSet's `getStatefulSetRevisions`).
 *
 * Which ControllerRevision a workload's current spec is, given its history: the newest one if its data is the
 * spec's, an older equal one moved to the top (a roll back), or a new one. Pure; the caller writes the outcome.
 */
import type { ControllerRevision } from '../../api/types.js';
import { goJson } from './goJson.js';
import { revisionsEqual } from './history.js';

/** What a workload does to make its current spec the newest revision. */
export type LatestRevisionChoice =
  /** The newest revision already holds the spec: nothing to write. */
  | { action: 'reuse'; revision: ControllerRevision }
  /**
   * An older revision holds the spec: it is written back with `revision` set to the next number (the returned
   * object, a copy of the stored one with the new number).
   */
  | { action: 'renumber'; revision: ControllerRevision; from: ControllerRevision }
  /** No revision holds the spec: the candidate is created (its name may still move on a collision). */
  | { action: 'create'; revision: ControllerRevision };

/** The number a new revision gets: 1 + the highest of `sorted` (ascending by `revision`), 1 when empty. */
export function nextRevisionNumber(sorted: readonly ControllerRevision[]): number {
  return sorted.length > 0 ? sorted[sorted.length - 1].revision + 1 : 1;
}

/**
 * The choice (see {@link LatestRevisionChoice}) for `candidate`, a revision built from the live spec with number
 * {@link nextRevisionNumber}: among the revisions equal to it (same data bytes, hash labels not contradicting), the
 * newest one; `reuse` when that is also the newest of all, `renumber` when it is older, `create` when none is equal.
 * @param sorted the workload's revisions, ascending (lib/podset/revision/history.ts `sortRevisions`)
 */
export function chooseLatestRevision(
  sorted: readonly ControllerRevision[],
  candidate: ControllerRevision,
): LatestRevisionChoice {
  const raw = goJson(candidate.data);
  const equal = sorted.filter((r) => revisionsEqual(r, candidate, raw));
  const lastEqual = equal[equal.length - 1];
  if (!lastEqual) return { action: 'create', revision: candidate };
  const newest = sorted[sorted.length - 1];
  if (revisionsEqual(newest, lastEqual)) return { action: 'reuse', revision: newest };
  return {
    action: 'renumber',
    revision: { ...structuredClone(lastEqual), revision: candidate.revision },
    from: lastEqual,
  };
}

/**
 * `revisions` after the choice was written, in history order: a renumbered revision moves from its place to the
 * end, a created one is appended, a reused one changes nothing (OpenKruise's `replaceRevision` and the append after
 * `CreateControllerRevision`).
 * @param written the revision as the API server returned it (a created one with its final name)
 * @returns a new array
 */
export function historyAfter(
  sorted: readonly ControllerRevision[],
  choice: LatestRevisionChoice,
  written: ControllerRevision,
): ControllerRevision[] {
  if (choice.action === 'reuse') return [...sorted];
  if (choice.action === 'create') return [...sorted, written];
  const fromName = choice.from.metadata.name;
  return [...sorted.filter((r) => r.metadata.name !== fromName), written];
}
