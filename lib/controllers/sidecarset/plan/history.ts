/**
 * A SidecarSet's ControllerRevision history, decided (OpenKruise: `registerLatestRevision`, `updateCustomVersionLabel`,
 * `truncateHistory` and `filterActiveRevisions` in `pkg/controller/sidecarset/sidecarset_processor.go`). Pure: the
 * pass lists the revisions, writes the choice and the deletions, and feeds the written revision to the status.
 */
import type { ControllerRevision, Pod } from '../../../api/types.js';
import { sortRevisions } from '../../../podset/revision/history.js';
import {
  chooseLatestRevision,
  nextRevisionNumber,
  type LatestRevisionChoice,
} from '../../../podset/revision/latest.js';
import { ANNOTATION_SIDECARSET_HASH, LABEL_SIDECARSET_CUSTOM_VERSION } from '../api/keys.js';
import type { SidecarSet } from '../api/types.js';
import { parseHashAnnotation } from './annotations.js';
import { newSidecarSetRevision, sidecarSetCustomVersion } from './revision.js';

/** How the SidecarSet's spec becomes its latest revision. */
export interface SidecarSetRevisionPlan {
  /** Reuse the newest, renumber an older equal one, or create the candidate. */
  choice: LatestRevisionChoice;
  /** `status.collisionCount` before the write (0 when unset); a create may raise it on a name collision. */
  collisionCount: number;
  /** The SidecarSet's revisions, ascending (before the write). */
  sorted: ControllerRevision[];
}

/**
 * The revisions that are the SidecarSet's (`ListControllerRevisions` with the mock parent): of those listed by its
 * `kruise.io/sidecarset-name` label, the ones with no controller owner or one naming the SidecarSet's UID.
 */
export function ownedRevisions(
  sidecarSet: SidecarSet,
  listed: readonly ControllerRevision[],
): ControllerRevision[] {
  return listed.filter((r) => {
    const ref = r.metadata.ownerReferences?.find((o) => o.controller === true);
    return !ref || ref.uid === (sidecarSet.metadata.uid ?? '');
  });
}

/**
 * The plan (see {@link SidecarSetRevisionPlan}) for the SidecarSet as stored: the candidate revision has number
 * 1 + the highest owned one and the stored collision count.
 * @param listed the ControllerRevisions of `kruise-system` labelled `kruise.io/sidecarset-name=<name>`, any order
 */
export function planSidecarSetRevision(
  sidecarSet: SidecarSet,
  listed: readonly ControllerRevision[],
): SidecarSetRevisionPlan {
  const sorted = sortRevisions(ownedRevisions(sidecarSet, listed));
  const collisionCount = sidecarSet.status?.collisionCount ?? 0;
  const candidate = newSidecarSetRevision(sidecarSet, nextRevisionNumber(sorted), collisionCount);
  return { choice: chooseLatestRevision(sorted, candidate), collisionCount, sorted };
}

/**
 * The custom version to label the latest revision with (`updateCustomVersionLabel`): the SidecarSet's when it has
 * one and the revision's `apps.kruise.io/sidecarset-custom-version` label differs; undefined when nothing is written.
 */
export function customVersionToLabel(sidecarSet: SidecarSet, latest: ControllerRevision): string | undefined {
  const wanted = sidecarSetCustomVersion(sidecarSet);
  if (!wanted || latest.metadata.labels?.[LABEL_SIDECARSET_CUSTOM_VERSION] === wanted) return undefined;
  return wanted;
}

/**
 * Revision names still in use (`filterActiveRevisions`): each matched pod's `controllerRevision` for the SidecarSet,
 * `injectionStrategy.revision.revisionName`, and for `customVersion` the newest revision labelled with it.
 */
function activeRevisions(
  sidecarSet: SidecarSet,
  pods: readonly Pod[],
  revisions: readonly ControllerRevision[],
): Set<string> {
  const name = sidecarSet.metadata.name ?? '';
  const active = new Set<string>();
  for (const pod of pods) {
    let revision: string | undefined;
    try {
      revision = parseHashAnnotation(
        ANNOTATION_SIDECARSET_HASH,
        pod.metadata.annotations?.[ANNOTATION_SIDECARSET_HASH],
      ).get(name)?.controllerRevision;
    } catch {
      revision = undefined;
    }
    if (revision) active.add(revision);
  }
  const pinned = sidecarSet.spec.injectionStrategy?.revision;
  if (pinned?.revisionName !== undefined) active.add(pinned.revisionName);
  if (pinned?.customVersion !== undefined) {
    const labelled = sortRevisions(
      revisions.filter((r) => r.metadata.labels?.[LABEL_SIDECARSET_CUSTOM_VERSION] === pinned.customVersion),
    );
    const newest = labelled[labelled.length - 1];
    if (newest) active.add(newest.metadata.name ?? '');
  }
  return active;
}

/**
 * The revisions to delete (`truncateHistory`): when more than `revisionHistoryLimit` (absent: 10; at least 1) are
 * kept, the oldest ones no matched pod and no injection pin uses, never the last (the latest), until the limit is
 * met or none is left to delete.
 * @param history the SidecarSet's revisions after the latest was written, in history order (the latest last)
 * @param pods the matched pods
 * @returns in deletion order; upstream logs, and does not fail, when the limit cannot be met
 */
export function revisionsToTruncate(
  sidecarSet: SidecarSet,
  history: readonly ControllerRevision[],
  pods: readonly Pod[],
): ControllerRevision[] {
  const limitSetting = sidecarSet.spec.revisionHistoryLimit;
  const limit = limitSetting === undefined || limitSetting === null ? 10 : Math.max(1, limitSetting);
  let excess = history.length - limit;
  if (excess <= 0) return [];
  const active = activeRevisions(sidecarSet, pods, history);
  const out: ControllerRevision[] = [];
  for (const r of history.slice(0, -1)) {
    if (excess <= 0) break;
    if (active.has(r.metadata.name ?? '')) continue;
    out.push(r);
    excess--;
  }
  return out;
}
