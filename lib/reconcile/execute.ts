/**
 * Carries out a {@link Plan} through the API server (DESIGN §2 steps 5–6): revisions first, then the actions in
 * plan order — creations in slow-start batches, deletions only after the scale-down ledger records them, pod
 * patches with resourceVersion preconditions where the plan depends on the exact pod version — then status, `podsToDelete` and history, then Events.
 * Expectations are written before each write and rolled back for writes that failed.
 */
import { EventReason } from '../api/keys.js';
import type { CloneSet, CloneSetStatus, PersistentVolumeClaim } from '../api/types.js';
import type { Action, PatchReason, Plan } from '../cloneset/types.js';
import { setCondition } from '../cloneset/status.js';
import { metaTime } from '../api/time.js';
import { KubeApiError } from '../kube/errors.js';
import type { KubeClient, CloneSetEvent } from '../kube/types.js';
import type { Expectations, ExpectationStore, Lease, ScaleDownLedger } from '../state/index.js';
import type { Logger } from './logger.js';
import { ignoreNotFound } from './ignoreNotFound.js';

/** What {@link executePlan} needs. */
export interface ExecuteContext {
  kube: KubeClient;
  lease: Lease;
  expectations: ExpectationStore;
  ledger: ScaleDownLedger;
  /** The CloneSet as read at the start of this pass (its resourceVersion is the status precondition). */
  cloneSet: CloneSet;
  /** The owned PVCs as listed (their UIDs are the delete preconditions). */
  pvcs: PersistentVolumeClaim[];
  /** Expectations still pending before this plan (already observed against the listed objects). */
  pending: Expectations;
  /** Epoch milliseconds. */
  nowMs: () => number;
  /** A fresh id for a scale-down intent. */
  newIntentId: () => string;
  log: Logger;
  /**
   * Events already recorded by this invocation (`type|reason|message`): a repeat is not recorded again, so a
   * condition that persists over several passes (e.g. ScaleUpLimited) makes one Event per invocation, not one per pass.
   */
  recordedEvents?: Set<string>;
}

/** Outcome of {@link executePlan}. */
export interface ExecuteResult {
  /** API writes that succeeded (revisions, pods, PVCs, status, spec). */
  writes: number;
  /** The first write error, if any (later actions were not attempted). */
  error?: Error;
  /**
   * A write met a 409 Conflict (an object changed since it was read): not a failure — the remaining actions were
   * skipped and the caller should re-read and plan again at once.
   */
  conflict?: boolean;
}

/**
 * Pod patches that must apply to exactly the pod version they were planned from: an in-place update records the
 * container statuses it saw (spec §3.10) and releasing ownership must not race a re-adoption. Lifecycle, hash,
 * recreate-label and condition patches are idempotent strategic merges that OpenKruise sends without a
 * precondition (spec §3.11, §2.4); with one, they would conflict with the kubelet's own status updates.
 */
const PRECONDITIONED: ReadonlySet<PatchReason> = new Set<PatchReason>([
  'InPlaceUpdate',
  'InPlaceUpdateGraceExpired',
  'InPlaceUpdateNextBatch',
  'ReleaseOwnership',
]);

/** Spec §3.1 step 13: a failed write becomes FailedScale / FailedUpdate on the status. */
function withFailureCondition(
  status: CloneSetStatus,
  phase: Plan['phase'],
  error: Error,
  now: Date,
): CloneSetStatus {
  const type = phase === 'update' ? 'FailedUpdate' : 'FailedScale';
  const t = metaTime(now);
  return {
    ...status,
    conditions: setCondition(status.conditions ?? [], {
      type,
      status: 'True',
      lastUpdateTime: t,
      lastTransitionTime: t,
      message: error.message,
    }),
  };
}

/** Groups consecutive CreatePod actions by slow-start batch, keeping everything else as single steps. */
function steps(actions: Action[]): Action[][] {
  const out: Action[][] = [];
  for (const a of actions) {
    const last = out[out.length - 1];
    if (a.type === 'CreatePod' && last && last[0].type === 'CreatePod' && last[0].batch === a.batch)
      last.push(a);
    else out.push([a]);
  }
  return out;
}

function successEvent(a: Action): CloneSetEvent | undefined {
  switch (a.type) {
    case 'CreatePod':
      return {
        type: 'Normal',
        reason: EventReason.SuccessfulCreate,
        message: `succeed to create pod ${a.pod.metadata.name}`,
      };
    case 'DeletePod':
      return {
        type: 'Normal',
        reason: EventReason.SuccessfulDelete,
        message: `succeed to delete pod ${a.pod.name}`,
      };
    case 'PatchPod':
      if (a.reason === 'InPlaceUpdate') {
        return {
          type: 'Normal',
          reason: EventReason.SuccessfulUpdatePodInPlace,
          message: `successfully update pod ${a.pod.name} in-place`,
        };
      }
      if (a.reason === 'RecreateUpdate') {
        return {
          type: 'Normal',
          reason: EventReason.SuccessfulUpdatePodReCreate,
          message: `successfully update pod ${a.pod.name} recreate`,
        };
      }
      return undefined;
    default:
      return undefined;
  }
}

function failureEvent(a: Action, error: Error): CloneSetEvent {
  const reason =
    a.type === 'CreatePod'
      ? EventReason.FailedCreate
      : a.type === 'DeletePod' || a.type === 'DeletePVC'
        ? EventReason.FailedDelete
        : a.type === 'PatchPod' && a.reason === 'InPlaceUpdate'
          ? EventReason.FailedUpdatePodInPlace
          : a.type === 'PatchPod' && a.reason === 'RecreateUpdate'
            ? EventReason.FailedUpdatePodReCreate
            : EventReason.FailedUpdate;
  return { type: 'Warning', reason, message: error.message };
}

/**
 * Execute `plan`. Never throws for API errors: the first failing write stops the remaining actions, is recorded as
 * a Warning Event and a FailedScale/FailedUpdate condition, and is returned in `error` — except a 409 Conflict,
 * which only stops the actions and sets `conflict` (the world moved on; the caller re-reads and re-plans). Errors of the state store
 * (including `FencedOutError`, when another invocation took the lease over) are thrown: nothing more may be written.
 */
export async function executePlan(ctx: ExecuteContext, plan: Plan): Promise<ExecuteResult> {
  const { kube, cloneSet } = ctx;
  const ns = cloneSet.metadata.namespace ?? '';
  const events: CloneSetEvent[] = [...plan.events];
  const expected: Expectations = structuredClone(ctx.pending);
  /** Latest resourceVersion written per pod name, so a second patch of a pod in one plan has the right precondition. */
  const latestRv = new Map<string, string>();
  let writes = 0;
  let error: Error | undefined;
  let conflict = false;
  /** Update expectations are recorded after the writes (they carry the returned resourceVersion), saved once. */
  let updatesChanged = false;
  let failed: Action | undefined;

  const saveExpectations = () => ctx.expectations.put(ctx.lease, expected);

  try {
    if (plan.revisions.create) {
      await kube.createControllerRevision(plan.revisions.create);
      writes++;
    }
    if (plan.revisions.update) {
      await kube.replaceControllerRevision(plan.revisions.update);
      writes++;
    }

    const deletions = plan.actions.filter(
      (a): a is Extract<Action, { type: 'DeletePod' }> => a.type === 'DeletePod',
    );
    let intentId: string | undefined;
    for (const step of steps(plan.actions)) {
      const first = step[0];
      if (first.type === 'DeletePod' && !intentId && deletions.length > 0) {
        intentId = ctx.newIntentId();
        await ctx.ledger.record(ctx.lease, {
          intentId,
          createdAt: ctx.nowMs(),
          pods: deletions.map((d) => ({ name: d.pod.name, uid: d.pod.uid, reason: d.reason })),
        });
      }
      const at = ctx.nowMs();
      if (first.type === 'CreatePod') {
        for (const a of step) {
          if (a.type !== 'CreatePod') continue;
          expected.creates.push({ name: a.pod.metadata.name ?? '', at });
          for (const pvc of a.pvcs) expected.creates.push({ name: pvc.metadata.name ?? '', at });
        }
        await saveExpectations();
        const results = await Promise.allSettled(
          step.map(async (a) => {
            if (a.type !== 'CreatePod') return;
            for (const pvc of a.pvcs) await kube.createPVC(pvc);
            await kube.createPod(a.pod);
          }),
        );
        const failures = results
          .map((r, i) => ({ r, a: step[i] }))
          .filter((x): x is { r: PromiseRejectedResult; a: Action } => x.r.status === 'rejected');
        writes += results.length - failures.length;
        for (const [i, r] of results.entries()) {
          const ev = r.status === 'fulfilled' ? successEvent(step[i]) : undefined;
          if (ev) events.push(ev);
        }
        if (failures.length > 0) {
          const failedNames = new Set(
            failures.flatMap(({ a }) =>
              a.type === 'CreatePod'
                ? [a.pod.metadata.name ?? '', ...a.pvcs.map((p) => p.metadata.name ?? '')]
                : [],
            ),
          );
          expected.creates = expected.creates.filter((op) => !failedNames.has(op.name));
          await saveExpectations();
          failed = failures[0].a;
          throw failures[0].r.reason instanceof Error
            ? failures[0].r.reason
            : new Error(String(failures[0].r.reason));
        }
        continue;
      }
      for (const a of step) {
        failed = a;
        await executeOne(a);
        failed = undefined;
        const ev = successEvent(a);
        if (ev) events.push(ev);
      }
    }
    if (intentId) await ctx.ledger.clear(ctx.lease, intentId);
  } catch (e) {
    if (!isApiError(e)) throw e;
    if (isConflict(e)) {
      conflict = true;
      ctx.log.info('conflict: the object changed since it was read; re-planning', { action: failed?.type });
    } else {
      error = e;
      if (failed) events.push(failureEvent(failed, error));
      ctx.log.warn('write failed; remaining actions skipped', { error: error.message, action: failed?.type });
    }
  }
  if (updatesChanged) await saveExpectations();

  let status = plan.status;
  if (error)
    status = withFailureCondition(
      status,
      plan.phase === 'none' ? 'scale' : plan.phase,
      error,
      new Date(ctx.nowMs()),
    );
  let latest = cloneSet;
  if (plan.statusChanged || error) {
    try {
      latest = await kube.updateCloneSetStatus(cloneSet, status);
      writes++;
    } catch (e) {
      if (!isApiError(e)) throw e;
      if (isConflict(e)) conflict = true;
      else {
        ctx.log.warn('status update failed', { error: e.message });
        error ??= e;
      }
    }
  }
  if (plan.podsToDelete && !error && !conflict) {
    try {
      // the status write bumped the resourceVersion: patch on top of what it returned
      await kube.patchCloneSetPodsToDelete(latest, plan.podsToDelete);
      writes++;
    } catch (e) {
      if (!isApiError(e)) throw e;
      ctx.log.warn('podsToDelete truncation failed', { error: (e as Error).message });
    }
  }
  for (const name of plan.revisions.deleteNames) {
    try {
      await kube.deleteControllerRevision(ns, name);
      writes++;
    } catch (e) {
      if (!isApiError(e)) throw e;
      ctx.log.warn('history truncation failed', { revision: name, error: (e as Error).message });
    }
  }
  for (const ev of events) {
    const key = `${ev.type}|${ev.reason}|${ev.message}`;
    if (ctx.recordedEvents?.has(key)) continue;
    ctx.recordedEvents?.add(key);
    await kube.recordEvent(cloneSet, ev);
  }
  return { writes, ...(error ? { error } : {}), ...(conflict ? { conflict } : {}) };

  async function executeOne(a: Action): Promise<void> {
    const at = ctx.nowMs();
    switch (a.type) {
      case 'CreatePod':
        return; // handled in batches
      case 'DeletePod': {
        expected.deletes.push({ name: a.pod.name, uid: a.pod.uid, at });
        await saveExpectations();
        await ignoreNotFound(kube.deletePod(ns, a.pod.name, a.pod.uid));
        writes++;
        for (const pvcName of a.pvcNames) {
          const uid = ctx.pvcs.find((p) => p.metadata.name === pvcName)?.metadata.uid ?? '';
          expected.deletes.push({ name: pvcName, uid, at });
          await saveExpectations();
          await ignoreNotFound(kube.deletePVC(ns, pvcName, uid));
          writes++;
        }
        return;
      }
      case 'PatchPod':
      case 'PatchPodStatus': {
        const rv =
          a.type === 'PatchPod' && PRECONDITIONED.has(a.reason)
            ? (latestRv.get(a.pod.name) ?? a.pod.resourceVersion)
            : undefined;
        const pod =
          a.type === 'PatchPod'
            ? await kube.patchPod(ns, a.pod.name, a.patch, rv)
            : await kube.patchPodStatus(ns, a.pod.name, a.patch, rv);
        writes++;
        const newRv = pod.metadata.resourceVersion;
        if (newRv) {
          latestRv.set(a.pod.name, newRv);
          expected.updates = expected.updates.filter((op) => op.name !== a.pod.name);
          expected.updates.push({ name: a.pod.name, uid: a.pod.uid, resourceVersion: newRv, at });
          updatesChanged = true;
        }
        return;
      }
      case 'DeletePVC':
        expected.deletes.push({ name: a.name, uid: a.uid, at });
        await saveExpectations();
        await ignoreNotFound(kube.deletePVC(ns, a.name, a.uid));
        writes++;
        return;
      case 'PatchPVCOwner':
        await kube.patchPVCOwnerReferences(ns, a.name, a.uid, a.ownerReferences);
        writes++;
        return;
    }
  }
}

/** API errors are reported and stop the plan; anything else (state store, fencing, bugs) propagates. */
function isApiError(e: unknown): e is KubeApiError {
  return e instanceof KubeApiError;
}

function isConflict(e: KubeApiError): boolean {
  return e.statusCode === 409 && e.reason !== 'AlreadyExists';
}
