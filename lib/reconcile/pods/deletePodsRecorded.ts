/**
 * Deleting a workload's pods one at a time, each delete that succeeded answered by a Normal Event on the workload,
 * as Advanced DaemonSet's `syncNodes` and BroadcastJob's pod deletes do upstream (OpenKruise
 * pkg/controller/daemonset and pkg/controller/broadcastjob): the delete expectations of every pod stored once
 * before the first delete, and those of the pods not deleted taken back when one fails (./deleteInstance.ts).
 * Shared by the executors of Advanced DaemonSet and BroadcastJob; only the Event's reason and message differ.
 */
import type { KubeEvent } from '../../kube/types.js';
import type { Expectations } from '../../state/index.js';
import { deleteInstances, type DeleteContext, type Doomed } from './deleteInstance.js';

/** What {@link deletePodsRecorded} needs besides {@link DeleteContext}. */
export interface RecordedDeleteContext extends DeleteContext {
  /** Records Events on the workload (best effort: never throws). */
  record: (events: KubeEvent[]) => Promise<void>;
  /** The Normal Event's reason, e.g. `SuccessfulDelete`. */
  reason: string;
  /** The Normal Event's message for the pod `name`, e.g. `Deleted pod: <name>`. */
  message: (name: string) => string;
}

/** What {@link deletePodsRecorded} did. */
export interface RecordedDeletes {
  /** API writes made (deletes answered, NotFound included). */
  writes: number;
  /** Pods deleted, in order from the first: the first `deleted` of the list. */
  deleted: number;
  /** The failure that stopped the deletes (a KubeApiError other than NotFound, or a state-store error). */
  error?: unknown;
}

/**
 * Delete `pods` in order, each with its UID as precondition, recording `ctx.reason` / `ctx.message(name)` after
 * each; `expected` (mutated) gains the delete expectations and is stored before the first delete.
 * @param at epoch ms recorded on the expectations
 * @returns the writes made and the pods deleted; the failure that stopped them in `error` (not thrown, so the
 *   caller keeps the count of what was deleted before it)
 */
export async function deletePodsRecorded(
  ctx: RecordedDeleteContext,
  expected: Expectations,
  pods: readonly Doomed[],
  at: number,
): Promise<RecordedDeletes> {
  let deleted = 0;
  let writes = 0;
  try {
    await deleteInstances(
      ctx,
      expected,
      pods.map((pod) => ({ pod, pvcs: [] })),
      at,
      async (i, n) => {
        deleted = i + 1;
        writes += n;
        await ctx.record([{ type: 'Normal', reason: ctx.reason, message: ctx.message(pods[i].name) }]);
      },
    );
  } catch (error) {
    return { writes, deleted, error };
  }
  return { writes, deleted };
}
