/**
 * One reconcile invocation for one object key of any kind (docs/architecture.md#one-invocation): lease → passes →
 * requeue → release. Kind-neutral: what one pass does is the controller's {@link Reconciler} (lib/controllers), as
 * controller-runtime's loop calls a `Reconciler` it does not know. Used unchanged by the Lambda handler and by the
 * embedded default.
 *
 * Invariant: an invocation that has returned (or thrown) holds no lease — except when it was fenced out, and then
 * the lease is someone else's, or when its release failed in DynamoDB, and then the lease runs out by itself and a
 * requeue for after its end was scheduled (docs/reliability.md#backoff).
 */
import { objectKeyOf, type ObjectKey } from '../core/objectKey.js';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import {
  requeueDueMs,
  type RequeueScheduler,
  type ReconcileReason,
  type ReconcileRequest,
} from '../requests/index.js';
import {
  FencedOutError,
  StateStoreError,
  type AcquireResult,
  type Lease,
  type LeaseStore,
  type DirtyMark,
  type DirtyMarks,
  type ReleaseOptions,
} from '../state/index.js';
import {
  decodeCorrelation,
  emptyCorrelation,
  encodeCorrelation,
  type EventCorrelationState,
} from '../kube/eventCorrelation.js';
import { KubeApiError, UnresolvedReferenceError } from '../kube/errors.js';
import { ListFloors } from '../kube/listFloors.js';
import { KeptObject } from '../kube/keptObject.js';
import { backoffSeconds, DEFAULT_BACKOFF, type BackoffSettings } from './backoff.js';
import { requestIdOfHolder } from './holder.js';
import { LeaseEndingError } from './leaseGuard.js';

/** What the loop needs whatever the kind: the lease, the requeue scheduler and the time budget. */
export interface LoopDeps {
  leases: LeaseStore;
  requeue: RequeueScheduler;
  log: Logger;
  clock: Clock;
  /** Lease holder id of this execution, unique per execution: `<requestId>/<execution>` (./holder.ts). */
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
  /**
   * While a wait is slept inside the invocation, look at the lease's dirty flag every this many ms
   * ({@link LeaseStore.takeDirty}, one strongly consistent read) and end the wait when another invocation marked it:
   * an event then reaches the next pass within this interval instead of at the end of the wait, as a controller's
   * workqueue hands an event to the next sync at once. Absent or 0: the whole wait is slept.
   */
  dirtyPollMs?: number;
  /** Retry schedule after failed writes (docs/reliability.md#backoff); default {@link DEFAULT_BACKOFF}. */
  backoff?: Readonly<BackoffSettings>;
  /**
   * Puts a request on the bus now (the runtime's publisher): how an invocation whose budget ran out with events
   * marked on its lease hands them to a fresh invocation at once, after its release ({@link reconcileObject}). The
   * requeue scheduled before that release stays, the net for a kill in between. Absent: only that requeue, which
   * EventBridge Scheduler fires in the next minute at the earliest (lib/requests/requeue.ts `requeueMinute`).
   * @throws whatever publishing throws (logged, not rethrown: the requeue covers it)
   */
  handOff?: (request: ReconcileRequest) => Promise<void>;
}

/** What the loop threads through the passes of one invocation, for the controller's pass to use. */
export interface PassEnv<Scope> {
  /** The held lease: every state write of the pass is fenced by it. */
  lease: Lease;
  /** Events already recorded by this invocation (not repeated). */
  recordedEvents: Set<string>;
  /**
   * Event correlation state of the object (lib/kube/eventCorrelation.ts): as the last invocation's release stored it
   * on the lease item, carried through this invocation's passes and stored again by its release.
   */
  eventCorrelation: { state: EventCorrelationState };
  /**
   * What each pass reads, from the request's reason ({@link Reconciler.readScope}); after dirty marks, as after an
   * observed change ({@link MARKED_CHANGE_REASON}).
   */
  scope: Scope;
  /**
   * Where this invocation's LISTs stand (lib/kube/listFloors.ts): the floors the last release stored, raised to the
   * request's resourceVersion ({@link startingFloors}), dropped when a dirty mark ends a wait or a release; stored
   * again by the release. Absent, every LIST is a quorum read.
   */
  listFloors?: ListFloors;
  /**
   * The invocation's copy of the reconciled object (lib/kube/keptObject.ts), for the controllers that keep it: dropped
   * when a dirty mark says the object changed after it. Absent (a single pass of the CLI), every GET is read.
   */
  keptObject?: KeptObject;
  /**
   * What to close when the invocation ends (a controller's watches, lib/kube/watchedLists.ts), run once after its
   * release, however it ends. Absent where no loop owns the env (a single pass of the CLI): then nothing that needs
   * closing may be opened.
   */
  atEnd?: (() => void)[];
}

/** What one pass did. */
export interface PassResult<P = unknown> {
  /** The object does not exist (any more): the invocation ends without a requeue. */
  gone: boolean;
  /** API writes made. */
  writes: number;
  /** Whether the pass changed the cluster (then the next pass runs at once). */
  acted: boolean;
  /** When to look again, seconds (fractions allowed), when nothing else happens. */
  requeueAfterSeconds?: number;
  /**
   * The clock reading (epoch ms) `requeueAfterSeconds` counts from, for a wait to a wall-clock time (an
   * AdvancedCronJob's next run): the loop's inline sleep and the requeue scheduler then aim at that instant instead
   * of counting the delay from when they see it (after the pass's writes). Absent: from when the pass returns.
   */
  requeueFromMs?: number;
  /** The pass's write error, if any: the invocation backs off by the failure count. */
  error?: string;
  /** The controller's plan of the pass (for logs and tests). */
  plan?: P;
}

/**
 * How a controller reconciles one pass of one object (its read → pure plan → write), as the loop calls it: the
 * lease, requeues, backoff and the dirty flag are the loop's, never the pass's.
 * @typeParam D what the controller's pass needs (at least {@link LoopDeps}' clock and log; its own clients and stores)
 * @typeParam P its plan type
 * @typeParam Scope its read scopes (e.g. `selector` | `owned`)
 */
export interface Reconciler<D, P, Scope> {
  /** What a pass reads for a request of this reason (the timers may read less than a change does). */
  readScope(reason: ReconcileReason): Scope;
  /**
   * One pass over `key`.
   * @throws state-store errors (FencedOutError after a takeover; StateStoreError) and failed reads (KubeApiError):
   *   the loop counts the last two as a failed pass and backs off; API write failures are returned in `error`,
   *   never thrown
   */
  pass(deps: D, key: ObjectKey, env: PassEnv<Scope>): Promise<PassResult<P>>;
  /**
   * The waits the passes ask for are the object's one wake-up (docs/architecture.md#wake-up): the loop hands the
   * last pass's wait to `RequeueScheduler.wakeUpAfter`, which replaces the key's earlier one, and removes it
   * (`cancelWakeUp`) when the object is gone or the last pass asks for none — so a moved or removed schedule leaves
   * no stale timer behind (an AdvancedCronJob's next run). A backoff, a lease safety net or a budget's hand-off is
   * still an ordinary requeue, and leaves the wake-up as it is. Absent: every wait is an ordinary requeue.
   */
  readonly keyedWakeUp?: boolean;
}

/** A lease call that failed in DynamoDB after the SDK's retries (a `StateStoreError`; never a lost race). */
export type LeaseFailure = 'acquire' | 'release';

/** What one invocation did. */
export interface ReconcileOutcome<P = unknown> {
  /**
   * `deferred`: another invocation holds the lease (its dirty flag was set, it will re-run; a deferred resync also
   * requeues for after that lease, in case the holder died: {@link deferralRequeueSeconds}). `fenced`: the lease
   * was taken over, or was about to end before an API write (lib/reconcile/leaseGuard.ts): no further writes.
   * `failed`: the lease could not be taken (its `acquire` failed in DynamoDB): no pass ran, a requeue was
   * scheduled ({@link leaseFailure} `acquire`).
   */
  result: 'reconciled' | 'deferred' | 'gone' | 'fenced' | 'failed';
  passes: number;
  /** API writes made. */
  writes: number;
  /** Delay handed to the requeue scheduler, seconds (a wake-up's too). */
  requeuedAfterSeconds?: number;
  /**
   * For a reconciler with {@link Reconciler.keyedWakeUp}: `set` when the invocation (re)set the object's wake-up,
   * `cancelled` when it removed it; absent when it left it as it was.
   */
  wakeUp?: 'set' | 'cancelled';
  /** The budget ran out with events marked, and a `Requeue` went on the bus at once ({@link LoopDeps.handOff}). */
  handedOff?: boolean;
  /**
   * The last error, if any: a write's (also recorded as an Event and a condition), a failed read's or store call's,
   * or the failed lease call's ({@link leaseFailure}).
   */
  error?: string;
  /**
   * Consecutive failed passes of this object after this invocation, as stored on its lease when it released
   * (docs/reliability.md#backoff); when the release failed, that count plus one for the release, not stored.
   * Absent when 0 or when no pass ran.
   */
  failures?: number;
  /**
   * The lease call that failed in DynamoDB, if one did: the invocation backed off instead of throwing
   * (docs/reliability.md#backoff). After a failed `release` the lease stays until it runs out.
   */
  leaseFailure?: LeaseFailure;
  /** The last plan (for logs and tests). */
  plan?: P;
}

/** The state of one invocation, threaded through its steps. */
interface Run<D extends LoopDeps, P, Scope> {
  deps: D;
  reconciler: Reconciler<D, P, Scope>;
  key: ObjectKey;
  outcome: ReconcileOutcome<P>;
  env: PassEnv<Scope>;
  /** Consecutive failed passes: as the lease brought them, +1 per failed pass, 0 after a pass without one. */
  failures: number;
  /** Whether the lease item held a correlation state when acquired (a release then removes it when none is live). */
  correlationStored: boolean;
}

/**
 * The correlation state the lease brought, or an empty one when it brought none or a malformed one (logged: the
 * object's Events are then aggregated and filtered as after a controller restart, nothing else is affected).
 */
function carriedCorrelation(log: Logger, key: ObjectKey, text: string | undefined): EventCorrelationState {
  if (text === undefined) return emptyCorrelation();
  try {
    return decodeCorrelation(text);
  } catch (e) {
    log.warn('stored Event correlation state unreadable; starting from none', {
      ...key,
      error: e instanceof Error ? e.message : String(e),
    });
    return emptyCorrelation();
  }
}

/**
 * What the run's release stores as the Event correlation text ({@link ReleaseOptions.eventCorrelation}): the live
 * part of the state; `null` (remove) when none is live but one was stored; absent when neither (nothing to write).
 */
function correlationToStore<D extends LoopDeps, P, Scope>(run: Run<D, P, Scope>): string | null | undefined {
  const text = encodeCorrelation(run.env.eventCorrelation.state, run.deps.clock());
  if (text === null && !run.correlationStored) return undefined;
  return text;
}

/** Pass budget or time budget used up: what is left goes to the requeue scheduler. */
function exhausted<D extends LoopDeps, P, Scope>(run: Run<D, P, Scope>): boolean {
  return run.outcome.passes >= run.deps.maxPasses || run.deps.clock() >= run.deps.deadlineMs;
}

/** Adds a pass's numbers to the run: writes, plan, error, failure count. */
function tally<D extends LoopDeps, P, Scope>(run: Run<D, P, Scope>, pass: PassResult<P>): void {
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
 * One pass of the controller; a pass that throws a `KubeApiError` — a read that kept failing after the HTTP
 * layer's retries (429, 5xx, no answer; the contract lets a pass throw API errors only for reads) — or a
 * `StateStoreError` — a DynamoDB call that failed after the SDK's retries (throttled, unavailable, timed out) — is
 * a failed pass, so it is counted and backed off like a failed write (review finding 10) instead of leaving the
 * invocation for Lambda's retries and the dead-letter queue; so is an `UnresolvedReferenceError` (a reference to a
 * kind the API server does not serve: lib/kube/scaleFinder.ts). As OpenKruise's `Reconcile`, which returns a failed
 * list's error to the rate-limited workqueue (no Event, no condition: nothing was read to write them on). A store
 * error leaves nothing half-done that the next pass cannot see: every bookkeeping write comes before the API writes
 * it announces (docs/architecture.md#write-order), and what it does not announce the next (quorum) read shows.
 * @throws what the pass throws besides these (FencedOutError: a takeover; unexpected errors)
 */
async function passOrReadFailure<D extends LoopDeps, P, Scope>(
  run: Run<D, P, Scope>,
): Promise<PassResult<P>> {
  try {
    return await run.reconciler.pass(run.deps, run.key, run.env);
  } catch (e) {
    if (!(e instanceof KubeApiError || e instanceof StateStoreError || e instanceof UnresolvedReferenceError))
      throw e;
    const what =
      e instanceof KubeApiError
        ? 'a read failed'
        : e instanceof UnresolvedReferenceError
          ? 'a reference could not be resolved'
          : 'a state-store call failed';
    run.deps.log.warn(`${what}; backing off`, { ...run.key, error: e.message });
    return { gone: false, writes: 0, acted: false, error: e.message };
  }
}

/** A wait the passes left: `seconds` counted from `fromMs` (epoch ms) when given, else from when it is scheduled. */
interface Wait {
  seconds: number;
  fromMs?: number;
  /** The wait a pass asked for (not a backoff or a budget's hand-off): a keyed reconciler's wake-up. */
  asked?: true;
}

/** Seconds from `nowMs` until `wait` is due (0 when it is due already). */
function secondsLeft(wait: Wait, nowMs: number): number {
  if (wait.fromMs === undefined) return wait.seconds;
  return Math.max(0, (requeueDueMs(nowMs, wait.seconds, wait.fromMs) - nowMs) / 1000);
}

/**
 * Sleep `ms` inside the invocation, in steps of {@link LoopDeps.dirtyPollMs} when set, returning early once another
 * invocation marked the lease dirty (the flag is cleared: the pass that follows reads the world after every mark so
 * far, as after a `'dirty'` release). A poll that fails in DynamoDB is logged and the sleep goes on: the wait ends
 * at its time anyway, and the release still reads the flag.
 * @returns the marks it woke early for, else false
 * @throws FencedOutError when the lease was taken over meanwhile
 */
async function sleepUnlessMarked<D extends LoopDeps, P, Scope>(
  run: Run<D, P, Scope>,
  ms: number,
): Promise<DirtyMarks | false> {
  const { deps } = run;
  const poll = deps.dirtyPollMs ?? 0;
  if (poll <= 0) {
    await deps.sleep(ms);
    return false;
  }
  const end = deps.clock() + ms;
  // `left` shrinks by at least a step each round, so a clock that does not move cannot keep it sleeping
  for (let left = ms; left > 0;) {
    const step = Math.min(poll, left);
    await deps.sleep(step);
    left = Math.min(left - step, end - deps.clock());
    if (left <= 0) return false;
    try {
      const marks = await deps.leases.takeDirty(run.env.lease);
      run.env.keptObject?.checked(deps.clock());
      if (marks) return marks;
    } catch (e) {
      if (!(e instanceof StateStoreError)) throw e;
      deps.log.debug('dirty-flag poll failed; sleeping on', { ...run.key, error: e.message });
    }
  }
  return false;
}

/**
 * Passes until nothing changes, a write failed, the object is gone, or the budget is used up; waits that fit
 * the budget and {@link ReconcileDeps.maxInlineWaitSeconds} are slept inline, to the millisecond (from the pass's
 * `requeueFromMs` when it gave one), ended early by an event's dirty mark ({@link LoopDeps.dirtyPollMs}). After a failed write the wait is the backoff of the failure count (never slept
 * inline: each attempt is one invocation).
 * @returns the wait still to come, if any
 */
async function runPasses<D extends LoopDeps, P, Scope>(run: Run<D, P, Scope>): Promise<Wait | undefined> {
  const { deps } = run;
  /** The last wait a pass asked for (kept when a later pass acted and the budget then ran out). */
  let wait: Wait | undefined;
  /**
   * When a wait a dirty mark cut short was to end (clock, epoch ms): a later wait ends no later, as a controller's
   * workqueue keeps the earliest of its pending `AddAfter`s (a timer for minReadySeconds is not pushed back by an
   * event that arrived meanwhile).
   */
  let cutShortDueMs: number | undefined;
  while (!exhausted(run)) {
    run.outcome.passes++;
    const pass = await passOrReadFailure(run);
    tally(run, pass);
    if (pass.gone) return undefined;
    if (pass.error) return { seconds: backoffSeconds(run.failures, deps.backoff ?? DEFAULT_BACKOFF) };
    if (pass.acted) continue;
    wait =
      pass.requeueAfterSeconds === undefined
        ? undefined
        : {
            seconds: pass.requeueAfterSeconds,
            ...(pass.requeueFromMs !== undefined ? { fromMs: pass.requeueFromMs } : {}),
            asked: true,
          };
    if (wait === undefined) break;
    const now = deps.clock();
    if (
      cutShortDueMs !== undefined &&
      cutShortDueMs > now &&
      cutShortDueMs - now < secondsLeft(wait, now) * 1000
    )
      wait = { seconds: (cutShortDueMs - now) / 1000, asked: true };
    cutShortDueMs = undefined;
    const left = secondsLeft(wait, now);
    if (left <= deps.maxInlineWaitSeconds && now + left * 1000 < deps.deadlineMs) {
      const ms = Math.ceil(left * 1000);
      const marks = await sleepUnlessMarked(run, ms);
      if (marks) {
        afterMarks(run, marks);
        cutShortDueMs = now + ms;
      }
      continue;
    }
    break;
  }
  // the budget ran out while there may be more to do: look again soon
  if (exhausted(run) && wait === undefined) return { seconds: 1 };
  return wait;
}

/**
 * The delay that lands 1 s after a lease's end: rounded up to a whole second, at least 1 s.
 * @param expiresAt the lease's end, epoch ms; `nowMs` the invocation's clock, epoch ms
 * @returns seconds, ≥ 1, a whole number
 */
function secondsAfterLease(expiresAt: number, nowMs: number): number {
  return Math.max(1, Math.ceil((expiresAt - nowMs) / 1000) + 1);
}

/**
 * After a refused acquire, the delay (seconds) after which this request looks again, or undefined when the holder's
 * dirty flag is enough. The flag covers an event only while the holder lives to read it; a holder that died (a
 * SIGKILLed `kruiseless local`, a crashed or timed-out Lambda execution) never reads it, and its lease keeps every
 * other invocation off the object until it runs out:
 * - the holder is another execution of the same request (review finding 3): Lambda retries a crashed execution
 *   under its request id while the dead one's lease still runs — look again 1 s after the lease's end (a live copy
 *   has released by then; the extra pass finds nothing to do);
 * - the request is a `Resync`, the safety net for every event lost — those a dead holder's flag swallowed included —
 *   so it must not be lost to that flag in turn (issue 18, the fault front's killed `kruiseless local`: the restarted
 *   process's resync was deferred by the killed invocation's lease and nothing reconciled the CloneSet again) — look
 *   again 1 s after the lease's end;
 * - the request is a `Requeue`: it may be the holder's own hand-off firing before the holder's release, which
 *   releases whatever the dirty flag says (`requeued: true`, docs/reliability.md#lease-hand-off) — look again in 1 s.
 * Any other event (a change) is left to the flag: if the holder died, the next resync reaches the object (in AWS
 * also the dead execution's retry), and a resync deferred by that lease then looks again after its end. So a
 * timer is set per resync that meets a held lease, not per busy lease (a change deferred under a live holder, the
 * common case, sets none).
 * "1 s after the lease's end" is rounded up to a whole second and at least 1 s.
 * @param holder this execution's holder id; `heldBy` the lease holder's (./holder.ts)
 * @param expiresAt the holder's lease end, epoch ms; `nowMs` the invocation's clock, epoch ms
 * @returns seconds, ≥ 1, a whole number; undefined: no requeue
 */
export function deferralRequeueSeconds(
  request: ReconcileRequest,
  holder: string,
  heldBy: string,
  expiresAt: number,
  nowMs: number,
): number | undefined {
  const afterLeaseEnd = secondsAfterLease(expiresAt, nowMs);
  if (requestIdOfHolder(heldBy) === requestIdOfHolder(holder)) return afterLeaseEnd;
  if (request.reason === 'Requeue') return 1;
  if (request.reason === 'Resync') return afterLeaseEnd;
  return undefined;
}

/**
 * A lease `acquire` that failed in DynamoDB (review finding 10): no pass runs (nothing may be written without the
 * lease), the request is requeued after the backoff's first step and nothing is thrown — Lambda's two retries would
 * follow within about two minutes and then drop the event in the dead-letter queue. The first step, because the
 * failure count is on the lease item this call could not reach; it is left as stored. Repeated failures are bounded
 * by the requeue scheduler keeping one requeue per key at a time (EventBridge Scheduler: one per key and minute;
 * the embedded default: the earliest timer), besides the events and the resync that reach the key anyway.
 * @returns `failed`, with the requeue's delay and the store's error
 */
async function acquireFailed<P>(
  deps: LoopDeps,
  request: ReconcileRequest,
  e: StateStoreError,
): Promise<ReconcileOutcome<P>> {
  const seconds = backoffSeconds(1, deps.backoff ?? DEFAULT_BACKOFF);
  deps.log.warn('lease acquire failed in DynamoDB; no pass ran, requeued', {
    ...objectKeyOf(request),
    error: e.message,
    requeueAfterSeconds: seconds,
  });
  await deps.requeue.requeueAfter({ ...request, reason: 'Requeue' }, seconds);
  return {
    result: 'failed',
    passes: 0,
    writes: 0,
    error: e.message,
    requeuedAfterSeconds: seconds,
    leaseFailure: 'acquire',
  };
}

/**
 * The LIST floors an invocation starts from (lib/kube/listFloors.ts, docs/architecture.md#list-floors): those the
 * last release stored, raised to the request's resourceVersion so the change that woke it is in every answer; none
 * for a `Resync` (the safety net for lost events reads everything by quorum) or a request without a resourceVersion.
 * @param carried the text {@link LeaseStore.acquire} returned, if any
 */
export function startingFloors(carried: string | undefined, request: ReconcileRequest): ListFloors {
  const floors = ListFloors.fromCarried(carried);
  if (request.reason === 'Resync' || request.resourceVersion === undefined) floors.forget();
  else floors.raise(request.resourceVersion);
  return floors;
}

/**
 * The dirty mark a request leaves on a lease it found held ({@link DirtyMark}, docs/architecture.md#list-floors): a
 * `Resync` or a request without a resourceVersion asks the holder for a quorum read; a change of an owned or mapped
 * object, for LISTs at least as new as it; a change of the reconciled object itself asks nothing of the LISTs (an
 * informer-fed controller reads its pods no fresher) but that the holder read the object again if its copy is older
 * (docs/architecture.md#kept-object; coalesced with owned changes, the request's resourceVersion may be newer than the
 * object's, which only makes the holder read it again sooner); a timer asks nothing.
 */
export function markOf(request: ReconcileRequest): DirtyMark {
  if (request.reason === 'Resync' || request.resourceVersion === undefined) return 'quorum';
  if (request.reason === 'ObjectChanged') return { objectResourceVersion: request.resourceVersion };
  if (request.reason === 'Requeue') return 'none';
  return { resourceVersion: request.resourceVersion };
}

/**
 * The invocation's reads after it took dirty marks ({@link DirtyMarks}): its floors forgotten when one asked for a
 * quorum read (or came without any, from an older writer), else raised to the newest marked change (that change is
 * in the next answers, on any API server), else kept; and its kept copy of the object dropped when a mark says the
 * object changed after it (lib/kube/keptObject.ts).
 */
export function readsAfterMarks(
  env: Pick<PassEnv<unknown>, 'listFloors' | 'keptObject'>,
  marks: DirtyMarks,
): void {
  env.keptObject?.afterMarks(marks);
  const floors = env.listFloors;
  if (floors === undefined) return;
  if (marks.quorum) floors.forget();
  else if (marks.resourceVersion !== undefined) floors.raise(marks.resourceVersion);
}

/**
 * The reason the loop gives to what dirty marks stand for: changes reported while the lease was held, of the object
 * or of any object its controller watches, whose reasons the marks do not keep. The passes after them read as after
 * an observed change (a CloneSet's or an Advanced StatefulSet's `Requeue` lists only the pods its selector matches,
 * so a pod relabelled out of it while a `Requeue` held the lease would stay owned and unreleased until the resync),
 * and the hand-off that passes them on carries it.
 */
export const MARKED_CHANGE_REASON: ReconcileReason = 'OwnedObjectChanged';

/**
 * What the run does after it took dirty marks: its reads as {@link readsAfterMarks} says, and its read scope that of
 * an observed change ({@link MARKED_CHANGE_REASON}) for the rest of the invocation.
 */
function afterMarks<D extends LoopDeps, P, Scope>(run: Run<D, P, Scope>, marks: DirtyMarks): void {
  readsAfterMarks(run.env, marks);
  run.env.scope = run.reconciler.readScope(MARKED_CHANGE_REASON);
}

/**
 * After a release at the end of the budget with events marked: a request on the bus now, with the reason of the
 * marked changes ({@link MARKED_CHANGE_REASON})
 * ({@link LoopDeps.handOff}), so the marked changes reach a fresh invocation at once instead of with the requeue
 * (on EventBridge Scheduler a minute away; the requeue stays as the net). A publish that fails is logged: the
 * requeue still comes.
 */
async function handOff<D extends LoopDeps, P, Scope>(
  run: Run<D, P, Scope>,
  request: ReconcileRequest,
): Promise<void> {
  const { deps } = run;
  if (deps.handOff === undefined) return;
  try {
    await deps.handOff({ ...request, reason: MARKED_CHANGE_REASON });
    run.outcome.handedOff = true;
  } catch (e) {
    deps.log.warn('hand-off at the end of the budget failed; the requeue comes instead', {
      ...run.key,
      error: errorMessage(e),
    });
  }
}

/**
 * Releases the run's lease, storing its failure count and LIST floors; a release that fails in DynamoDB (review finding 10) is not
 * thrown but backed off. The lease then stays this invocation's until it runs out, and every event meanwhile only
 * marks it, so the key is requeued for 1 s after the lease's end, or after the backoff of the failure count plus
 * one (the failed release) when that is later. A timer the passes asked for was scheduled before the release
 * (review finding 17) and stays. The count is not stored (the write failed): the next holder, once the lease has
 * expired, takes it over as any expired lease and reads the count stored before.
 * @param requeue schedules the run's `Requeue` and notes its delay in the outcome
 * @returns the release's answer, or `failed` (the outcome then carries the error and the count)
 * @throws FencedOutError after a takeover; other errors than `StateStoreError`
 */
async function releaseOrBackOff<D extends LoopDeps, P, Scope>(
  run: Run<D, P, Scope>,
  requeue: (seconds: number) => Promise<void>,
  options?: ReleaseOptions,
): Promise<'released' | 'dirty' | 'failed'> {
  const { deps, outcome } = run;
  try {
    const eventCorrelation = correlationToStore(run);
    const listFloors = run.env.listFloors?.carried();
    const stored = await deps.leases.release(run.env.lease, run.failures, {
      ...options,
      ...(eventCorrelation === undefined ? {} : { eventCorrelation }),
      ...(listFloors === undefined ? {} : { listFloors }),
    });
    run.correlationStored =
      eventCorrelation === undefined ? run.correlationStored : eventCorrelation !== null;
    return stored;
  } catch (e) {
    if (!(e instanceof StateStoreError)) throw e;
    run.failures++;
    outcome.failures = run.failures;
    outcome.error = e.message;
    outcome.leaseFailure = 'release';
    const seconds = Math.max(
      backoffSeconds(run.failures, deps.backoff ?? DEFAULT_BACKOFF),
      secondsAfterLease(run.env.lease.expiresAt, deps.clock()),
    );
    deps.log.warn('lease release failed in DynamoDB; it stays until it runs out, requeued for after that', {
      ...run.key,
      error: e.message,
      failures: run.failures,
      requeueAfterSeconds: seconds,
    });
    await requeue(seconds);
    return 'failed';
  }
}

/**
 * A keyed reconciler's wake-up after its passes ({@link Reconciler.keyedWakeUp}): the last pass's wait replaces the
 * key's wake-up; no wait (the object gone, or nothing to wait for) removes it. A scheduler without keyed wake-ups
 * gets an ordinary requeue instead, and nothing to remove.
 * @throws the scheduler's errors
 */
async function setOrCancelWakeUp<D extends LoopDeps, P, Scope>(
  run: Run<D, P, Scope>,
  request: ReconcileRequest,
  wait: Wait | undefined,
): Promise<void> {
  const { requeue } = run.deps;
  const requeued = { ...request, reason: 'Requeue' as const };
  if (wait === undefined) {
    if (requeue.cancelWakeUp === undefined) return;
    await requeue.cancelWakeUp(requeued);
    run.outcome.wakeUp = 'cancelled';
    return;
  }
  if (requeue.wakeUpAfter === undefined) await requeue.requeueAfter(requeued, wait.seconds, wait.fromMs);
  else {
    await requeue.wakeUpAfter(requeued, wait.seconds, wait.fromMs);
    run.outcome.wakeUp = 'set';
  }
  run.outcome.requeuedAfterSeconds = wait.seconds;
}

/**
 * Reconcile one object key with its controller's `reconciler`. Takes the lease (or marks the holder dirty and returns
 * `deferred`), runs passes until nothing changes, sleeps short waits inside the invocation and schedules longer ones,
 * re-runs when another event arrived meanwhile (dirty flag), then releases the lease; a timer is scheduled before
 * the release. When the budget is used up while another event waits, it requeues and then releases in one write
 * whatever the dirty flag says, so it never returns holding the lease. A refused acquire marks the holder dirty and
 * also requeues when the flag may never be read or may be cleared unread ({@link deferralRequeueSeconds}).
 * DynamoDB failures (`StateStoreError`) are never thrown: of a pass, a failed pass; of the `acquire`, `failed` with a
 * requeue after the backoff's first step and no pass; of a `release`, a requeue for after the lease's end
 * (docs/reliability.md#backoff).
 * @throws unexpected errors after releasing the lease (the event is retried by Lambda / the bus); a takeover by
 *   another invocation (`FencedOutError`) is not an error: it returns `fenced`.
 */
export async function reconcileObject<D extends LoopDeps, P, Scope>(
  deps: D,
  reconciler: Reconciler<D, P, Scope>,
  request: ReconcileRequest,
): Promise<ReconcileOutcome<P>> {
  const key = objectKeyOf(request);
  let acquired: AcquireResult;
  try {
    acquired = await deps.leases.acquire(
      key,
      deps.holder,
      deps.leaseDurationMs,
      deps.clock(),
      markOf(request),
    );
  } catch (e) {
    if (!(e instanceof StateStoreError)) throw e;
    return acquireFailed(deps, request, e);
  }
  if (!acquired.acquired) {
    deps.log.debug('lease held by another invocation; marked it dirty so the holder runs again', {
      holder: acquired.heldBy,
      ...key,
    });
    const deferred: ReconcileOutcome<P> = { result: 'deferred', passes: 0, writes: 0 };
    const again = deferralRequeueSeconds(
      request,
      deps.holder,
      acquired.heldBy,
      acquired.expiresAt,
      deps.clock(),
    );
    if (again !== undefined) {
      await deps.requeue.requeueAfter({ ...request, reason: 'Requeue' }, again);
      deferred.requeuedAfterSeconds = again;
    }
    return deferred;
  }
  const run: Run<D, P, Scope> = {
    deps,
    reconciler,
    key,
    outcome: { result: 'reconciled', passes: 0, writes: 0 },
    env: {
      lease: acquired.lease,
      recordedEvents: new Set(),
      eventCorrelation: { state: carriedCorrelation(deps.log, key, acquired.eventCorrelation) },
      scope: reconciler.readScope(request.reason),
      listFloors: startingFloors(acquired.listFloors, request),
      keptObject: new KeptObject(deps.clock()),
      atEnd: [],
    },
    failures: acquired.failures,
    correlationStored: acquired.eventCorrelation !== undefined,
  };
  const requeue = async (seconds: number, fromMs?: number) => {
    await deps.requeue.requeueAfter({ ...request, reason: 'Requeue' }, seconds, fromMs);
    run.outcome.requeuedAfterSeconds = seconds;
  };
  try {
    for (;;) {
      const wait = await runPasses(run);
      const timer = run.outcome.result === 'gone' ? undefined : wait;
      // the timer is scheduled before the release (review finding 17): a kill between the two leaves a lease that
      // runs out and a timer that fires, never a free lease and no timer
      if (reconciler.keyedWakeUp === true && (timer === undefined || timer.asked))
        await setOrCancelWakeUp(run, request, timer);
      else if (timer !== undefined) await requeue(timer.seconds, timer.fromMs);
      let marks: DirtyMarks = { quorum: true };
      const released = await releaseOrBackOff(run, requeue, {
        onMarks: (taken) => (marks = taken),
      });
      if (released !== 'dirty') return run.outcome;
      // the next pass reads at least what the marks changed
      afterMarks(run, marks);
      run.env.keptObject?.checked(deps.clock());
      // another event arrived while we held the lease: run again if there is time, else hand it to the scheduler
      if (exhausted(run)) {
        if (timer === undefined || secondsLeft(timer, deps.clock()) > 1) await requeue(1);
        // the requeue covers every event marked so far: one release write, however many marks follow (finding 18)
        if ((await releaseOrBackOff(run, requeue, { requeued: true })) !== 'failed')
          await handOff(run, request);
        return run.outcome;
      }
    }
  } catch (e) {
    if (e instanceof FencedOutError) {
      deps.log.warn('lease taken over by another invocation; stopping without further writes', { ...key });
      return { ...run.outcome, result: 'fenced' };
    }
    if (e instanceof LeaseEndingError) {
      // the invocation outlived its budget (nothing killed it): no more API writes; hand the rest on, and free the
      // lease unless a successor has it already
      deps.log.warn('lease about to end; stopping without further API writes', { ...key, error: e.message });
      await requeue(1);
      await releaseOrBackOff(run, requeue, { requeued: true }).catch((err: unknown) => {
        if (!(err instanceof FencedOutError)) throw err;
      });
      return { ...run.outcome, result: 'fenced' };
    }
    // the rethrown error is retried by the event source: that retry covers the marks (else the lease expires)
    await deps.leases.release(run.env.lease, undefined, { requeued: true }).catch(() => undefined);
    throw e;
  } finally {
    for (const close of run.env.atEnd ?? []) close();
  }
}
