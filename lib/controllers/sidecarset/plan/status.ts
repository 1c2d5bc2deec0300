/**
 * A SidecarSet's status from its matched pods (OpenKruise: `calculateStatus` and `inconsistentStatus` in
 * `pkg/controller/sidecarset/sidecarset_processor.go`). Pure.
 */
import type { Pod } from '../../../api/types.js';
import type { SidecarSet, SidecarSetStatus } from '../api/types.js';
import { isPodSidecarUpdated, isPodStateConsistent, isSidecarPodReady } from './podState.js';

/** The SidecarSet's latest ControllerRevision, as this pass registered it (./history.ts, the pass's writes). */
export interface LatestRevision {
  /** The revision's name, `<SidecarSet name>-<hash>`. */
  name: string;
  /** The collision count the revision's name was made with. */
  collisionCount: number;
}

/**
 * The status the matched pods give: `matchedPods` all of them, `updatedPods` those on the SidecarSet's hash,
 * `readyPods` those whose sidecars run their spec image and that are running and ready, `updatedReadyPods` both
 * (absent when 0, as Go's `omitempty` writes it);
 * `observedGeneration` the SidecarSet's generation; `latestRevision` and `collisionCount` the latest revision's
 * (upstream always writes the count, 0 included), or the stored ones when no revision is given (a plan without
 * the history's reads and writes, e.g. a preview).
 * @param pods the matched pods (./plan.ts `matchedPods`)
 * @param latest the revision the pass registered
 */
export function calculateSidecarSetStatus(
  sidecarSet: SidecarSet,
  pods: readonly Pod[],
  latest?: LatestRevision,
): SidecarSetStatus {
  let updated = 0;
  let ready = 0;
  let updatedReady = 0;
  for (const pod of pods) {
    const isUpdated = isPodSidecarUpdated(sidecarSet, pod);
    if (isUpdated) updated++;
    if (isPodStateConsistent(sidecarSet, pod) && isSidecarPodReady(sidecarSet, pod)) {
      ready++;
      if (isUpdated) updatedReady++;
    }
  }
  const stored = sidecarSet.status ?? {};
  const latestRevision = latest ? latest.name : stored.latestRevision;
  const collisionCount = latest ? latest.collisionCount : stored.collisionCount;
  return {
    observedGeneration: sidecarSet.metadata.generation ?? 0,
    matchedPods: pods.length,
    updatedPods: updated,
    readyPods: ready,
    // Go's `omitempty` on `updatedReadyPods` (not on the other counters): 0 is not written
    ...(updatedReady > 0 ? { updatedReadyPods: updatedReady } : {}),
    ...(latestRevision ? { latestRevision } : {}),
    ...(collisionCount !== undefined ? { collisionCount } : {}),
  };
}

/**
 * Whether `next` must be written (`inconsistentStatus`): a newer generation observed, or any counter, the latest
 * revision or the collision count differs from the stored status.
 */
export function sidecarSetStatusChanged(sidecarSet: SidecarSet, next: SidecarSetStatus): boolean {
  const s = sidecarSet.status ?? {};
  return (
    (next.observedGeneration ?? 0) > (s.observedGeneration ?? 0) ||
    (next.matchedPods ?? 0) !== (s.matchedPods ?? 0) ||
    (next.updatedPods ?? 0) !== (s.updatedPods ?? 0) ||
    (next.readyPods ?? 0) !== (s.readyPods ?? 0) ||
    (next.updatedReadyPods ?? 0) !== (s.updatedReadyPods ?? 0) ||
    (next.latestRevision ?? '') !== (s.latestRevision ?? '') ||
    next.collisionCount !== s.collisionCount
  );
}
