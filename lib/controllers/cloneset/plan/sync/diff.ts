/**
 * OpenKruise: pkg/controller/cloneset/sync/cloneset_sync_utils.go `calculateDiffsWithExpectation` and its
 * `expectationDiffs` record.
 *
 * The core scale/update arithmetic of a CloneSet (docs/behaviour/cloneset.md#diff, OpenKruise's "expectation
 * diffs"): one record of pod counts from which the scale phase and the update phase act.
 */
import { LifecycleState } from '../../../../api/keys.js';
import type { Pod } from '../../../../api/types.js';
import {
  isPodAvailable,
  isSpecifiedDelete,
  lifecycleState,
  podMatchesRevision,
} from '../../../../podset/pods.js';
import type { DiffRecord, PhaseContext } from '../types.js';

/** A record with every field 0 (the "nothing to do" diff). */
export function emptyDiff(): DiffRecord {
  return {
    scaleUpNum: 0,
    scaleUpNumOldRevision: 0,
    scaleDownNum: 0,
    scaleDownNumOldRevision: 0,
    scaleUpLimit: 0,
    deleteReadyLimit: 0,
    useSurge: 0,
    useSurgeOldRevision: 0,
    updateNum: 0,
    updateMaxUnavailable: 0,
  };
}

/**
 * The scale phase's "is this pod updated?" predicate (docs/behaviour/cloneset.md#pod-predicates
 * `is-updated`): the pod's revision label matches the update revision, or — with the
 * `PreparingUpdateAsUpdate` gate — the pod is in lifecycle `PreparingUpdate`.
 */
export function scalePhaseIsUpdated(ctx: PhaseContext): (pod: Pod) => boolean {
  const updateRevision = ctx.updateRevision.metadata.name ?? '';
  return (pod) =>
    podMatchesRevision(pod, updateRevision) ||
    (ctx.options.preparingUpdateAsUpdate && lifecycleState(pod) === LifecycleState.PreparingUpdate);
}

/** The update phase's predicate: plain revision matching (docs/behaviour/cloneset.md#diff). */
export function updatePhaseIsUpdated(ctx: PhaseContext): (pod: Pod) => boolean {
  const updateRevision = ctx.updateRevision.metadata.name ?? '';
  return (pod) => podMatchesRevision(pod, updateRevision);
}

interface SideCounts {
  /** Pods on this side (new = updated, old = not updated). */
  total: number;
  /** Not in PreparingDelete. */
  active: number;
  /** In PreparingDelete. */
  preDelete: number;
  /** Active and specified-delete. */
  toDelete: number;
  /** Active, not specified-delete, and not available. */
  unavailable: number;
}

function emptySide(): SideCounts {
  return { total: 0, active: 0, preDelete: 0, toDelete: 0, unavailable: 0 };
}

/** Counts `pod` on its side. */
function countPod(c: SideCounts, pod: Pod, ctx: PhaseContext, podsToDelete: readonly string[] | undefined) {
  c.total++;
  if (lifecycleState(pod) === LifecycleState.PreparingDelete) {
    c.preDelete++;
    return;
  }
  c.active++;
  if (isSpecifiedDelete(pod, podsToDelete)) c.toDelete++;
  else if (!isPodAvailable(pod, ctx.strategy.minReadySeconds, ctx.now)) c.unavailable++;
}

/** Whether one number is positive and the other negative. */
function oppositeSigns(a: number, b: number): boolean {
  return (a > 0 && b < 0) || (a < 0 && b > 0);
}

/**
 * Compute the diff record of docs/behaviour/cloneset.md#diff for the claimed active pods in `ctx.pods`.
 * @param ctx phase context (strategy numbers, pods, revisions, clock, gates)
 * @param isUpdated which pods count as "new" — {@link scalePhaseIsUpdated} or {@link updatePhaseIsUpdated}
 * @returns the whole record (counts of pods; `updateNum` and `updateMaxUnavailable` may be negative)
 */
export function calculateDiff(ctx: PhaseContext, isUpdated: (pod: Pod) => boolean): DiffRecord {
  const res = emptyDiff();
  const { replicas, partition, maxSurge, maxUnavailable, scaleMaxUnavailable, excludePreparingDelete } =
    ctx.strategy;
  const podCount = ctx.pods.length;
  const podsToDelete = ctx.cloneSet.spec.scaleStrategy?.podsToDelete;
  const newSide = emptySide();
  const oldSide = emptySide();
  for (const pod of ctx.pods) countPod(isUpdated(pod) ? newSide : oldSide, pod, ctx, podsToDelete);

  let updateOldDiff = oldSide.active - partition;
  let updateNewDiff = newSide.active - (replicas - partition);
  const totalUnavailable = newSide.preDelete + oldSide.preDelete + newSide.unavailable + oldSide.unavailable;
  const sameRevision = ctx.currentRevision.metadata.name === ctx.updateRevision.metadata.name;
  if (sameRevision || !ctx.options.cloneSetPartitionRollback) {
    updateOldDiff = Math.max(updateOldDiff, 0);
    updateNewDiff = Math.min(updateNewDiff, 0);
  }

  if (maxSurge > 0) {
    let scaleSurge = 0;
    let scaleOldSurge = 0;
    const toDelete = newSide.toDelete + oldSide.toDelete;
    if (toDelete > 0) {
      scaleSurge = Math.min(Math.max(totalUnavailable + toDelete - maxUnavailable, 0), toDelete);
      if (scaleSurge > newSide.toDelete) scaleOldSurge = scaleSurge - newSide.toDelete;
    }
    let updateSurge = 0;
    let updateOldSurge = 0;
    if (oppositeSigns(updateOldDiff, updateNewDiff)) {
      if (Math.abs(updateOldDiff) <= Math.abs(updateNewDiff)) {
        updateSurge = Math.abs(updateOldDiff);
        if (updateOldDiff < 0) updateOldSurge = updateSurge;
      } else {
        updateSurge = Math.abs(updateNewDiff);
        if (updateNewDiff > 0) updateOldSurge = updateSurge;
      }
    }
    if (scaleSurge >= updateSurge) {
      res.useSurge = Math.min(maxSurge, scaleSurge);
      res.useSurgeOldRevision = Math.min(res.useSurge, scaleOldSurge);
    } else {
      res.useSurge = Math.min(maxSurge, updateSurge);
      res.useSurgeOldRevision = Math.min(res.useSurge, updateOldSurge);
    }
  }

  let currentTotal = podCount;
  let currentOld = oldSide.total;
  if (excludePreparingDelete) {
    currentTotal -= oldSide.preDelete + newSide.preDelete;
    currentOld -= oldSide.preDelete;
  }
  const expectedTotal = replicas + res.useSurge;
  const expectedOld = partition + res.useSurgeOldRevision;

  if (expectedTotal - currentTotal > 0) {
    res.scaleUpNum = expectedTotal - currentTotal;
    res.scaleUpNumOldRevision = Math.max(expectedOld - currentOld, 0);
    res.scaleUpLimit = Math.min(res.scaleUpNum, Math.max(scaleMaxUnavailable - totalUnavailable, 0));
  }
  const scaleDown = currentTotal - oldSide.toDelete - newSide.toDelete - expectedTotal;
  if (scaleDown > 0) {
    res.scaleDownNum = scaleDown;
    res.scaleDownNumOldRevision = Math.max(currentOld - oldSide.toDelete - expectedOld, 0);
  }
  if (newSide.toDelete > 0 || oldSide.toDelete > 0 || res.scaleDownNum > 0) {
    res.deleteReadyLimit = Math.max(maxUnavailable + (podCount - replicas) - totalUnavailable, 0);
  }

  res.updateNum = Math.abs(updateOldDiff) <= Math.abs(updateNewDiff) ? updateOldDiff : 0 - updateNewDiff;
  if (res.updateNum !== 0) res.updateMaxUnavailable = maxUnavailable + podCount - replicas;
  return res;
}
