/**
 * OpenKruise: Kubernetes pkg/controller/history/controller_history.go `ControllerRevisionName`,
 * `HashControllerRevision`, `SortControllerRevisions`, `EqualRevision` (OpenKruise's pkg/util/history wraps
 * the same package for every workload that keeps ControllerRevisions).
 *
 * The ControllerRevision history rules every workload shares (docs/behaviour/cloneset.md#revisions,
 * docs/behaviour/cloneset.md#controller-revisions): a revision's hash and name, the history order, and revision
 * equality. Pure functions; what a revision's data holds is the workload's own (for CloneSet:
 * lib/controllers/cloneset/plan/revision/revision.ts).
 */
import { parseInt32 } from '../../api/int32.js';
import { LABEL_REVISION_HASH } from '../../api/keys.js';
import type { ControllerRevision } from '../../api/types.js';
import { timeMillis } from '../pods.js';
import { fnv1_32, goJson, safeEncodeString, utf8 } from './goJson.js';

/**
 * Longest owner-name prefix kept in a revision name (docs/behaviour/cloneset.md#controller-revisions), so that
 * `<prefix>-<hash>` fits a 253-character object name.
 */
export const REVISION_NAME_PREFIX_MAX = 223;

/**
 * The revision hash (docs/behaviour/cloneset.md#revisions): FNV-1 32 over the raw data bytes followed by the
 * decimal `collisionCount` (only when given; the CloneSet controller always gives it), printed in decimal and
 * safe-encoded.
 * @param raw the revision data as Go JSON (see {@link goJson})
 * @param collisionCount `status.collisionCount`; `undefined` = no probe
 * @returns e.g. `7dd7d4f698`
 */
export function hashRevision(raw: string, collisionCount?: number): string {
  let h = fnv1_32(utf8(raw));
  if (collisionCount !== undefined) h = fnv1_32(utf8(String(collisionCount)), h);
  return safeEncodeString(String(h));
}

/**
 * `<owner name truncated to 223 chars>-<hash>` (docs/behaviour/cloneset.md#controller-revisions).
 * @param ownerName the name of the workload the revision belongs to
 */
export function revisionName(ownerName: string, hash: string): string {
  return `${ownerName.slice(0, REVISION_NAME_PREFIX_MAX)}-${hash}`;
}

/**
 * Revisions sorted ascending by `revision`, then `creationTimestamp`, then name
 * (docs/behaviour/cloneset.md#reconcile-order).
 * @returns a new array
 */
export function sortRevisions(list: readonly ControllerRevision[]): ControllerRevision[] {
  return [...list].sort((a, b) => {
    if (a.revision !== b.revision) return a.revision - b.revision;
    const ta = timeMillis(a.metadata.creationTimestamp);
    const tb = timeMillis(b.metadata.creationTimestamp);
    if (ta !== tb) return ta - tb;
    const na = a.metadata.name ?? '';
    const nb = b.metadata.name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
}

function int32Label(r: ControllerRevision): number | undefined {
  const v = r.metadata.labels?.[LABEL_REVISION_HASH];
  return v === undefined ? undefined : parseInt32(v);
}

/**
 * Whether two revisions are equal (docs/behaviour/cloneset.md#revisions): same data bytes, unless both hash
 * labels parse as int32 and differ.
 * @param rawB the Go JSON of `b.data`, when already known
 */
export function revisionsEqual(a: ControllerRevision, b: ControllerRevision, rawB = goJson(b.data)): boolean {
  const ha = int32Label(a);
  const hb = int32Label(b);
  if (ha !== undefined && hb !== undefined && ha !== hb) return false;
  return goJson(a.data) === rawB;
}
