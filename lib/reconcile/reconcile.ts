/**
 * One reconcile invocation for one object key (docs/architecture.md#one-invocation): lease → passes → requeue
 * → release. Used unchanged by the Lambda handler and by the embedded default.
 *
 * Invariant: an invocation that has returned (or thrown) holds no lease — except when it was fenced out, and then
 * the lease is someone else's.
 */
import type { Plan } from '../cloneset/types.js';
import { objectKeyOf, type ObjectKey } from '../core/objectKey.js';
import type { RequeueScheduler, ReconcileRequest } from '../requests/index.js';
import { FencedOutError, type Lease, type LeaseStore } from '../state/index.js';
import { emptyCorrelation, type EventCorrelationState } from '../kube/eventCorrelation.js';
import { backoffSeconds, DEFAULT_BACKOFF, type BackoffSettings } from './backoff.js';
import { readScopeFor, runPass, type PassDeps, type PassResult, type ReadScope } from './pass.js';

export { randomInstanceId } from './pass.js';

/**
 * Everything one invocation needs: a pass's needs plus the lease and the time budget. Built by the Lambda handler
 * or the embedded default.
 */
export interface ReconcileDeps extends PassDeps {
  leases: LeaseStore;
  requeue: RequeueScheduler;
  /** Unique id of this invocation (lease holder). */
  holder: string;
  sleep: (ms: number) => Promise<void>;
  /** Epoch ms by which the invocation must have released its lease (Lambda remaining time minus a margin). */
  deadlineMs: number;
  /** Lease duration, ms; must exceed the function timeout so a live holder never loses its lease. */
  leaseDurationMs: number;
  /** Waits up to this many seconds are slept inside the invocation; longer ones go to the requeue scheduler. */
  maxInlineWaitSeconds: number;
  /** Reconcile passes per invocation at most (each pass re-reads everything). */
  maxPasses: number;
  /** Retry schedule after failed writes (docs/reliability.md#backoff); default {@link DEFAULT_BACKOFF}. */
  backoff?: Readonly<BackoffSettings>;
}

/** What one invocation did. */
export interface ReconcileOutcome {
  /** `deferred`: another invocation holds the lease (its dirty flag was set, it will re-run). */
  result: 'reconciled' | 'deferred' | 'gone' | 'fenced';
  passes: number;
  /** API writes made. */
  writes: number;
  /** Delay handed to the requeue scheduler, seconds. */
  requeuedAfterSeconds?: number;
  /** The last write error, if any (also recorded as an Event and a condition). */
  error?: string;
  /**
   * Consecutive failed passes of this CloneSet after this invocation, as stored on its lease when it released
   * (docs/reliability.md#backoff); absent when 0 or when no pass ran.
   */
  failures?: number;
  /** The last plan (for logs and tests). */
  plan?: Plan;
}

/** The state of one invocation, threaded through its steps. */
interface Run {
  deps: ReconcileDeps;
  key: ObjectKey;
  lease: Lease;
  outcome: ReconcileOutcome;
  recordedEvents: Set<string>;
  /** Event correlation state of this invocation (lib/kube/eventCorrelation.ts); starts empty, not persisted. */
  eventCorrelation: { state: EventCorrelationState };
  /** What each pass lists, from the request's reason. */
  scope: ReadScope;
  /** Consecutive failed passes: as the lease brought them, +1 per failed pass, 0 after a pass without one. */
  failures: number;
}

/** Pass budget or time budget used up: what is left goes to the requeue scheduler. */
function exhausted(run: Run): boolean {
  return run.outcome.passes >= run.deps.maxPasses || run.deps.clock() >= run.deps.deadlineMs;
}

/** Adds a pass's numbers to the run: writes, plan, error, failure count. */
function tally(run: Run, pass: PassResult): void {
  const { outcome } = run;
  run.failures = pass.error ? run.failures + 1 : 0;
  if (run.failures > 0) outcome.failures = run.failures;
  else delete outcome.failures;
  outcome.writes += pass.writes;
  if (pass.plan) outcome.plan = pass.plan;
  if (pass.error) outcome.error = pass.error;
  if (pass.gone) outcome.result = 'gone';
}

/**
 * Passes until nothing changes, a write failed, the CloneSet is gone, or the budget is used up; waits that fit
 * the budget and {@link ReconcileDeps.maxInlineWaitSeconds} are slept inline. After a failed write the wait is
 * the backoff of the failure count (never slept inline: each attempt is one invocation).
 * @returns the delay (seconds) still to wait, if any
 */
async function runPasses(run: Run): Promise<number | undefined> {
  const { deps } = run;
  /** The last wait a pass asked for (kept when a later pass acted and the budget then ran out). */
  let wait: number | undefined;
  while (!exhausted(run)) {
    run.outcome.passes++;
    const pass = await runPass(deps, run.key, run.lease, run.recordedEvents, run.scope, run.eventCorrelation);
    tally(run, pass);
    if (pass.gone) return undefined;
    if (pass.error) return backoffSeconds(run.failures, deps.backoff ?? DEFAULT_BACKOFF);
    if (pass.acted) continue;
    wait = pass.requeueAfterSeconds;
    const fits = wait !== undefined && deps.clock() + wait * 1000 < deps.deadlineMs;
    if (wait !== undefined && wait <= deps.maxInlineWaitSeconds && fits) {
      await deps.sleep(Math.ceil(wait * 1000));
      continue;
    }
    break;
  }
  // the budget ran out while there may be more to do: look again soon
  if (exhausted(run) && wait === undefined) return 1;
  return wait;
}

/**
 * Release the lease, clearing the dirty flag as often as it is set: for callers that have already arranged for
 * whatever made it dirty to be handled (a requeue, or a rethrown error that the event source retries).
 * @param failures stored with the release (see {@link LeaseStore.release}); omitted: the stored count stays
 * @throws FencedOutError (the lease is someone else's); StateStoreError
 */
async function releaseFully(deps: ReconcileDeps, lease: Lease, failures?: number): Promise<void> {
  while ((await deps.leases.release(lease, failures)) === 'dirty') {
    // another event arrived after the caller's arrangement: it is covered by it; clear and try again
  }
}

/**
 * Reconcile one object key (a CloneSet's, today). Takes the lease (or marks the holder dirty and returns
 * `deferred`), runs passes until nothing changes, sleeps short waits inside the invocation and schedules longer ones,
 * re-runs when another event arrived meanwhile (dirty flag), then releases the lease. When the budget is used up
 * while another event waits, it requeues and releases — clearing the dirty flag as often as needed, so it never returns holding the lease.
 * @throws state-store and unexpected errors after releasing the lease (the event is retried by Lambda / the bus);
 *   a takeover by another invocation (`FencedOutError`) is not an error: it returns `fenced`.
 */
export async function reconcileCloneSet(
  deps: ReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileOutcome> {
  const key = objectKeyOf(request);
  const acquired = await deps.leases.acquire(key, deps.holder, deps.leaseDurationMs, deps.clock());
  if (!acquired.acquired) {
    deps.log.debug('lease held by another invocation; marked it dirty so the holder runs again', {
      holder: acquired.heldBy,
      ...key,
    });
    return { result: 'deferred', passes: 0, writes: 0 };
  }
  const run: Run = {
    deps,
    key,
    lease: acquired.lease,
    outcome: { result: 'reconciled', passes: 0, writes: 0 },
    recordedEvents: new Set(),
    eventCorrelation: { state: emptyCorrelation() },
    scope: readScopeFor(request.reason),
    failures: acquired.failures,
  };
  const requeue = async (seconds: number) => {
    await deps.requeue.requeueAfter({ ...request, reason: 'Requeue' }, seconds);
    run.outcome.requeuedAfterSeconds = seconds;
  };
  try {
    for (;;) {
      const wait = await runPasses(run);
      if ((await deps.leases.release(run.lease, run.failures)) === 'released') {
        if (wait !== undefined && run.outcome.result !== 'gone') await requeue(wait);
        return run.outcome;
      }
      // another event arrived while we held the lease: run again if there is time, else hand it to the scheduler
      if (exhausted(run)) {
        await requeue(Math.min(wait ?? 1, 1));
        await releaseFully(deps, run.lease, run.failures);
        return run.outcome;
      }
    }
  } catch (e) {
    if (e instanceof FencedOutError) {
      deps.log.warn('lease taken over by another invocation; stopping without further writes', { ...key });
      return { ...run.outcome, result: 'fenced' };
    }
    await releaseFully(deps, run.lease).catch(() => undefined); // else the lease expires; the retry takes it over
    throw e;
  }
}
