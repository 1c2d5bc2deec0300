/**
 * OpenKruise: pkg/controller/broadcastjob/broadcastjob_controller.go `Reconcile` (the counts written after the pod
 * writes, the finish Events), `finishJob`; broadcastjob_utils.go `newCondition`.
 *
 * The status a pass writes and the Events after its pod writes, from the writes that were made.
 */
import { metaTime } from '../../../api/time.js';
import { BcjEventReason, JobConditionType } from '../api/keys.js';
import type { BroadcastJobStatus } from '../api/types.js';
import type { PlanEvent, SyncPlan } from './types.js';

/** The pod writes of a {@link SyncPlan} that were made. */
export interface WritesMade {
  /** Pods whose create was attempted (upstream counts a failed create as active too: kruise#2414). */
  createsAttempted: number;
  /** Pods deleted. */
  deleted: number;
}

/** Every planned write made. */
export function allWritesMade(plan: Pick<SyncPlan, 'creates' | 'deletes'>): WritesMade {
  return { createsAttempted: plan.creates.length, deleted: plan.deletes.length };
}

/** `<S> pods succeeded, <F> pods failed`, as upstream's messages end. */
export function tally(succeeded: number, failed: number): string {
  return `${succeeded} pods succeeded, ${failed} pods failed`;
}

/**
 * The status to write and the Events after the pod writes, given what was made: each deleted pod moves from
 * `active` to `failed`, each attempted create adds to `active`. A finishing job gets its condition appended (its
 * type as reason; `lastProbeTime`, `lastTransitionTime` and `completionTime` now) and its Event, with the counts
 * after the writes:
 * - Complete: condition message `Job completed, S pods succeeded, F pods failed`; Normal `JobComplete`
 *   `Job <ns>/<name> is completed, S pods succeeded, F pods failed`;
 * - Failed: condition message the failure's; Warning `<reason>` `<message>: S pods succeeded, F pods failed`.
 * @param jobRef `<namespace>/<name>`
 */
export function statusAfter(
  plan: Pick<SyncPlan, 'base' | 'finish'>,
  made: WritesMade,
  now: Date,
  jobRef: string,
): { status: BroadcastJobStatus; events: PlanEvent[] } {
  const base = plan.base;
  const status: BroadcastJobStatus = {
    ...base,
    active: base.active + made.createsAttempted - made.deleted,
    failed: base.failed + made.deleted,
  };
  const finish = plan.finish;
  if (!finish) return { status, events: [] };
  const counts = tally(status.succeeded, status.failed);
  const at = metaTime(now);
  const complete = finish.type === 'Complete';
  const type = complete ? JobConditionType.Complete : JobConditionType.Failed;
  const message = complete ? `Job completed, ${counts}` : finish.message;
  status.conditions = [
    ...(base.conditions ?? []),
    { type, status: 'True', lastProbeTime: at, lastTransitionTime: at, reason: type, message },
  ];
  status.completionTime = at;
  const event: PlanEvent = complete
    ? { type: 'Normal', reason: BcjEventReason.JobComplete, message: `Job ${jobRef} is completed, ${counts}` }
    : { type: 'Warning', reason: finish.reason, message: `${finish.message}: ${counts}` };
  return { status, events: [event] };
}
