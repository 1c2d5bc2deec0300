/**
 * OpenKruise: pkg/controller/cloneset/cloneset_status.go `calculateStatus`, `calculateProgressingStatus`,
 * `inconsistentStatus`, `getRequeueSecondsFromCondition`; pkg/controller/cloneset/utils/cloneset_utils.go
 * `SetCloneSetCondition`.
 *
 * CloneSet status calculation (docs/behaviour/cloneset.md#status, docs/behaviour/cloneset.md#status-fields):
 * pod counters, current-revision promotion, the `Progressing` condition with its deadline,
 * `FailedScale`/`FailedUpdate`, and whether the result warrants a status write. Pure: time comes in as `now`.
 */
import { ConditionType } from '../../../api/keys.js';
import { selectorString } from '../../../api/selector.js';
import type { CloneSet, CloneSetCondition, CloneSetStatus, Pod } from '../../../api/types.js';
import { isPodAvailable, isUpdateReady, podMatchesRevision } from '../../../podset/pods.js';
import { metaTime } from '../../../api/time.js';
import type { StrategyNumbers } from './types.js';

/** `progressDeadlineSeconds` value meaning "no deadline" (docs/behaviour/cloneset.md#api-fields). */
export { MAX_INT32 } from '../../../api/int32.js';
import { MAX_INT32 } from '../../../api/int32.js';

/** Reasons of the `Progressing` condition (docs/behaviour/cloneset.md#status-fields). */
export const ProgressingReason = {
  Available: 'CloneSetAvailable',
  Paused: 'CloneSetPaused',
  PartitionAvailable: 'ProgressPartitionAvailable',
  Updated: 'CloneSetUpdated',
  DeadlineExceeded: 'ProgressDeadlineExceeded',
} as const;

/**
 * Reasons after which a rollout is settled: the deadline clock restarts when progress resumes (see
 * {@link calculateStatus}).
 */
const SETTLED_REASONS: readonly string[] = [
  ProgressingReason.Available,
  ProgressingReason.Paused,
  ProgressingReason.PartitionAvailable,
];

/** Input of {@link calculateStatus}. */
export interface StatusInput {
  /** The defaulted CloneSet; its `status` is the stored status (conditions are carried over from it). */
  cloneSet: CloneSet;
  /** Claimed active pods. */
  pods: readonly Pod[];
  /** Resolved strategy numbers (for `expectedUpdatedReplicas`). */
  strategy: StrategyNumbers;
  /** Name of the update revision. */
  updateRevision: string;
  /** Name of the current revision before promotion. */
  currentRevision: string;
  /** Collision count to record. */
  collisionCount: number;
  now: Date;
  /** Error text of the scale phase, if it failed (sets `FailedScale`). */
  scaleError?: string;
  /** Error text of the update phase, if it failed (sets `FailedUpdate`). */
  updateError?: string;
  /** The scale phase ran (so a missing `scaleError` means it succeeded and `FailedScale` is cleared). */
  scaleRan?: boolean;
  /** The update phase ran (so a missing `updateError` means it succeeded and `FailedUpdate` is cleared). */
  updateRan?: boolean;
}

/** Output of {@link calculateStatus}. */
export interface StatusResult {
  status: CloneSetStatus;
  /** Whether a field of the docs/behaviour/cloneset.md#status list differs from the stored status. */
  statusChanged: boolean;
  /** When the `Progressing` deadline will next need checking, seconds (may be fractional), else undefined. */
  requeueAfterSeconds?: number;
}

/**
 * Sets a condition with Kruise's semantics (docs/behaviour/cloneset.md#status): same type, status and reason
 * ⇒ unchanged (times and message kept); same status, other reason ⇒ replaced but keeps `lastTransitionTime`;
 * otherwise replaced. A replaced condition moves to the end of the list.
 * @returns a new list
 */
export function setCondition(
  conditions: readonly CloneSetCondition[],
  next: CloneSetCondition,
): CloneSetCondition[] {
  const cur = conditions.find((c) => c.type === next.type);
  if (cur && cur.status === next.status && (cur.reason ?? '') === (next.reason ?? '')) return [...conditions];
  const cond =
    cur && cur.status === next.status ? { ...next, lastTransitionTime: cur.lastTransitionTime } : next;
  return [...conditions.filter((c) => c.type !== next.type), cond];
}

function progressing(status: CloneSetCondition['status'], reason: string, message: string, now: string) {
  return {
    type: ConditionType.Progressing,
    status,
    lastUpdateTime: now,
    lastTransitionTime: now,
    reason,
    message,
  };
}

/**
 * Delay until the `Progressing` deadline of a `CloneSetUpdated` condition
 * (docs/behaviour/cloneset.md#status): with `remaining = lastUpdateTime + pds − now`, `remaining + 1 s` if
 * `remaining ≥ 1 s`, `remaining` if `0 < remaining < 1 s`, else undefined.
 * @returns seconds, or undefined for no requeue
 */
export function progressRequeueSeconds(
  lastUpdateTime: string | undefined,
  pds: number,
  now: Date,
): number | undefined {
  if (!lastUpdateTime) return undefined;
  const remainingMs = Date.parse(lastUpdateTime) + pds * 1000 - now.getTime();
  if (remainingMs <= 0) return undefined;
  return (remainingMs >= 1000 ? remainingMs + 1000 : remainingMs) / 1000;
}

function counters(cs: CloneSet, pods: readonly Pod[], updateRevision: string, now: Date) {
  const minReady = cs.spec.minReadySeconds ?? 0;
  const c = { replicas: 0, ready: 0, available: 0, updated: 0, updatedReady: 0, updatedAvailable: 0 };
  for (const pod of pods) {
    const ready = isUpdateReady(pod, 0, now);
    const available = isPodAvailable(pod, minReady, now);
    const updated = podMatchesRevision(pod, updateRevision);
    c.replicas++;
    if (ready) c.ready++;
    if (available) c.available++;
    if (updated) c.updated++;
    if (updated && ready) c.updatedReady++;
    if (updated && available) c.updatedAvailable++;
  }
  return c;
}

/** Whether the FailedScale/FailedUpdate conditions differ in presence, status or message. */
function failuresChanged(a: CloneSetStatus | undefined, b: CloneSetStatus): boolean {
  const key = (st: CloneSetStatus | undefined) =>
    JSON.stringify(
      (st?.conditions ?? [])
        .filter((c) => c.type === ConditionType.FailedScale || c.type === ConditionType.FailedUpdate)
        .map((c) => [c.type, c.status, c.message ?? ''])
        .sort(),
    );
  return key(a) !== key(b);
}

function progressingChanged(a: CloneSetStatus | undefined, b: CloneSetStatus): boolean {
  const x = a?.conditions?.find((c) => c.type === ConditionType.Progressing);
  const y = b.conditions?.find((c) => c.type === ConditionType.Progressing);
  if (!x || !y) return !x !== !y;
  return x.status !== y.status || (x.reason ?? '') !== (y.reason ?? '');
}

/**
 * Spec docs/behaviour/cloneset.md#status: the stored status differs in a field that warrants a write. Unlike
 * upstream, a change of the FailedScale/FailedUpdate conditions (presence, status, message) is written too
 * (see {@link calculateStatus}).
 */
export function statusNeedsWrite(old: CloneSetStatus | undefined, next: CloneSetStatus): boolean {
  return (
    (next.observedGeneration ?? 0) > (old?.observedGeneration ?? 0) ||
    next.replicas !== (old?.replicas ?? 0) ||
    next.readyReplicas !== (old?.readyReplicas ?? 0) ||
    next.availableReplicas !== (old?.availableReplicas ?? 0) ||
    next.updatedReplicas !== (old?.updatedReplicas ?? 0) ||
    next.updatedReadyReplicas !== (old?.updatedReadyReplicas ?? 0) ||
    (next.updatedAvailableReplicas ?? 0) !== (old?.updatedAvailableReplicas ?? 0) ||
    (next.expectedUpdatedReplicas ?? 0) !== (old?.expectedUpdatedReplicas ?? 0) ||
    (next.updateRevision ?? '') !== (old?.updateRevision ?? '') ||
    (next.currentRevision ?? '') !== (old?.currentRevision ?? '') ||
    (next.labelSelector ?? '') !== (old?.labelSelector ?? '') ||
    progressingChanged(old, next) ||
    failuresChanged(old, next)
  );
}

/**
 * The new CloneSet status (docs/behaviour/cloneset.md#status, docs/behaviour/cloneset.md#status-fields).
 *
 * - Counters over the claimed active pods: `readyReplicas` = running-ready with `InPlaceUpdateReady` (if
 *   present)
 *   True, lifecycle ignored; `availableReplicas` = available (lifecycle Normal/absent, ready for
 * minReadySeconds,   InPlaceUpdateReady); `updated*` = the same restricted to pods on the update revision.
 * - `currentRevision` becomes `updateRevision` when every pod is updated and there are exactly R of them.
 * - `Progressing` (only with a deadline other than MaxInt32, else removed): Available, Paused,
 *   PartitionAvailable,
 *   DeadlineExceeded, else CloneSetUpdated with a requeue at the deadline (+1 s). `ProgressDeadlineExceeded`
 * sticks   until one of the first three rules holds.
 * - `FailedScale`/`FailedUpdate` are set True with the error text while the phase fails, the text kept
 *   current, and
 *   removed once that phase runs without error (see the deviation below).
 *
 * Deliberate deviation from upstream (docs/behaviour/cloneset.md#status): upstream checks the deadline
 * against the `lastUpdateTime` of whatever condition is carried over, so a CloneSet that has been
 * Available/Paused/PartitionAvailable for longer than `progressDeadlineSeconds` is declared
 * `ProgressDeadlineExceeded` on the first reconcile of its next rollout. Kruiseless treats the move from one
 * of those settled reasons to progressing as the start of a new progress: the deadline is checked only
 * against a condition that was already progressing, and the new `CloneSetUpdated` condition gets
 * `lastUpdateTime = now` (as the setter does whenever the reason changes).
 *
 * Deliberate deviation from upstream (docs/behaviour/cloneset.md#status,
 * docs/behaviour/cloneset.md#decisions): OpenKruise never removes `FailedScale`/`FailedUpdate` and never
 * refreshes their message, so one transient error (say, a conflict on a pod patch) leaves a healthy CloneSet
 * showing a failure for good and hides later, different errors. Kruiseless keeps the condition's message
 * current (same `lastTransitionTime` while it stays True) and removes the condition when the phase next
 * succeeds; these changes are written (they are part of the write condition here).
 *
 * Times are written with whole-second precision (RFC 3339 UTC) and the deadline arithmetic uses the written
 * value.
 * @throws InvalidSelectorError when `spec.selector` is invalid (validation rejects such CloneSets first)
 */
export function calculateStatus(args: StatusInput): StatusResult {
  const { cloneSet: cs, now, strategy } = args;
  const nowText = metaTime(now);
  const replicasWanted = cs.spec.replicas ?? 1;
  let conditions: CloneSetCondition[] = [...(cs.status?.conditions ?? [])];
  const failures: [string, string | undefined][] = [
    [ConditionType.FailedScale, args.scaleError],
    [ConditionType.FailedUpdate, args.updateError],
  ];
  const ran: Record<string, boolean | undefined> = {
    [ConditionType.FailedScale]: args.scaleRan,
    [ConditionType.FailedUpdate]: args.updateRan,
  };
  for (const [type, message] of failures) {
    const cur = conditions.find((c) => c.type === type);
    if (message !== undefined) {
      const next: CloneSetCondition = { type, status: 'True', lastTransitionTime: nowText, message };
      conditions =
        cur && cur.status === 'True'
          ? conditions.map((c) => (c === cur ? { ...cur, message } : c))
          : setCondition(conditions, next);
    } else if (ran[type] && cur) {
      conditions = conditions.filter((c) => c !== cur);
    }
  }

  const c = counters(cs, args.pods, args.updateRevision, now);
  const promoted = c.updated === c.replicas && c.replicas === replicasWanted;
  const status: CloneSetStatus = {
    observedGeneration: cs.metadata.generation,
    replicas: c.replicas,
    readyReplicas: c.ready,
    availableReplicas: c.available,
    updatedReplicas: c.updated,
    updatedReadyReplicas: c.updatedReady,
    // both are `omitempty` in OpenKruise's CloneSetStatus: a 0 is not written (found by the parity suite)
    ...(c.updatedAvailable !== 0 ? { updatedAvailableReplicas: c.updatedAvailable } : {}),
    ...(strategy.expectedUpdatedReplicas !== 0
      ? { expectedUpdatedReplicas: strategy.expectedUpdatedReplicas }
      : {}),
    updateRevision: args.updateRevision,
    currentRevision: promoted ? args.updateRevision : args.currentRevision,
    collisionCount: args.collisionCount,
    labelSelector: selectorString(cs.spec.selector),
  };

  let requeueAfterSeconds: number | undefined;
  const pds = cs.spec.progressDeadlineSeconds;
  if (pds === undefined || pds === null || pds === MAX_INT32) {
    conditions = conditions.filter((x) => x.type !== ConditionType.Progressing);
  } else {
    const prior = conditions.find((x) => x.type === ConditionType.Progressing);
    const expected = status.expectedUpdatedReplicas ?? 0;
    let next: CloneSetCondition;
    if (
      status.currentRevision === status.updateRevision &&
      c.replicas === replicasWanted &&
      c.updated === replicasWanted &&
      c.updatedAvailable === replicasWanted
    ) {
      next = progressing('True', ProgressingReason.Available, 'CloneSet is available', nowText);
    } else if (cs.spec.updateStrategy?.paused) {
      next = progressing('True', ProgressingReason.Paused, 'CloneSet is paused', nowText);
    } else if (expected < replicasWanted && expected <= c.updatedAvailable) {
      next = progressing(
        'True',
        ProgressingReason.PartitionAvailable,
        'CloneSet has been paused due to partition ready',
        nowText,
      );
    } else if (
      prior &&
      (prior.reason === ProgressingReason.DeadlineExceeded ||
        (!SETTLED_REASONS.includes(prior.reason ?? '') &&
          Date.parse(prior.lastUpdateTime ?? '') + pds * 1000 < now.getTime()))
    ) {
      const msg = `CloneSet revision ${args.updateRevision} has timed out progressing`;
      next = progressing('False', ProgressingReason.DeadlineExceeded, msg, nowText);
    } else {
      next = progressing('True', ProgressingReason.Updated, 'CloneSet is progressing', nowText);
    }
    conditions = setCondition(conditions, next);
    if (next.reason === ProgressingReason.Updated) {
      const set = conditions.find((x) => x.type === ConditionType.Progressing);
      requeueAfterSeconds = progressRequeueSeconds(set?.lastUpdateTime, pds, now);
    }
  }
  if (conditions.length > 0) status.conditions = conditions;
  return {
    status,
    statusChanged: statusNeedsWrite(cs.status, status),
    ...(requeueAfterSeconds !== undefined ? { requeueAfterSeconds } : {}),
  };
}
