/**
 * OpenKruise: pkg/controller/broadcastjob/broadcastjob_controller.go `deleteJobPods`, `reconcilePods` (slow-start
 * batches), `createPod`, then the status and finish Events of `Reconcile`.
 *
 * Carries out a BroadcastJob {@link SyncPlan}: the Events planned before any write; the deletions (expectations
 * stored once before the first, lib/reconcile/pods/deleteInstance.ts), each with Normal `SuccessfulDelete`
 * `Delete pod: <name>`; the creates in slow-start batches of 1, 2, 4, … (each batch's create expectations stored
 * before it, its pods created concurrently; no batch after one with a failure), each with Normal `SuccessfulCreate`
 * `Created pod: <name>` or Warning `FailedCreate` `Error creating: <error>`; the `KruisePodReady` conditions (of
 * the listed pods, then of the pods the creates made); the
 * finish Events and the status, with the counts of the writes that were made (./plan/status.ts `statusAfter`). A
 * failed deletion does not stop the creates (upstream logs it and goes on).
 */
import { goJson } from '../../api/goJson.js';
import type { JsonValue } from '../../api/types.js';
import type { Clock } from '../../core/clock.js';
import { DEFAULT_WRITE_CONCURRENCY, runBounded } from '../../core/bounded.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { classifyWriteError } from '../../kube/errors.js';
import type { EventCorrelationState } from '../../kube/eventCorrelation.js';
import type { KubeClient, KubeEvent } from '../../kube/types.js';
import { createInSlowStartBatches, patchesOfCreated } from '../../reconcile/pods/slowStartCreates.js';
import { deletePodsRecorded } from '../../reconcile/pods/deletePodsRecorded.js';
import { writePodPatch } from '../../reconcile/pods/patchPod.js';
import { recordObjectEvents } from '../../reconcile/pods/recordEvents.js';
import type { Expectations, ExpectationStore, Lease } from '../../state/index.js';
import { BcjEventReason } from './api/keys.js';
import { BROADCASTJOB_RESOURCE } from './api/resource.js';
import type { BroadcastJob } from './api/types.js';
import { statusAfter, type SyncPlan } from './plan/index.js';
import { updateBroadcastJobStatus } from './write.js';

/** What {@link executeBroadcastJobPlan} needs. */
export interface ExecuteContext {
  kube: KubeClient;
  lease: Lease;
  expectations: ExpectationStore;
  /** The job as read this pass (its resourceVersion is the status precondition). */
  job: BroadcastJob;
  /** Expectations still pending before this plan (none: a pass with pending ones does not execute). */
  pending: Expectations;
  clock: Clock;
  log: Logger;
  recordedEvents: Set<string>;
  eventCorrelation: { state: EventCorrelationState };
  /** Creates (of one batch) and condition patches in flight at most; default {@link DEFAULT_WRITE_CONCURRENCY}. */
  writeConcurrency?: number;
}

/** Outcome of {@link executeBroadcastJobPlan}. */
export interface ExecuteResult {
  /** API writes that succeeded. */
  writes: number;
  /** The first write error, if any. */
  error?: Error;
  /** Pod writes made (deletes, creates). */
  podWrites: number;
}

/**
 * Execute `plan` (see the module doc) for `ctx.job`.
 * @throws state-store errors (FencedOutError after a takeover) and non-API errors; API write errors are returned
 */
export async function executeBroadcastJobPlan(ctx: ExecuteContext, plan: SyncPlan): Promise<ExecuteResult> {
  const { kube, job } = ctx;
  const namespace = job.metadata.namespace ?? '';
  const record = (events: readonly KubeEvent[]) =>
    recordObjectEvents(
      {
        kube,
        resource: BROADCASTJOB_RESOURCE,
        object: job,
        clock: ctx.clock,
        recordedEvents: ctx.recordedEvents,
        eventCorrelation: ctx.eventCorrelation,
      },
      events,
    );
  const expected: Expectations = structuredClone(ctx.pending);
  let writes = 0;
  let error: Error | undefined;
  const fail = (e: unknown) => {
    if (classifyWriteError(e) === 'notApi') throw e;
    error ??= e as Error;
  };
  await record(plan.events);
  const limit = ctx.writeConcurrency ?? DEFAULT_WRITE_CONCURRENCY;

  const removed = await deletePodsRecorded(
    {
      kube,
      expectations: ctx.expectations,
      lease: ctx.lease,
      namespace,
      record,
      reason: BcjEventReason.SuccessfulDelete,
      message: (name) => `Delete pod: ${name}`,
      limit,
    },
    expected,
    plan.deletes,
    ctx.clock(),
  );
  writes += removed.writes;
  const deleted = removed.deleted;
  if (removed.error !== undefined) fail(removed.error);

  const created = await createInSlowStartBatches(
    {
      kube,
      ownerUid: job.metadata.uid ?? '',
      expected,
      storeExpectations: (e) => ctx.expectations.put(ctx.lease, e),
      clock: ctx.clock,
      limit,
      reasons: { created: BcjEventReason.SuccessfulCreate, failed: BcjEventReason.FailedCreate },
      record,
      fail,
    },
    plan.creates,
  );
  writes += created.writes;
  const attempted = created.attempted;

  const readiness = [...plan.readyPatches, ...patchesOfCreated(plan.createdReadyPatches, created.created)];
  const patched = await runBounded(readiness, limit, (a) => writePodPatch(kube, namespace, a), false);
  for (const o of patched) {
    if (o.status === 'fulfilled') writes += o.value.writes;
    else if (o.status === 'rejected')
      ctx.log.warn('KruisePodReady condition not written', { error: errorMessage(o.reason) });
  }

  const after = statusAfter(
    plan,
    { createsAttempted: attempted, deleted },
    new Date(ctx.clock()),
    `${namespace}/${job.metadata.name ?? ''}`,
  );
  await record(after.events);
  // written only when it differs: upstream's PUT of an unchanged status is a no-op on the server too
  if (goJson(after.status as unknown as JsonValue) !== goJson((job.status ?? {}) as JsonValue)) {
    try {
      await updateBroadcastJobStatus(kube, job, after.status);
      writes++;
    } catch (e) {
      fail(e);
    }
  }
  return { writes, podWrites: deleted + attempted, ...(error ? { error } : {}) };
}
