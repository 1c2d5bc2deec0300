/**
 * OpenKruise: pkg/controller/daemonset/daemonset_controller.go `syncNodes` (slow-start creates, then deletes),
 * daemonset_history.go `snapshot`, `storeDaemonSetStatus`; Kubernetes pkg/controller/controller_utils.go
 * `RealPodControl` (its Events).
 *
 * Carries out a DaemonSet plan: the dedup of duplicate current revisions first (the pods relabelled one by one,
 * then the duplicates deleted), then the revision (a failure of either stops the pass, as upstream returns), then the image
 * pre-download writes (ImagePullJobs and the revision's label, best effort), the Events
 * planned before any pod write; the creates in slow-start batches (each batch's create expectations stored before
 * it, its pods created concurrently, Normal `SuccessfulCreate` `Created pod: <name>` or Warning `FailedCreate`
 * `Error creating: <error>`; no batch after one with a failure);
 * before those, the `PreparingDelete` transitions of `lifecycle.preDelete`, and before them the in-place refresh and
 * updates (Normal `SuccessfulUpdatePodInPlace`
 * `successfully update pod <name> in-place`, or Warning `FailedUpdatePodInPlace`); the deletions (expectations stored once before the
 * first), each with Normal `SuccessfulDelete` `Deleted pod: <name>`; the old revisions beyond the history limit (a failure stops that cleanup, as upstream
 * returns); the `KruisePodReady` conditions, of the listed pods and then of the pods this pass's creates made
 * (concurrently, bounded as the creates); then the status, when it differs from the stored.
 */
import { goJson } from '../../api/goJson.js';
import type { JsonValue } from '../../api/types.js';
import type { Clock } from '../../core/clock.js';
import { DEFAULT_WRITE_CONCURRENCY, runBounded } from '../../core/bounded.js';
import { errorMessage } from '../../core/errors.js';
import { classifyWriteError, ignoreNotFound } from '../../kube/errors.js';
import type { EventCorrelationState } from '../../kube/eventCorrelation.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient, KubeEvent } from '../../kube/types.js';
import { createInSlowStartBatches, patchesOfCreated } from '../../reconcile/pods/slowStartCreates.js';
import { deletePodsRecorded } from '../../reconcile/pods/deletePodsRecorded.js';
import { writePodPatch } from '../../reconcile/pods/patchPod.js';
import { writeImagePullJobs } from '../../reconcile/pods/writeImagePullJobs.js';
import type { Logger } from '../../core/logger.js';
import { recordObjectEvents } from '../../reconcile/pods/recordEvents.js';
import type { Expectations, ExpectationStore, Lease } from '../../state/index.js';
import { DaemonSetEventReason } from './api/keys.js';
import { DAEMONSET_RESOURCE } from './api/resource.js';
import type { DaemonSet, DaemonSetStatus } from './api/types.js';
import type { DaemonSetPlan } from './plan/index.js';
import { updateDaemonSetStatus, writeRevision } from './write.js';

/** What {@link executeDaemonSetPlan} needs. */
export interface ExecuteContext {
  kube: KubeClient;
  lease: Lease;
  expectations: ExpectationStore;
  /** The DaemonSet as read this pass (its resourceVersion is the status precondition). */
  ds: DaemonSet;
  /** Expectations still pending before this plan (none: a pass with pending ones does not execute). */
  pending: Expectations;
  clock: Clock;
  recordedEvents: Set<string>;
  eventCorrelation: { state: EventCorrelationState };
  /** Creates of one batch in flight at most; default {@link DEFAULT_WRITE_CONCURRENCY}. */
  writeConcurrency?: number;
  /** For the warnings of failed pre-download writes. */
  log: Logger;
}

/** Outcome of {@link executeDaemonSetPlan}. */
export interface ExecuteResult {
  /** API writes that succeeded. */
  writes: number;
  /** The first write error, if any. */
  error?: Error;
  /** Pod writes made (deletes, creates attempted). */
  podWrites: number;
}

/**
 * Whether `status` differs from the stored one in Go's JSON (upstream's `storeDaemonSetStatus` skips an unchanged
 * status): the pass writes it only then.
 */
export function daemonSetStatusChanged(ds: DaemonSet, status: DaemonSetStatus): boolean {
  return goJson(status as unknown as JsonValue) !== goJson((ds.status ?? {}) as JsonValue);
}

/**
 * Execute `plan` (see the module doc) for `ctx.ds`.
 * @throws state-store errors (FencedOutError after a takeover) and non-API errors; API write errors are returned
 */
export async function executeDaemonSetPlan(
  ctx: ExecuteContext,
  plan: Exclude<DaemonSetPlan, { type: 'Skip' } | { type: 'Invalid' }>,
): Promise<ExecuteResult> {
  const { kube, ds } = ctx;
  const namespace = ds.metadata.namespace ?? '';
  const record = (events: readonly KubeEvent[]) =>
    recordObjectEvents(
      {
        kube,
        resource: DAEMONSET_RESOURCE,
        object: ds,
        clock: ctx.clock,
        recordedEvents: ctx.recordedEvents,
        eventCorrelation: ctx.eventCorrelation,
      },
      events,
    );
  if (plan.type === 'SelectingAll') {
    await record(plan.events);
    return { writes: 0, podWrites: 0 };
  }
  let writes = 0;
  let error: Error | undefined;
  const fail = (e: unknown) => {
    if (classifyWriteError(e) === 'notApi') throw e;
    error ??= e as Error;
  };
  // duplicate current revisions: the pods relabelled to the kept one, then the others deleted; a failure stops the
  // pass, as upstream's constructHistory returns
  if (plan.dedup) {
    try {
      for (const a of plan.dedup.relabel) writes += (await writePodPatch(kube, namespace, a)).writes;
      for (const name of plan.dedup.deleteRevisions) {
        await ignoreNotFound(kube.delete(RESOURCES.controllerrevisions, { namespace, name }));
        writes++;
      }
    } catch (e) {
      fail(e);
      return { writes, podWrites: 0, ...(error ? { error } : {}) };
    }
  }
  const revision = plan.createRevision ?? plan.renumberRevision;
  if (revision) {
    try {
      await writeRevision(kube, revision, !plan.createRevision);
      writes++;
    } catch (e) {
      fail(e);
      return { writes, podWrites: 0, ...(error ? { error } : {}) };
    }
  }
  // image pre-download (best effort: a failure is logged and never stops the pass), before any pod write
  if (plan.preDownload) {
    const written = await writeImagePullJobs(kube, ctx.log, namespace, plan.preDownload);
    writes += written.writes;
    await record(written.events);
  }
  await record(plan.events);

  // the in-place refresh and updates, before any create or delete (upstream refreshes, then updates in place, then
  // syncs the nodes)
  const started = new Set(plan.updatedInPlace);
  for (const a of plan.inPlace) {
    try {
      writes += (await writePodPatch(kube, namespace, a)).writes;
      if (a.type === 'PatchPod' && started.has(a.pod.name))
        await record([
          {
            type: 'Normal',
            reason: DaemonSetEventReason.SuccessfulUpdatePodInPlace,
            message: `successfully update pod ${a.pod.name} in-place`,
          },
        ]);
    } catch (e) {
      fail(e);
      if (a.type === 'PatchPod' && started.has(a.pod.name))
        await record([
          {
            type: 'Warning',
            reason: DaemonSetEventReason.FailedUpdatePodInPlace,
            message: `failed to update pod ${a.pod.name} in-place(revision ${plan.currentRevision}): ${errorMessage(e)}`,
          },
        ]);
    }
  }

  for (const a of plan.preparingDelete) {
    try {
      writes += (await writePodPatch(kube, namespace, a)).writes;
    } catch (e) {
      fail(e);
    }
  }

  const expected: Expectations = structuredClone(ctx.pending);
  // the failed-pod delays (plan/failedPodBackoff.ts) ride on the expectation write before the first create or
  // delete, so a raised delay is stored before the failed pod it gates is deleted; stored alone when no pod write
  // follows (a delay that expired)
  const backoffsChanged = JSON.stringify(ctx.pending.backoffs ?? []) !== JSON.stringify(plan.backoffs);
  if (plan.backoffs.length > 0) expected.backoffs = plan.backoffs;
  else delete expected.backoffs;
  if (backoffsChanged && plan.creates.length === 0 && plan.deletes.length === 0)
    await ctx.expectations.put(ctx.lease, expected);
  const limit = ctx.writeConcurrency ?? DEFAULT_WRITE_CONCURRENCY;
  const created = await createInSlowStartBatches(
    {
      kube,
      ownerUid: ds.metadata.uid ?? '',
      expected,
      storeExpectations: (e) => ctx.expectations.put(ctx.lease, e),
      clock: ctx.clock,
      limit,
      reasons: { created: DaemonSetEventReason.SuccessfulCreate, failed: DaemonSetEventReason.FailedCreate },
      record,
      fail,
    },
    plan.creates,
  );
  writes += created.writes;
  const attempted = created.attempted;

  const removed = await deletePodsRecorded(
    {
      kube,
      expectations: ctx.expectations,
      lease: ctx.lease,
      namespace,
      record,
      reason: DaemonSetEventReason.SuccessfulDelete,
      message: (name) => `Deleted pod: ${name}`,
      limit,
    },
    expected,
    plan.deletes,
    ctx.clock(),
  );
  writes += removed.writes;
  const deleted = removed.deleted;
  if (removed.error !== undefined) fail(removed.error);

  for (const name of plan.deleteRevisions) {
    try {
      await ignoreNotFound(kube.delete(RESOURCES.controllerrevisions, { namespace, name }));
      writes++;
    } catch (e) {
      fail(e);
      break;
    }
  }

  const readiness = [...plan.readyPatches, ...patchesOfCreated(plan.createdReadyPatches, created.created)];
  const patched = await runBounded(readiness, limit, (a) => writePodPatch(kube, namespace, a), false);
  for (const o of patched) {
    if (o.status === 'fulfilled') writes += o.value.writes;
    else if (o.status === 'rejected') fail(o.reason);
  }

  // written only when it differs: upstream's storeDaemonSetStatus skips an unchanged status
  if (daemonSetStatusChanged(ds, plan.status)) {
    try {
      await updateDaemonSetStatus(kube, ds, plan.status);
      writes++;
    } catch (e) {
      fail(e);
    }
  }
  return { writes, podWrites: deleted + attempted, ...(error ? { error } : {}) };
}
