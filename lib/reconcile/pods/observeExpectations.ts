/**
 * Durable expectations (docs/architecture.md#expectations; OpenKruise's `expectations.ScaleExpectations` and `ResourceVersionExpectation`): writes this controller issued but has not yet seen in
 * what it reads. Pure functions over the stored record and the objects just listed; the store is lib/state.
 */
import type { PersistentVolumeClaim, Pod } from '../../api/types.js';
import { compareResourceVersions } from '../../core/resourceVersion.js';
import type { Expectations, PendingOp } from '../../state/index.js';

/** Result of {@link observeExpectations}. */
export interface ObservedExpectations {
  /** What is still unobserved and younger than the timeout. */
  pending: Expectations;
  /** Entries dropped because they stayed unobserved longer than the timeout. */
  expired: PendingOp[];
  /** Whether anything changed compared to the stored record (then it should be written back). */
  changed: boolean;
  /** Milliseconds until the oldest pending entry times out, when something is pending. */
  msUntilTimeout?: number;
}

/** While expectations are pending, a pass looks again after this many seconds (every pod-set kind). */
export const PENDING_RECHECK_SECONDS = 2;

/** A write not seen after this long is given up, seconds (OpenKruise's `ExpectationTimeout`, 5 min). */
export const EXPECTATION_TIMEOUT_SECONDS = 300;

/**
 * The requeue, seconds, of a pass held back by pending expectations: {@link PENDING_RECHECK_SECONDS}, or sooner
 * when the oldest pending entry times out first (`observed.msUntilTimeout`, rounded up to whole seconds).
 */
export function pendingRecheckSeconds(observed: ObservedExpectations): number {
  return Math.min(
    PENDING_RECHECK_SECONDS,
    Math.ceil((observed.msUntilTimeout ?? 0) / 1000) || PENDING_RECHECK_SECONDS,
  );
}

/** An empty expectations record. */
export function noExpectations(): Expectations {
  return { creates: [], deletes: [], updates: [] };
}

/** Whether nothing is pending. */
export function isSatisfied(e: Expectations): boolean {
  return e.creates.length === 0 && e.deletes.length === 0 && e.updates.length === 0;
}

/** Whether `seen` is at least `expected`; a missing or unorderable resourceVersion counts as reached. */
function resourceVersionReached(seen: string | undefined, expected: string | undefined): boolean {
  if (!expected || !seen) return true;
  return (compareResourceVersions(seen, expected) ?? 0) >= 0;
}

/**
 * Drop the entries the listed objects show (docs/behaviour/cloneset.md#expectations): a create is observed once a pod or PVC of that name is
 * listed; a delete once no active object of that name and UID is listed (gone, or terminating); an update once
 * the pod of that UID is listed at a resourceVersion ≥ the one the write returned (or is gone). Entries older
 * than `timeoutMs` are dropped as expired — unlike OpenKruise's default, which freezes the CloneSet until a
 * restart (docs/behaviour/cloneset.md#expectations), Kruiseless then re-reads and re-plans, which is safe because every read is a quorum read.
 * @param nowMs epoch milliseconds
 * @param timeoutMs expectation timeout, milliseconds (5 min like Kruise)
 */
export function observeExpectations(
  stored: Expectations,
  pods: readonly Pod[],
  pvcs: readonly PersistentVolumeClaim[],
  nowMs: number,
  timeoutMs: number,
): ObservedExpectations {
  const names = new Set([...pods, ...pvcs].map((o) => o.metadata.name));
  const live = new Map<string, { uid?: string; rv?: string; terminating: boolean }>();
  for (const o of [...pods, ...pvcs]) {
    live.set(o.metadata.name ?? '', {
      uid: o.metadata.uid,
      rv: o.metadata.resourceVersion,
      terminating: !!o.metadata.deletionTimestamp,
    });
  }
  const expired: PendingOp[] = [];
  const keep = (unobserved: (op: PendingOp) => boolean) => (op: PendingOp) => {
    if (!unobserved(op)) return false;
    if (nowMs - op.at > timeoutMs) {
      expired.push(op);
      return false;
    }
    return true;
  };
  const pending: Expectations = {
    creates: stored.creates.filter(keep((op) => !names.has(op.name))),
    deletes: stored.deletes.filter(
      keep((op) => {
        const o = live.get(op.name);
        return !!o && !o.terminating && (!op.uid || o.uid === op.uid);
      }),
    ),
    updates: stored.updates.filter(
      keep((op) => {
        const o = live.get(op.name);
        if (!o || (op.uid && o.uid !== op.uid)) return false;
        return !resourceVersionReached(o.rv, op.resourceVersion);
      }),
    ),
    // the controller's retry delays, what it knows of its PVCs and whose they are are not writes to observe: carried
    ...(stored.backoffs ? { backoffs: stored.backoffs } : {}),
    ...(stored.ownsClaims !== undefined ? { ownsClaims: stored.ownsClaims } : {}),
    ...(stored.ownerUid !== undefined ? { ownerUid: stored.ownerUid } : {}),
  };
  const all = [...pending.creates, ...pending.deletes, ...pending.updates];
  const changed =
    pending.creates.length !== stored.creates.length ||
    pending.deletes.length !== stored.deletes.length ||
    pending.updates.length !== stored.updates.length;
  return {
    pending,
    expired,
    changed,
    ...(all.length
      ? { msUntilTimeout: Math.max(0, Math.min(...all.map((op) => op.at + timeoutMs - nowMs))) }
      : {}),
  };
}
