/**
 * Carries out a {@link Plan} through the API server, in the order of OpenKruise's `Reconcile`
 * (pkg/controller/cloneset/cloneset_controller.go → `syncCloneSet` → `updateStatus` → `truncatePodsToDelete` →
 * `truncateHistory`): revisions first, then the image pre-download writes (best effort, ./preDownload.ts); then
 * the actions in plan order — creations in slow-start batches,
 * deletions only after the scale-down ledger records them, pod patches with resourceVersion preconditions where
 * the plan depends on the exact pod version (an in-place resize first through `pods/resize`,
 * lib/reconcile/pods/patchPod.ts); then status, `podsToDelete` and history; then Events. Expectations
 * are stored before each write and rolled back for writes that failed (docs/architecture.md#lib-reconcile).
 *
 * <a id="write-concurrency"></a>The writes of one slow-start batch, and a run of consecutive pod patches, go out
 * concurrently, at most {@link ExecuteContext.writeConcurrency} at a time, started in plan order; two patches of
 * the same pod stay in order (the second waits for the first). A failed create lets the rest of its batch finish
 * and stops the next batch (OpenKruise's `slowStartBatch`); a failed patch starts no further patch. Everything else
 * (revisions, the ledger, deletions, status, clean-up) stays one write at a time. With a concurrency of 1 the writes
 * are made one by one in plan order. A run of consecutive deletions has its expectations stored once, before its
 * first delete (docs/reliability.md#dynamodb-capacity).
 *
 * Each step below returns what it did; {@link executePlan} only strings them together.
 */
import type { CloneSet, CloneSetStatus, PersistentVolumeClaim, Pod } from '../../api/types.js';
import type { Plan } from './plan/types.js';
import type { Action, PatchReason } from '../../podset/actions.js';
import { CONDITION_FAILED_VALIDATION, statusNeedsWrite } from './plan/index.js';
import { metaTime } from '../../api/time.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { classifyWriteError, goErrorText, type KubeApiError } from '../../kube/errors.js';
import type { EventCorrelationState } from '../../kube/eventCorrelation.js';
import { patchOwnerReferences } from '../../kube/ownerReferences.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient, KubeEvent, KubeObject, Resource } from '../../kube/types.js';
import { patchCloneSetPodsToDelete, updateCloneSetStatus } from './write.js';
import { recordEvents } from './recordEvents.js';
import type { Expectations, ExpectationStore, Lease, ScaleDownLedger } from '../../state/index.js';
import { DEFAULT_WRITE_CONCURRENCY, runBounded } from '../../core/bounded.js';
import { controllerRef } from '../../podset/ownership.js';
import { createOwned } from '../../reconcile/pods/createOwned.js';
import { deleteInstances, type DeleteTarget } from '../../reconcile/pods/deleteInstance.js';
import { failureEvent, successEvent } from '../../reconcile/pods/outcomeEvents.js';
import { capPendingWrites } from '../../reconcile/pods/passLimit.js';
import { writePreDownload } from './preDownload.js';
import { mergeStatusPatches, type PodPatch } from '../../reconcile/pods/statusPatches.js';
import { writePodPatch } from '../../reconcile/pods/patchPod.js';

/** What {@link executePlan} needs. */
export interface ExecuteContext {
  kube: KubeClient;
  lease: Lease;
  expectations: ExpectationStore;
  ledger: ScaleDownLedger;
  /** The CloneSet as read at the start of this pass (its resourceVersion is the status precondition). */
  cloneSet: CloneSet;
  /**
   * The owned pods as listed: a create that meets AlreadyExists for a name among them is a failure; for another
   * name it is our own earlier create if this CloneSet controls the object that holds the name (`Writer.create`).
   */
  pods: readonly Pod[];
  /** The owned PVCs as listed (their UIDs are the delete preconditions). */
  pvcs: readonly PersistentVolumeClaim[];
  /** Expectations still pending before this plan (already observed against the listed objects). */
  pending: Expectations;
  clock: Clock;
  /** A fresh id for a scale-down intent. */
  newIntentId: () => string;
  log: Logger;
  /**
   * Events already recorded by this invocation (`type|reason|message`): a repeat is not recorded again, so a
   * condition that persists over several passes (e.g. ScaleUpLimited) makes one Event per invocation, not one per pass.
   */
  recordedEvents?: Set<string>;
  /**
   * Correlation state of this CloneSet's Events (lib/kube/eventCorrelation.ts), replaced after each Event; kept by
   * the caller for the invocation. Absent: a fresh state for this call.
   */
  eventCorrelation?: { state: EventCorrelationState };
  /** Writes in flight at most, within a create batch or a run of pod patches; default {@link DEFAULT_WRITE_CONCURRENCY}. */
  writeConcurrency?: number;
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
 * container statuses it saw (OpenKruise's `inplaceupdate.Update` does the same through a resourceVersion-checked
 * update) and releasing ownership must not race a re-adoption. Lifecycle, hash, recreate-label and condition
 * patches are idempotent strategic merges that OpenKruise sends without a precondition; with one, they would
 * conflict with the kubelet's own status updates.
 */
const PRECONDITIONED: ReadonlySet<PatchReason> = new Set<PatchReason>([
  'InPlaceUpdate',
  'InPlaceUpdateGraceExpired',
  'InPlaceUpdateNextBatch',
  'ReleaseOwnership',
]);

/**
 * A failed write becomes a FailedScale / FailedUpdate condition on the status (as OpenKruise's `syncCloneSet`). A
 * condition of that type already True in the stored status is kept as it is, only its message brought up to
 * date (OpenKruise's `SetCloneSetCondition` keeps a condition of unchanged status and reason); the message is the
 * error as Go prints it ({@link goErrorText}: an API error's Status message), as `podsScaleErr.Error()`. A failure that
 * repeats then leaves the status unchanged, so it is not rewritten and its watch event cannot trigger the next
 * attempt before the backoff does (docs/reliability.md#backoff).
 */
function withFailureCondition(
  status: CloneSetStatus,
  stored: CloneSetStatus | undefined,
  phase: Plan['phase'],
  error: Error,
  now: Date,
): CloneSetStatus {
  const type = phase === 'update' ? 'FailedUpdate' : 'FailedScale';
  const t = metaTime(now);
  const current = stored?.conditions?.find((c) => c.type === type && c.status === 'True');
  const message = goErrorText(error);
  const condition = current
    ? { ...current, message }
    : { type, status: 'True' as const, lastUpdateTime: t, lastTransitionTime: t, message };
  return {
    ...status,
    conditions: [...(status.conditions ?? []).filter((c) => c.type !== type), condition],
  };
}

type CreatePod = Extract<Action, { type: 'CreatePod' }>;
type DeletePod = Extract<Action, { type: 'DeletePod' }>;
type Deletion = Extract<Action, { type: 'DeletePod' | 'DeletePVC' }>;

const isDeletion = (a: Action): a is Deletion => a.type === 'DeletePod' || a.type === 'DeletePVC';

const isPodPatch = (a: Action): a is PodPatch => a.type === 'PatchPod' || a.type === 'PatchPodStatus';

/**
 * Groups consecutive CreatePod actions by slow-start batch, consecutive pod patches into one run and consecutive
 * deletions of one type (DeletePod, DeletePVC) into one run, keeping everything else as single steps.
 */
function batches(actions: readonly Action[]): Action[][] {
  const out: Action[][] = [];
  for (const a of actions) {
    const first = out[out.length - 1]?.[0];
    const together =
      first !== undefined &&
      ((a.type === 'CreatePod' && first.type === 'CreatePod' && first.batch === a.batch) ||
        (isPodPatch(a) && isPodPatch(first)) ||
        (isDeletion(a) && a.type === first.type));
    if (together) out[out.length - 1].push(a);
    else out.push([a]);
  }
  return out;
}

/** What {@link applyChanges} did. */
interface Applied {
  writes: number;
  /** Outcome Events of the actions, in order. */
  events: KubeEvent[];
  error?: KubeApiError;
  conflict: boolean;
}

/** The error of a failed create or patch, with the action it stopped and what the rest of its step did. */
class ActionFailed extends Error {
  constructor(
    readonly action: Action,
    readonly failure: unknown,
    readonly partial: { writes: number; events: KubeEvent[] },
  ) {
    super('action failed');
  }
}

/** State shared by the steps of one {@link applyChanges}. */
class Writer {
  /** Latest resourceVersion written per pod name, so a second patch of a pod in one plan has the right precondition. */
  readonly latestRv = new Map<string, string>();
  /** Update expectations are recorded after the writes (they carry the returned resourceVersion), saved once. */
  updatesChanged = false;
  readonly namespace: string;
  /** Names of the objects the plan was computed from. */
  readonly seen: ReadonlySet<string>;
  /** The pods as listed, by name (the basis of a pod patch's conflict retry, lib/reconcile/pods/patchPod.ts). */
  readonly listedPods: ReadonlyMap<string, Pod>;

  constructor(
    readonly ctx: ExecuteContext,
    readonly expected: Expectations,
  ) {
    this.namespace = ctx.cloneSet.metadata.namespace ?? '';
    this.seen = new Set([...ctx.pods, ...ctx.pvcs].map((o) => o.metadata.name ?? ''));
    this.listedPods = new Map(ctx.pods.map((p) => [p.metadata.name ?? '', p]));
  }

  save(): Promise<void> {
    return this.ctx.expectations.put(this.ctx.lease, this.expected);
  }

  /** Writes in flight at most. */
  get concurrency(): number {
    return this.ctx.writeConcurrency ?? DEFAULT_WRITE_CONCURRENCY;
  }

  /**
   * POST, where AlreadyExists means the object is ours only if the plan did not see the name taken and the object
   * that holds it is controlled by this CloneSet (its controller reference names the CloneSet's UID): the
   * API-server adapter retries a create whose answer was lost, so its first attempt created it. The create
   * expectation then stays until the object is listed. Anything else is a real failure — a name the plan saw
   * taken, or one a pod this CloneSet released (or someone else's object) holds (review finding 2), as
   * OpenKruise's `createOnePod` fails on any AlreadyExists.
   * @throws the create's error when the object is not ours (also when reading it fails)
   */
  async create<T extends KubeObject>(resource: Resource<T>, object: T): Promise<void> {
    const name = object.metadata.name ?? '';
    const uid = this.ctx.cloneSet.metadata.uid;
    const outcome = await createOwned(
      this.ctx.kube,
      resource,
      object,
      !this.seen.has(name),
      (found) => !!uid && controllerRef(found.metadata.ownerReferences)?.uid === uid,
    );
    if (outcome === 'existed')
      this.ctx.log.info('create met AlreadyExists for an object this CloneSet controls: counted as ours', {
        name,
      });
  }
}

/**
 * One slow-start batch of creations, concurrently (bounded) after its create expectations are stored (as
 * OpenKruise's `createPods` with `slowStartBatch`): every create of the batch is attempted. Failed creates have
 * their expectations rolled back.
 * @returns writes made and the Events of the successes
 * @throws ActionFailed for the first failed create (after the others of the batch finished)
 */
async function createBatch(w: Writer, step: CreatePod[]): Promise<{ writes: number; events: KubeEvent[] }> {
  const at = w.ctx.clock();
  for (const a of step) {
    w.expected.creates.push({ name: a.pod.metadata.name ?? '', at });
    for (const pvc of a.pvcs) w.expected.creates.push({ name: pvc.metadata.name ?? '', at });
  }
  await w.save();
  const results = await runBounded(
    step,
    w.concurrency,
    async (a) => {
      for (const pvc of a.pvcs) await w.create(RESOURCES.persistentvolumeclaims, pvc);
      await w.create(RESOURCES.pods, a.pod);
    },
    false,
  );
  const events: KubeEvent[] = [];
  const failed: { a: CreatePod; reason: unknown }[] = [];
  results.forEach((r, i) => {
    if (r.status === 'rejected') failed.push({ a: step[i], reason: r.reason });
    else {
      const ev = successEvent(step[i], '');
      if (ev) events.push(ev);
    }
  });
  if (failed.length > 0) {
    const names = new Set(
      failed.flatMap(({ a }) => [a.pod.metadata.name ?? '', ...a.pvcs.map((p) => p.metadata.name ?? '')]),
    );
    w.expected.creates = w.expected.creates.filter((op) => !names.has(op.name));
    await w.save();
    // one FailedCreate per refused pod, as OpenKruise's createOnePod records it (the first comes with the failure)
    for (const { a, reason } of failed.slice(1))
      if (reason instanceof Error) events.push(failureEvent(a, reason, ''));
    throw new ActionFailed(failed[0].a, failed[0].reason, { writes: step.length - failed.length, events });
  }
  return { writes: step.length, events };
}

/** The pod (with the PVCs of its instance, by their listed UIDs) or the PVC a deletion removes. */
function targetOf(w: Writer, a: Deletion): DeleteTarget {
  if (a.type === 'DeletePVC') return { pvcs: [{ name: a.name, uid: a.uid }] };
  return {
    pod: { name: a.pod.name, uid: a.pod.uid },
    pvcs: a.pvcNames.map((name) => ({
      name,
      uid: w.ctx.pvcs.find((p) => p.metadata.name === name)?.metadata.uid ?? '',
    })),
  };
}

/**
 * A run of consecutive deletions, one at a time in plan order, their delete expectations stored in one write
 * before the first ({@link deleteInstances}, which also rolls back those of deletions not made).
 * @returns writes made and the Events of the deletions, in plan order
 * @throws ActionFailed for the failed deletion (the later ones are not attempted)
 */
async function deleteRun(
  w: Writer,
  step: Deletion[],
  updateRevision: string,
): Promise<{ writes: number; events: KubeEvent[] }> {
  const done = { writes: 0, events: [] as KubeEvent[] };
  let deleted = 0;
  const ctx = {
    kube: w.ctx.kube,
    expectations: w.ctx.expectations,
    lease: w.ctx.lease,
    namespace: w.namespace,
  };
  try {
    await deleteInstances(
      ctx,
      w.expected,
      step.map((a) => targetOf(w, a)),
      w.ctx.clock(),
      (i, writes) => {
        deleted = i + 1;
        done.writes += writes;
        const ev = successEvent(step[i], updateRevision);
        if (ev) done.events.push(ev);
      },
    );
  } catch (e) {
    throw new ActionFailed(step[deleted], e, done);
  }
  return done;
}

/** Marks a patch not attempted because an earlier patch of the same pod failed. */
const NOT_ATTEMPTED = new Error('not attempted: an earlier write to the same pod failed');

/**
 * A run of consecutive pod patches, concurrently (bounded) in plan order, two condition patches of one pod merged
 * into one write (statusPatches.ts#status-patch-merge); a patch waits for the previous patch of the same pod, and
 * is not attempted when that one failed. After a failure no further patch is started.
 * @returns writes made and the Events of the successes, in plan order
 * @throws ActionFailed for the first failed patch in plan order (after the patches in flight finished)
 */
async function patchRun(
  w: Writer,
  planned: PodPatch[],
  updateRevision: string,
): Promise<{ writes: number; events: KubeEvent[] }> {
  const step = mergeStatusPatches(planned); // two condition patches of one pod: one write (statusPatches.ts)
  const lastOfPod = new Map<string, Promise<unknown>>();
  const outcomes = await runBounded(
    step,
    w.concurrency,
    (a) => {
      const before = lastOfPod.get(a.pod.name);
      const mine = (async () => {
        if (
          before &&
          !(await before.then(
            () => true,
            () => false,
          ))
        )
          throw NOT_ATTEMPTED;
        return applyOne(w, a);
      })();
      lastOfPod.set(a.pod.name, mine);
      return mine;
    },
    true,
  );
  const done = { writes: 0, events: [] as KubeEvent[] };
  let failure: { a: PodPatch; reason: unknown } | undefined;
  outcomes.forEach((o, i) => {
    if (o.status === 'fulfilled') {
      done.writes += o.value;
      const ev = successEvent(step[i], updateRevision);
      if (ev) done.events.push(ev);
    } else if (o.status === 'rejected' && o.reason !== NOT_ATTEMPTED && !failure) {
      failure = { a: step[i], reason: o.reason };
    }
  });
  if (failure) throw new ActionFailed(failure.a, failure.reason, done);
  return done;
}

/**
 * One action other than a create.
 * @returns writes made
 * @throws the API error of the write (the caller attaches the action)
 */
async function applyOne(w: Writer, a: Exclude<Action, CreatePod | Deletion>): Promise<number> {
  const { kube } = w.ctx;
  const ns = w.namespace;
  const at = w.ctx.clock();
  switch (a.type) {
    case 'PatchPod':
    case 'PatchPodStatus': {
      const rv =
        a.type === 'PatchPod' && PRECONDITIONED.has(a.reason)
          ? (w.latestRv.get(a.pod.name) ?? a.pod.resourceVersion)
          : undefined;
      // the listed pod: a conflict of a resize action's writes is re-read and retried when only its status moved
      const planned = w.listedPods.get(a.pod.name);
      const { pod, writes } = await writePodPatch(kube, ns, a, {
        ...(rv !== undefined ? { resourceVersion: rv } : {}),
        ...(planned ? { planned } : {}),
      });
      const newRv = pod.metadata.resourceVersion;
      if (newRv) {
        w.latestRv.set(a.pod.name, newRv);
        w.expected.updates = w.expected.updates.filter((op) => op.name !== a.pod.name);
        w.expected.updates.push({ name: a.pod.name, uid: a.pod.uid, resourceVersion: newRv, at });
        w.updatesChanged = true;
      }
      return writes;
    }
    case 'CreatePVC':
      // CloneSet plans none (its PVCs come with their pod's CreatePod); Advanced StatefulSet's pending pods do
      await w.create(RESOURCES.persistentvolumeclaims, a.pvc);
      return 1;
    case 'PatchPVCOwner':
      await patchOwnerReferences(
        kube,
        RESOURCES.persistentvolumeclaims,
        { namespace: ns, name: a.name },
        a.uid,
        a.ownerReferences,
      );
      return 1;
    case 'ResizePVC':
      throw new Error('CloneSet plans no ResizePVC');
  }
}

/** The plan's new and updated ControllerRevisions. @returns writes made */
async function writeRevisions(kube: KubeClient, plan: Plan): Promise<number> {
  let writes = 0;
  if (plan.revisions.create) {
    await kube.create(RESOURCES.controllerrevisions, plan.revisions.create);
    writes++;
  }
  if (plan.revisions.update) {
    await kube.replace(RESOURCES.controllerrevisions, plan.revisions.update);
    writes++;
  }
  return writes;
}

/**
 * Revisions, then the actions in plan order; the ledger records every DeletePod of the plan before the first one
 * and is cleared after the last action. The first API error stops everything after it.
 * @throws state-store errors (FencedOutError) and non-API errors
 */
async function applyChanges(ctx: ExecuteContext, plan: Plan, expected: Expectations): Promise<Applied> {
  const w = new Writer(ctx, expected);
  const applied: Applied = { writes: 0, events: [], conflict: false };
  let current: Action | undefined;
  let created = 0;
  try {
    applied.writes += await writeRevisions(ctx.kube, plan);
    if (plan.preDownload) {
      const pre = await writePreDownload(ctx.kube, ctx.log, w.namespace, plan.preDownload);
      applied.writes += pre.writes;
      applied.events.push(...pre.events);
    }
    const deletions = plan.actions.filter((a): a is DeletePod => a.type === 'DeletePod');
    let intentId: string | undefined;
    for (const step of batches(plan.actions)) {
      const first = step[0];
      if (first.type === 'CreatePod' || isPodPatch(first)) {
        const done =
          first.type === 'CreatePod'
            ? await createBatch(w, step as CreatePod[])
            : await patchRun(w, step as PodPatch[], plan.revisions.updateRevision);
        if (first.type === 'CreatePod') created += done.writes;
        applied.writes += done.writes;
        applied.events.push(...done.events);
        continue;
      }
      if (first.type === 'DeletePod' && !intentId) {
        intentId = ctx.newIntentId();
        await ctx.ledger.record(ctx.lease, {
          intentId,
          createdAt: ctx.clock(),
          ...(ctx.cloneSet.metadata.generation !== undefined
            ? { generation: ctx.cloneSet.metadata.generation }
            : {}),
          ...(ctx.cloneSet.metadata.uid ? { ownerUid: ctx.cloneSet.metadata.uid } : {}),
          pods: deletions.map((d) => ({ name: d.pod.name, uid: d.pod.uid, reason: d.reason })),
        });
      }
      if (isDeletion(first)) {
        const done = await deleteRun(w, step as Deletion[], plan.revisions.updateRevision);
        applied.writes += done.writes;
        applied.events.push(...done.events);
        continue;
      }
      current = first;
      applied.writes += await applyOne(w, first);
      current = undefined;
      const ev = successEvent(first, plan.revisions.updateRevision);
      if (ev) applied.events.push(ev);
    }
    if (intentId) await ctx.ledger.clear(ctx.lease, intentId);
  } catch (e) {
    let failure: unknown = e;
    if (e instanceof ActionFailed) {
      current = e.action;
      failure = e.failure;
      applied.writes += e.partial.writes;
      applied.events.push(...e.partial.events);
      if (e.action.type === 'CreatePod') created += e.partial.writes;
    }
    const kind = classifyWriteError(failure);
    if (kind === 'notApi') throw failure;
    if (kind === 'conflict') {
      applied.conflict = true;
      ctx.log.info('conflict: the object changed since it was read; re-planning', { action: current?.type });
    } else {
      applied.error = failure as KubeApiError;
      if (current) applied.events.push(failureEvent(current, applied.error, plan.revisions.updateRevision));
      ctx.log.warn('write failed; remaining actions skipped', {
        error: applied.error.message,
        action: current?.type,
      });
      if (current?.type === 'CreatePod' && created === 0 && plan.ifNoneCreated)
        await applyInsteadOfCreates(w, plan, applied);
    }
  }
  if (w.updatesChanged) await w.save();
  return applied;
}

/**
 * Not one pod create of the plan succeeded: the plan's `ifNoneCreated` writes (the update phase and the first
 * `KruisePodReady` conditions), as OpenKruise's `syncCloneSet` runs `Update` when `createPods` created nothing. Their
 * writes and Events go into `applied`; one failing stops the rest and is logged, the create's error staying the
 * pass's error.
 * @throws non-API errors
 */
async function applyInsteadOfCreates(w: Writer, plan: Plan, applied: Applied): Promise<void> {
  try {
    for (const step of batches(plan.ifNoneCreated ?? [])) {
      const first = step[0];
      if (isPodPatch(first)) {
        const done = await patchRun(w, step as PodPatch[], plan.revisions.updateRevision);
        applied.writes += done.writes;
        applied.events.push(...done.events);
        continue;
      }
      // the update phase creates and deletes nothing (a ReCreate update labels the pod)
      if (first.type === 'CreatePod' || isDeletion(first)) continue;
      applied.writes += await applyOne(w, first);
      const ev = successEvent(first, plan.revisions.updateRevision);
      if (ev) applied.events.push(ev);
    }
  } catch (e) {
    const failure = e instanceof ActionFailed ? e.failure : e;
    if (e instanceof ActionFailed) {
      applied.writes += e.partial.writes;
      applied.events.push(...e.partial.events);
    }
    if (classifyWriteError(failure) === 'notApi') throw failure;
    w.ctx.log.warn('a write in place of the refused creates failed; the rest skipped', {
      error: (failure as Error).message,
    });
  }
}

/** What {@link writeStatus} did. */
interface StatusWritten {
  writes: number;
  /** The CloneSet as the status write returned it (or as read, when not written). */
  latest: CloneSet;
  conflict: boolean;
  error?: KubeApiError;
}

/**
 * The plan's status — with a FailedScale/FailedUpdate condition when a write failed — when it changed or a write
 * failed, through the status subresource with the read resourceVersion as precondition.
 * @throws non-API errors
 */
async function writeStatus(
  ctx: ExecuteContext,
  plan: Plan,
  error: Error | undefined,
): Promise<StatusWritten> {
  const out: StatusWritten = { writes: 0, latest: ctx.cloneSet, conflict: false };
  if (!plan.statusChanged && !error) return out;
  const stored = ctx.cloneSet.status;
  const status = error
    ? withFailureCondition(
        plan.status,
        stored,
        plan.phase === 'none' ? 'scale' : plan.phase,
        error,
        new Date(ctx.clock()),
      )
    : plan.status;
  // after a failure, write only what differs from the stored status (the plan's own test does not know the
  // failure condition it is about to get back)
  const unchanged =
    error &&
    !statusNeedsWrite(stored, status) &&
    !(stored?.conditions ?? []).some((c) => c.type === CONDITION_FAILED_VALIDATION);
  if (unchanged) return out;
  try {
    out.latest = await updateCloneSetStatus(ctx.kube, ctx.cloneSet, status);
    out.writes++;
  } catch (e) {
    const kind = classifyWriteError(e);
    if (kind === 'notApi') throw e;
    if (kind === 'conflict') out.conflict = true;
    else {
      ctx.log.warn('status update failed', { error: (e as Error).message });
      out.error = e as KubeApiError;
    }
  }
  return out;
}

/**
 * Best-effort clean-up after the status: `spec.scaleStrategy.podsToDelete` truncated (only when nothing failed or
 * conflicted: it patches on top of the status write's resourceVersion), then surplus ControllerRevisions deleted.
 * Failures are logged, never reported (the next pass retries).
 * @returns writes made
 * @throws non-API errors
 */
async function truncate(ctx: ExecuteContext, plan: Plan, latest: CloneSet, clean: boolean): Promise<number> {
  let writes = 0;
  const attempt = async (
    what: string,
    write: () => Promise<unknown>,
    extra: Record<string, unknown> = {},
  ) => {
    try {
      await write();
      writes++;
    } catch (e) {
      if (classifyWriteError(e) === 'notApi') throw e;
      ctx.log.warn(`${what} failed`, { ...extra, error: (e as Error).message });
    }
  };
  const { podsToDelete } = plan;
  if (podsToDelete && clean)
    await attempt('podsToDelete truncation', () => patchCloneSetPodsToDelete(ctx.kube, latest, podsToDelete));
  const ns = ctx.cloneSet.metadata.namespace ?? '';
  for (const name of plan.revisions.deleteNames)
    await attempt(
      'history truncation',
      () => ctx.kube.delete(RESOURCES.controllerrevisions, { namespace: ns, name }),
      {
        revision: name,
      },
    );
  return writes;
}

/**
 * Report a write that failed before the plan could be executed (a delete while finishing a recorded scale-down,
 * ./finishScaleDown.ts) as {@link executePlan} reports its own: the plan's status with a FailedScale/FailedUpdate
 * condition carrying `error`'s message (written only when it differs from the stored status), then the plan's
 * Events. No action of `plan` is attempted. As OpenKruise's `syncCloneSet`, which sets FailedScale from the error of
 * `deletePods` and still updates the status.
 * @param plan the plan for the world as read (its actions are ignored)
 * @returns the status write, if any, and `error`
 * @throws non-API errors
 */
export async function reportFailedWrite(
  ctx: ExecuteContext,
  plan: Plan,
  error: KubeApiError,
): Promise<ExecuteResult> {
  const status = await writeStatus(ctx, plan, error);
  await recordEvents(ctx, plan.events);
  return { writes: status.writes, error, ...(status.conflict ? { conflict: true } : {}) };
}

/**
 * Execute `plan`, its creations, deletions and pod patches capped by {@link capPendingWrites} (the expectations and the
 * scale-down ledger must fit one DynamoDB item; the next pass continues). Never throws for API errors: the first failing write stops the remaining actions, is recorded as
 * a Warning Event and a FailedScale/FailedUpdate condition, and is returned in `error` — except a 409 Conflict,
 * which only stops the actions and sets `conflict` (the world moved on; the caller re-reads and re-plans), and an
 * AlreadyExists on a create for a name the plan did not see, held by an object this CloneSet controls, which is
 * our own earlier attempt (an unobserved create). Errors of the state store (including `FencedOutError`, when another invocation took the lease over) are
 * thrown: nothing more may be written.
 */
export async function executePlan(ctx: ExecuteContext, plan: Plan): Promise<ExecuteResult> {
  const actions = capPendingWrites(plan.actions);
  if (actions.length < plan.actions.length)
    ctx.log.info('pod writes of this pass capped; the next pass continues', {
      planned: plan.actions.length,
      executed: actions.length,
    });
  const applied = await applyChanges(ctx, { ...plan, actions }, structuredClone(ctx.pending));
  const status = await writeStatus(ctx, plan, applied.error);
  const error = applied.error ?? status.error;
  const conflict = applied.conflict || status.conflict;
  const cleaned = await truncate(ctx, plan, status.latest, !error && !conflict);
  await recordEvents(ctx, [...plan.events, ...applied.events]);
  return {
    writes: applied.writes + status.writes + cleaned,
    ...(error ? { error } : {}),
    ...(conflict ? { conflict } : {}),
  };
}
