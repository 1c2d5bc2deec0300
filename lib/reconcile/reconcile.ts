/**
 * One reconcile invocation for one CloneSet key (DESIGN §2): lease → read → expectations → scale-down ledger →
 * plan → act → requeue → release. Used unchanged by the Lambda handler and by the embedded default.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { LABEL_INSTANCE_ID, SAFE_ALPHABET } from '../api/keys.js';
import type { CloneSet, ControllerRevision, PersistentVolumeClaim, Pod } from '../api/types.js';
import { selectorString } from '../api/selector.js';
import { planCloneSet } from '../cloneset/plan.js';
import type { Plan, PlannerOptions } from '../cloneset/types.js';
import type { RequeueScheduler, ReconcileRequest } from '../events/index.js';
import type { KubeClient, Listed } from '../kube/types.js';
import {
  FencedOutError,
  type CloneSetKey,
  type ExpectationStore,
  type Lease,
  type LeaseStore,
  type ScaleDownLedger,
} from '../state/index.js';
import { executePlan } from './execute.js';
import { isSatisfied, observeExpectations } from './expectations.js';
import { finishScaleDownIntent } from './ledger.js';
import type { Logger } from './logger.js';

/** Everything one invocation needs; built by the Lambda handler or the embedded default. */
export interface ReconcileDeps {
  kube: KubeClient;
  leases: LeaseStore;
  expectations: ExpectationStore;
  ledger: ScaleDownLedger;
  requeue: RequeueScheduler;
  log: Logger;
  /** Unique id of this invocation (lease holder). */
  holder: string;
  now: () => Date;
  sleep: (ms: number) => Promise<void>;
  /** Epoch ms by which the invocation must have released its lease (Lambda remaining time minus a margin). */
  deadlineMs: number;
  /** Lease duration, ms; must exceed the function timeout so a live holder never loses its lease. */
  leaseDurationMs: number;
  /** Waits up to this many seconds are slept inside the invocation; longer ones are scheduled (DESIGN §2 step 7). */
  maxInlineWaitSeconds: number;
  /** Reconcile passes per invocation at most (each pass re-reads everything). */
  maxPasses: number;
  options?: Partial<PlannerOptions>;
  /** Instance-id source; default: 5 random characters of SAFE_ALPHABET (spec §3.7). */
  newInstanceId?: () => string;
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
  /** The last plan (for logs and tests). */
  plan?: Plan;
}

/** Default instance id: 5 characters of the safe alphabet (spec §2.2). */
export function randomInstanceId(): string {
  let id = '';
  for (let i = 0; i < 5; i++) id += SAFE_ALPHABET[randomInt(SAFE_ALPHABET.length)];
  return id;
}

/** Expectation timeout (spec §3.14: 5 min, like Kruise's `--expectation-timeout`). */
const EXPECTATION_TIMEOUT_MS = 5 * 60 * 1000;
/** While expectations are pending, look again after this many seconds. */
const PENDING_RECHECK_SECONDS = 2;
/** After a failed write, try again after this many seconds. */
const ERROR_RETRY_SECONDS = 5;

interface PassResult {
  gone: boolean;
  writes: number;
  /** Whether the pass changed the cluster (then the next pass runs at once). */
  acted: boolean;
  requeueAfterSeconds?: number;
  error?: string;
  plan?: Plan;
}

async function listOwned<T extends { metadata: { ownerReferences?: { uid: string }[] } }>(
  p: Promise<Listed<T>>,
  uid: string,
): Promise<T[]> {
  return (await p).items.filter((o) => (o.metadata.ownerReferences ?? []).some((r) => r.uid === uid));
}

async function listRevisions(kube: KubeClient, cs: CloneSet): Promise<ControllerRevision[]> {
  let selector: string;
  try {
    selector = selectorString(cs.spec.selector ?? {});
  } catch {
    return []; // invalid selector: the planner reports it through validation
  }
  return (await kube.listControllerRevisions(cs.metadata.namespace ?? '', selector)).items;
}

async function runPass(
  deps: ReconcileDeps,
  key: CloneSetKey,
  lease: Lease,
  recordedEvents: Set<string>,
): Promise<PassResult> {
  const { kube, log } = deps;
  const started = Date.now();
  const cs = await kube.getCloneSet(key.namespace, key.name);
  if (!cs) {
    await deps.expectations.put(lease, { creates: [], deletes: [], updates: [] });
    return { gone: true, writes: 0, acted: false };
  }
  const uid = cs.metadata.uid ?? '';
  const [pods, pvcs, revisions] = await Promise.all([
    listOwned<Pod>(kube.listPods(key.namespace, LABEL_INSTANCE_ID), uid),
    listOwned<PersistentVolumeClaim>(kube.listPVCs(key.namespace, LABEL_INSTANCE_ID), uid),
    listRevisions(kube, cs),
  ]);
  const nowMs = deps.now().getTime();
  const stored = await deps.expectations.get(key);
  const observed = observeExpectations(stored, pods, pvcs, nowMs, EXPECTATION_TIMEOUT_MS);
  if (observed.changed) await deps.expectations.put(lease, observed.pending);
  if (observed.expired.length > 0) {
    log.warn('expectations timed out; re-planning from what the API server shows', {
      expired: observed.expired.map((op) => op.name),
    });
  }

  const intent = await deps.ledger.get(key);
  if (intent) {
    const writes = await finishScaleDownIntent(
      { ...deps, lease, cloneSet: cs, pods, pvcs, pending: observed.pending },
      intent,
    );
    return { gone: false, writes, acted: writes > 0 };
  }

  const plan = planCloneSet({
    cloneSet: cs,
    pods,
    pvcs,
    revisions,
    now: deps.now(),
    newInstanceId: deps.newInstanceId ?? randomInstanceId,
    ...(deps.options ? { options: deps.options } : {}),
  });
  const waiting = !isSatisfied(observed.pending);
  const effective: Plan = waiting
    ? {
        ...plan,
        actions: [],
        revisions: { ...plan.revisions, create: undefined, update: undefined, deleteNames: [] },
      }
    : plan;
  const result = await executePlan(
    {
      kube,
      lease,
      expectations: deps.expectations,
      ledger: deps.ledger,
      cloneSet: cs,
      pvcs,
      pending: observed.pending,
      nowMs: () => deps.now().getTime(),
      newIntentId: randomUUID,
      log,
      recordedEvents,
    },
    effective,
  );
  const acted =
    effective.actions.length > 0 ||
    !!effective.revisions.create ||
    !!effective.revisions.update ||
    !!result.conflict;
  log.info('reconciled', {
    cloneSet: `${key.cluster}/${key.namespace}/${key.name}`,
    phase: plan.phase,
    waitingForExpectations: waiting,
    diff: plan.diff,
    actions: countBy(effective.actions.map((a) => a.type)),
    writes: result.writes,
    statusChanged: plan.statusChanged,
    validationErrors: plan.validationErrors.length ? plan.validationErrors : undefined,
    requeueAfterSeconds: plan.requeueAfterSeconds,
    error: result.error?.message,
    conflict: result.conflict,
    durationMs: Date.now() - started,
  });
  const requeue = result.error
    ? ERROR_RETRY_SECONDS
    : waiting
      ? Math.min(
          PENDING_RECHECK_SECONDS,
          Math.ceil((observed.msUntilTimeout ?? 0) / 1000) || PENDING_RECHECK_SECONDS,
        )
      : plan.requeueAfterSeconds;
  return {
    gone: false,
    writes: result.writes,
    acted: acted && !result.error,
    ...(requeue !== undefined ? { requeueAfterSeconds: requeue } : {}),
    ...(result.error ? { error: result.error.message } : {}),
    plan,
  };
}

function countBy(xs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}

/**
 * Reconcile one CloneSet key (DESIGN §2). Takes the lease (or marks the holder dirty and returns `deferred`),
 * runs passes until nothing changes, sleeps short waits inside the invocation and schedules longer ones, re-runs
 * when another event arrived meanwhile (dirty flag), then releases the lease.
 * @throws state-store and unexpected errors after releasing the lease (the event is retried by Lambda / the bus);
 *   a takeover by another invocation (`FencedOutError`) is not an error: it returns `fenced`.
 */
export async function reconcileCloneSet(
  deps: ReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileOutcome> {
  const key: CloneSetKey = { cluster: request.cluster, namespace: request.namespace, name: request.name };
  const acquired = await deps.leases.acquire(key, deps.holder, deps.leaseDurationMs, deps.now().getTime());
  if (!acquired.acquired) {
    deps.log.debug('lease held by another invocation; marked it dirty so the holder runs again', {
      holder: acquired.heldBy,
      ...key,
    });
    return { result: 'deferred', passes: 0, writes: 0 };
  }
  const lease = acquired.lease;
  const outcome: ReconcileOutcome = { result: 'reconciled', passes: 0, writes: 0 };
  let wait: number | undefined;
  const recordedEvents = new Set<string>();
  /** Pass budget or time budget used up: what is left goes to the requeue scheduler. */
  const exhausted = () => outcome.passes >= deps.maxPasses || deps.now().getTime() >= deps.deadlineMs;
  try {
    for (;;) {
      wait = undefined;
      while (!exhausted()) {
        outcome.passes++;
        const pass = await runPass(deps, key, lease, recordedEvents);
        outcome.writes += pass.writes;
        if (pass.plan) outcome.plan = pass.plan;
        if (pass.error) outcome.error = pass.error;
        if (pass.gone) {
          outcome.result = 'gone';
          break;
        }
        if (pass.acted) continue;
        wait = pass.requeueAfterSeconds;
        const fits = wait !== undefined && deps.now().getTime() + wait * 1000 < deps.deadlineMs;
        if (wait !== undefined && wait <= deps.maxInlineWaitSeconds && fits && !pass.error) {
          await deps.sleep(Math.ceil(wait * 1000));
          continue;
        }
        break;
      }
      if (exhausted() && wait === undefined && outcome.result !== 'gone') wait = 1;
      const released = await deps.leases.release(lease);
      if (released === 'released') break;
      // another event arrived while we held the lease: run again if there is time, else hand it to the scheduler
      if (exhausted()) {
        wait = Math.min(wait ?? 1, 1);
        await deps.requeue.requeueAfter({ ...request, reason: 'Requeue' }, wait);
        outcome.requeuedAfterSeconds = wait;
        await deps.leases.release(lease);
        return outcome;
      }
    }
    if (wait !== undefined && outcome.result !== 'gone') {
      await deps.requeue.requeueAfter({ ...request, reason: 'Requeue' }, wait);
      outcome.requeuedAfterSeconds = wait;
    }
    return outcome;
  } catch (e) {
    if (e instanceof FencedOutError) {
      deps.log.warn('lease taken over by another invocation; stopping without further writes', { ...key });
      return { ...outcome, result: 'fenced' };
    }
    try {
      await deps.leases.release(lease);
    } catch {
      // the lease expires by itself; the retry of this event will take it over
    }
    throw e;
  }
}
