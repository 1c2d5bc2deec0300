/**
 * OpenKruise: pkg/controller/daemonset/daemonset_controller.go `cleanupHistory`.
 *
 * The old ControllerRevisions to delete so that at most `revisionHistoryLimit` remain.
 */
import type { ControllerRevision, Pod } from '../../../api/types.js';
import { LABEL_CONTROLLER_REVISION_HASH } from '../api/keys.js';
import { DEFAULT_REVISION_HISTORY_LIMIT } from '../api/keys.js';
import type { DaemonSet } from '../api/types.js';

/**
 * `cleanupHistory`: when there are more old revisions than `revisionHistoryLimit` (default 10), the oldest first
 * (by `revision`) are deleted until that many remain, skipping any whose `controller-revision-hash` a pod of the
 * DaemonSet (terminating ones included) still carries.
 * @param old the revisions that are not current, in any order
 * @returns the names to delete, oldest first
 */
export function revisionsToDelete(
  ds: DaemonSet,
  old: readonly ControllerRevision[],
  pods: readonly Pod[],
): string[] {
  let toKill = old.length - (ds.spec.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT);
  if (toKill <= 0) return [];
  const live = new Set(
    pods.map((p) => p.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '').filter((h) => h !== ''),
  );
  const out: string[] = [];
  for (const r of [...old].sort((a, b) => a.revision - b.revision)) {
    if (toKill <= 0) break;
    if (live.has(r.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '')) continue;
    out.push(r.metadata.name ?? '');
    toKill--;
  }
  return out;
}
