/**
 * Pod creates in slow-start batches with their create expectations, as the DaemonSet and Job controllers upstream
 * (and OpenKruise's Advanced DaemonSet and BroadcastJob) send them through `slowStartBatch`: each batch's names are
 * stored as create expectations before the batch is sent (a pass killed mid-batch leaves them for the next, which
 * waits for them instead of creating twice); every create of a batch is attempted, each answered by a
 * `SuccessfulCreate` or `FailedCreate` Event; a batch with a failure starts no next batch and takes its failed names
 * back out of the expectations. Shared by the executors of Advanced DaemonSet and BroadcastJob, with the condition
 * patches their planners give the pods they create ({@link patchesOfCreated}).
 */
import type { Pod } from '../../api/types.js';
import type { StatusPatch } from '../../podset/createdReadiness.js';
import { runBounded } from '../../core/bounded.js';
import type { Clock } from '../../core/clock.js';
import { apiErrorMessage } from '../../kube/errors.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient, KubeEvent } from '../../kube/types.js';
import { controllerRef } from '../../podset/ownership.js';
import type { Expectations } from '../../state/index.js';
import { createOwned } from './createOwned.js';
import { mergeStatusPatches } from './statusPatches.js';

/** A planned pod create and its slow-start batch (0, 1, 2, … : sizes 1, 2, 4, …; the planner numbers them). */
export interface BatchedPodCreate {
  pod: Pod;
  batch: number;
}

/** What {@link createInSlowStartBatches} needs from its executor. */
export interface SlowStartCreateContext {
  kube: Pick<KubeClient, 'create' | 'get'>;
  /** The workload's UID: a pod found under a taken name counts as created when this is its controller. */
  ownerUid: string;
  /** The expectations to extend (mutated: each batch's names added, a failed batch's failed names removed). */
  expected: Expectations;
  /** Stores `expected` (the lease-fenced expectation write). */
  storeExpectations: (expected: Expectations) => Promise<void>;
  clock: Clock;
  /** Creates in flight at once within a batch. */
  limit: number;
  /** The Event reasons, e.g. `SuccessfulCreate` and `FailedCreate`. */
  reasons: { created: string; failed: string };
  /** Records a batch's Events on the workload. */
  record: (events: readonly KubeEvent[]) => Promise<void>;
  /** Notes a failed create (the executor keeps the first error). */
  fail: (error: unknown) => void;
}

/**
 * Create `creates` batch by batch (see the module doc).
 * @returns `writes`, the pods created (a name found held by the workload's own pod is not a write); `created`, their
 *   names, in create order; and `attempted`, the creates sent
 * @throws what `storeExpectations` or `record` throw (state-store errors, FencedOutError); create errors are passed
 *   to `fail`
 */
export async function createInSlowStartBatches(
  ctx: SlowStartCreateContext,
  creates: readonly BatchedPodCreate[],
): Promise<{ writes: number; attempted: number; created: string[] }> {
  const batches: BatchedPodCreate[][] = [];
  for (const c of creates) (batches[c.batch] ??= []).push(c);
  let writes = 0;
  let attempted = 0;
  const created: string[] = [];
  for (const batch of batches.filter((b) => b.length > 0)) {
    const at = ctx.clock();
    for (const c of batch) ctx.expected.creates.push({ name: c.pod.metadata.name ?? '', at });
    await ctx.storeExpectations(ctx.expected);
    const outcomes = await runBounded(
      batch,
      ctx.limit,
      (c) =>
        createOwned(
          ctx.kube,
          RESOURCES.pods,
          c.pod,
          true,
          (found) => controllerRef(found.metadata.ownerReferences)?.uid === ctx.ownerUid,
        ),
      false,
    );
    attempted += batch.length;
    const failedNames = new Set<string>();
    const events: KubeEvent[] = [];
    outcomes.forEach((o, i) => {
      const name = batch[i].pod.metadata.name ?? '';
      if (o.status === 'fulfilled') {
        if (o.value === 'created') {
          writes++;
          created.push(name);
        }
        events.push({ type: 'Normal', reason: ctx.reasons.created, message: `Created pod: ${name}` });
      } else if (o.status === 'rejected') {
        failedNames.add(name);
        ctx.fail(o.reason);
        events.push({
          type: 'Warning',
          reason: ctx.reasons.failed,
          // the API server's message, as Go's StatusError prints it
          message: `Error creating: ${apiErrorMessage(o.reason)}`,
        });
      }
    });
    await ctx.record(events);
    if (failedNames.size > 0) {
      ctx.expected.creates = ctx.expected.creates.filter((op) => !failedNames.has(op.name) || op.at !== at);
      await ctx.storeExpectations(ctx.expected);
      break;
    }
  }
  return { writes, attempted, created };
}

/**
 * The condition patches of the pods a pass creates (lib/podset/createdReadiness.ts `readinessOfCreated`) that can be
 * written: those of the pods `created` names — not of a create that failed, was never sent (a batch after a failed
 * one) or found the name already held (that pod is as an earlier pass left it; the next pass patches it if it
 * still lacks the condition) — one pods/status patch a pod (./statusPatches.ts `mergeStatusPatches`), in plan order.
 * @param patches the planned patches, in plan order
 * @param created the names {@link createInSlowStartBatches} returned
 */
export function patchesOfCreated(patches: readonly StatusPatch[], created: readonly string[]): StatusPatch[] {
  const made = new Set(created);
  return mergeStatusPatches(patches.filter((a) => made.has(a.pod.name))) as StatusPatch[];
}
