/**
 * Finishing a recorded scale-down intent (docs/architecture.md#ledger): when an earlier
 * invocation wrote down the pods it chose to delete and died (or failed) before deleting all of them, its successor
 * deletes exactly those pods — the ones still present with the recorded UID — instead of choosing new victims, then
 * clears the record.
 */
import { EventReason, LABEL_INSTANCE_ID } from '../../api/keys.js';
import type { CloneSet, PersistentVolumeClaim, Pod } from '../../api/types.js';
import type { Logger } from '../../core/logger.js';
import type { Clock } from '../../core/clock.js';
import type { EventCorrelationState } from '../../kube/eventCorrelation.js';
import { classifyWriteError, type KubeApiError } from '../../kube/errors.js';
import type { KubeClient } from '../../kube/types.js';
import type {
  Expectations,
  ExpectationStore,
  Lease,
  ScaleDownIntent,
  ScaleDownLedger,
} from '../../state/index.js';
import type { DeleteReason } from '../../podset/actions.js';
import { isPodAvailable } from '../../podset/pods.js';
import { deleteInstances, type DeleteTarget } from '../../reconcile/pods/deleteInstance.js';
import { failureEvent } from '../../reconcile/pods/outcomeEvents.js';
import { recordEvents } from './recordEvents.js';

/** What {@link finishScaleDown} needs. */
export interface IntentContext {
  kube: KubeClient;
  expectations: ExpectationStore;
  ledger: ScaleDownLedger;
  lease: Lease;
  cloneSet: CloneSet;
  /** Owned pods as just listed. */
  pods: Pod[];
  /** Owned PVCs as just listed. */
  pvcs: PersistentVolumeClaim[];
  /** Pending expectations (after observation). */
  pending: Expectations;
  /**
   * How many pods the plan for the world as it is now deletes (`total`), and how many of them are available
   * (`available`, the part of OpenKruise's `deleteReadyLimit` the plan uses). The recorded victims are deleted
   * instead of the plan's own choice, but no more of them than that: since they were chosen, someone else may
   * have deleted pods or the budget may have shrunk, and OpenKruise, choosing afresh, would then delete fewer.
   * Absent: every recorded victim is deleted.
   */
  allowance?: { total: number; available: number };
  clock: Clock;
  /** The invocation's Event correlation state (lib/controllers/cloneset/recordEvents.ts); absent: fresh for this call. */
  eventCorrelation?: { state: EventCorrelationState };
  log: Logger;
}

/**
 * Whether a recorded intent still belongs to the CloneSet as it is now: chosen for this CloneSet (`ownerUid`, not a
 * deleted one of the same name; lib/reconcile/pods/expectationsOwner.ts) and for the same `metadata.generation`
 * (either recorded without one counts as the same). Once the user has changed the spec, the victims may be wanted
 * again — OpenKruise chooses afresh on every reconcile — so a stale intent is cleared and the pass plans anew.
 */
export function intentIsCurrent(intent: ScaleDownIntent, cloneSet: CloneSet): boolean {
  const uid = cloneSet.metadata.uid;
  if (intent.ownerUid !== undefined && uid && intent.ownerUid !== uid) return false;
  return intent.generation === undefined || intent.generation === cloneSet.metadata.generation;
}

/** What {@link finishScaleDown} did. */
export interface FinishResult {
  /** API writes that succeeded. */
  writes: number;
  /**
   * The delete that failed (not a 409 and not NotFound): its FailedDelete Event is recorded, the intent stays
   * recorded and no further victim was attempted. The caller reports it as a failed write (FailedScale condition,
   * backoff), as OpenKruise's `syncCloneSet` does with the error of `deletePods`.
   */
  error?: KubeApiError;
  /**
   * A delete met 409 Conflict (the victim's UID changed: a same-named successor stands there): not a failure;
   * the intent stays, and the next pass, reading again, finds the victim gone and clears it.
   */
  conflict?: boolean;
}

/**
 * Delete the intent's pods that still exist (same name and UID, not terminating), within what the plan for the
 * world as it is now would delete ({@link IntentContext.allowance}) — together with their instance's
 * PVCs, through the one delete path ({@link deleteInstances}: their delete expectations stored in one write before
 * the first delete), then clear the intent. A delete that fails stops
 * there, as OpenKruise's `deletePods` (pkg/controller/cloneset/sync/cloneset_scale.go): a FailedDelete Event
 * (`failed to delete pod <name>: <error>`), the error returned, the intent kept for the next attempt.
 * @returns the writes made and the failed delete's error or conflict, if any
 * @throws state-store errors (FencedOutError after a takeover) and non-API errors
 */
export async function finishScaleDown(ctx: IntentContext, intent: ScaleDownIntent): Promise<FinishResult> {
  const namespace = ctx.cloneSet.metadata.namespace ?? '';
  const expected: Expectations = structuredClone(ctx.pending);
  const chosen: ScaleDownIntent['pods'] = [];
  const targets: DeleteTarget[] = [];
  for (const victim of intent.pods) {
    const pod = ctx.pods.find(
      (p) =>
        p.metadata.name === victim.name && p.metadata.uid === victim.uid && !p.metadata.deletionTimestamp,
    );
    if (!pod) continue;
    const allowance = ctx.allowance;
    if (allowance) {
      const available = isPodAvailable(pod, 0, new Date(ctx.clock()));
      if (allowance.total <= 0 || (available && allowance.available <= 0)) {
        ctx.log.info('recorded victim kept: the plan for the world as it is now deletes fewer pods', {
          pod: victim.name,
          reason: victim.reason,
        });
        continue;
      }
      allowance.total--;
      if (available) allowance.available--;
    }
    const id = pod.metadata.labels?.[LABEL_INSTANCE_ID];
    const pvcs = id ? ctx.pvcs.filter((c) => c.metadata.labels?.[LABEL_INSTANCE_ID] === id) : [];
    chosen.push(victim);
    targets.push({
      pod: { name: victim.name, uid: victim.uid },
      pvcs: pvcs.map((c) => ({ name: c.metadata.name ?? '', uid: c.metadata.uid ?? '' })),
    });
  }
  // one expectations write for all of them (docs/reliability.md#dynamodb-capacity), then one delete at a time
  let deleted = 0;
  let writes = 0;
  try {
    await deleteInstances(
      { kube: ctx.kube, expectations: ctx.expectations, lease: ctx.lease, namespace },
      expected,
      targets,
      ctx.clock(),
      async (i, done) => {
        deleted = i + 1;
        writes += done;
        ctx.log.info('finished recorded scale-down of a pod', {
          pod: chosen[i].name,
          reason: chosen[i].reason,
          intentId: intent.intentId,
        });
        await recordEvents(ctx, [
          {
            type: 'Normal',
            reason: EventReason.SuccessfulDelete,
            message: `succeed to delete pod ${chosen[i].name}`,
          },
        ]);
      },
    );
  } catch (e) {
    const kind = classifyWriteError(e);
    const victim = chosen[deleted];
    if (kind === 'notApi' || !victim) throw e;
    if (kind === 'conflict') {
      ctx.log.info('recorded victim changed since it was read; re-reading', { pod: victim.name });
      return { writes, conflict: true };
    }
    const error = e as KubeApiError;
    ctx.log.warn('delete of a recorded victim failed; the intent stays for the next attempt', {
      pod: victim.name,
      error: error.message,
    });
    const action = {
      type: 'DeletePod' as const,
      pod: { name: victim.name, uid: victim.uid },
      reason: victim.reason as DeleteReason, // the ledger stores the plan's DeleteReason
      pvcNames: targets[deleted].pvcs.map((c) => c.name),
    };
    await recordEvents(ctx, [failureEvent(action, error, '')]);
    return { writes, error };
  }
  await ctx.ledger.clear(ctx.lease, intent.intentId);
  return { writes };
}
