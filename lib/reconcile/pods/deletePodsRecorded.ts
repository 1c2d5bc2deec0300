/**
 * Deleting a workload's pods all at once, each delete that succeeded answered by a Normal Event on the workload, as
 * Advanced DaemonSet's `syncNodes` and BroadcastJob's `deleteJobPods` do upstream (OpenKruise
 * pkg/controller/daemonset and pkg/controller/broadcastjob: one goroutine per pod, every delete issued whatever the
 * others answer, the Event recorded as each one succeeds). The delete expectations of every pod are stored once
 * before the first delete, and those of the pods whose delete failed taken back once all have answered, as upstream
 * observes the expectation of a failed delete. Shared by the executors of Advanced DaemonSet and BroadcastJob; only
 * the Event's reason and message differ. (CloneSet deletes one at a time, as its upstream does: ./deleteInstance.ts.)
 */
import { DEFAULT_WRITE_CONCURRENCY, runBounded } from '../../core/bounded.js';
import { ignoreNotFound } from '../../kube/errors.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeEvent } from '../../kube/types.js';
import type { Expectations } from '../../state/index.js';
import type { DeleteContext, Doomed } from './deleteInstance.js';

/** What {@link deletePodsRecorded} needs besides {@link DeleteContext}. */
export interface RecordedDeleteContext extends DeleteContext {
  /** Records Events on the workload (best effort: never throws). */
  record: (events: KubeEvent[]) => Promise<void>;
  /** The Normal Event's reason, e.g. `SuccessfulDelete`. */
  reason: string;
  /** The Normal Event's message for the pod `name`, e.g. `Deleted pod: <name>`. */
  message: (name: string) => string;
  /**
   * Deletes in flight at once, ≥ 1; default {@link DEFAULT_WRITE_CONCURRENCY}. Upstream has no bound but the pass's
   * own (`burstReplicas` for a DaemonSet); this one keeps a pass from opening hundreds of connections at once.
   */
  limit?: number;
}

/** What {@link deletePodsRecorded} did. */
export interface RecordedDeletes {
  /** API writes made (deletes answered, NotFound included). */
  writes: number;
  /** Pods deleted (NotFound included). */
  deleted: number;
  /**
   * The failure of the first pod, in the order given, whose delete failed (a KubeApiError other than NotFound), or
   * of the expectations write (a state-store error; FencedOutError after a takeover).
   */
  error?: unknown;
}

/**
 * Delete `pods`, each with its UID as precondition, up to `ctx.limit` at a time and every one attempted whatever the
 * others answer, recording `ctx.reason` / `ctx.message(name)` as each succeeds; `expected` (mutated) gains the delete
 * expectations and is stored before the first delete, and loses those of the failed deletes, stored again, after
 * the last answer.
 * @param at epoch ms recorded on the expectations
 * @returns the writes made and the pods deleted; a failure in `error` (not thrown, so the caller keeps the count of
 *   what was deleted)
 */
export async function deletePodsRecorded(
  ctx: RecordedDeleteContext,
  expected: Expectations,
  pods: readonly Doomed[],
  at: number,
): Promise<RecordedDeletes> {
  if (pods.length === 0) return { writes: 0, deleted: 0 };
  for (const pod of pods) expected.deletes.push({ name: pod.name, uid: pod.uid, at });
  try {
    await ctx.expectations.put(ctx.lease, expected);
  } catch (error) {
    return { writes: 0, deleted: 0, error };
  }
  const outcomes = await runBounded(
    pods,
    ctx.limit ?? DEFAULT_WRITE_CONCURRENCY,
    async (pod) => {
      await ignoreNotFound(
        ctx.kube.delete(RESOURCES.pods, { namespace: ctx.namespace, name: pod.name }, { uid: pod.uid }),
      );
      await ctx.record([{ type: 'Normal', reason: ctx.reason, message: ctx.message(pod.name) }]);
    },
    false,
  );
  const failed = new Set<string>();
  let error: unknown;
  for (const [i, outcome] of outcomes.entries()) {
    if (outcome.status !== 'rejected') continue;
    failed.add(`${pods[i].name}/${pods[i].uid}`);
    error ??= outcome.reason;
  }
  const deleted = pods.length - failed.size;
  if (failed.size === 0) return { writes: deleted, deleted };
  expected.deletes = expected.deletes.filter((op) => !failed.has(`${op.name}/${op.uid}`));
  try {
    await ctx.expectations.put(ctx.lease, expected);
  } catch (e) {
    return { writes: deleted, deleted, error: e };
  }
  return { writes: deleted, deleted, error };
}
