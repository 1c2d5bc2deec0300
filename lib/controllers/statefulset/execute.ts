/**
 * OpenKruise: pkg/controller/statefulset/stateful_set_control.go `performUpdate` (revision, then the pod writes of
 * `updateStatefulSet`, then `updateStatefulSetStatus` even after an error, then `truncateHistory`);
 * stateful_pod_control.go `CreateStatefulPod` (the PVCs before the pod), `DeleteStatefulPod`,
 * `UpdatePodClaimForRetentionPolicy`.
 *
 * Carries out a {@link StatefulSetPlan} through the API server, one write at a time in plan order, as upstream
 * makes them (its replica walk is sequential under both pod management policies) — except a run of condition
 * patches of distinct pods, which go out together (#condition-runs): the ControllerRevision create or bump; then
 * each action — a pod's PVCs, then the pod; deletions; pod and PVC patches — stopping at the first failed
 * write; then the status, when a counted field changed (upstream `inconsistentStatus`), with only this pass's
 * `FailedCreatePod` / `FailedUpdatePod` condition for a failed create or update (upstream's status is new each pass);
 * then the history beyond `revisionHistoryLimit`; then the Events. Expectations are stored before the creates and
 * deletions they stand for (one write per run of creates, one per run of deletions) and after pod patches (they
 * carry the returned resourceVersions), and rolled back for writes that were not made.
 */
import type { PersistentVolumeClaim, Pod } from '../../api/types.js';
import { metaTime } from '../../api/time.js';
import { selectorMatches } from '../../api/selector.js';
import type { Clock } from '../../core/clock.js';
import { DEFAULT_WRITE_CONCURRENCY, runBounded } from '../../core/bounded.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { classifyWriteError, type KubeApiError } from '../../kube/errors.js';
import type { EventCorrelationState } from '../../kube/eventCorrelation.js';
import { patchOwnerReferences } from '../../kube/ownerReferences.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient, KubeEvent } from '../../kube/types.js';
import type { Action, PatchReason } from '../../podset/actions.js';
import { controllerRef, isAdoption } from '../../podset/ownership.js';
import { createOwned } from '../../reconcile/pods/createOwned.js';
import { deleteInstances } from '../../reconcile/pods/deleteInstance.js';
import { ownerRecheck } from '../../reconcile/pods/ownerRecheck.js';
import { capPendingWrites } from '../../reconcile/pods/passLimit.js';
import { recordObjectEvents } from '../../reconcile/pods/recordEvents.js';
import { writeImagePullJobs } from '../../reconcile/pods/writeImagePullJobs.js';
import { mergeStatusPatches, type PodPatch } from '../../reconcile/pods/statusPatches.js';
import { writePodPatch } from '../../reconcile/pods/patchPod.js';
import type { Expectations, ExpectationStore, Lease } from '../../state/index.js';
import { STATEFULSET_RESOURCE } from './api/resource.js';
import type { StatefulSet, StatefulSetCondition, StatefulSetStatus } from './api/types.js';
import type { StatefulSetPlan } from './plan/index.js';
import { actionFailed, actionSucceeded, claimEvent } from './podEvents.js';
import { updateStatefulSetStatus } from './write.js';

/** What {@link executeStatefulSetPlan} needs. */
export interface ExecuteContext {
  kube: KubeClient;
  lease: Lease;
  expectations: ExpectationStore;
  /** The StatefulSet as read at the start of this pass (its resourceVersion is the status precondition). */
  statefulSet: StatefulSet;
  /** The owned pods as listed: a create meeting AlreadyExists for one of their names is a failure. */
  pods: readonly Pod[];
  /** The set's PVCs as listed. */
  pvcs: readonly PersistentVolumeClaim[];
  /** Expectations still pending before this plan (already observed against the listed objects). */
  pending: Expectations;
  clock: Clock;
  log: Logger;
  /** Events already recorded by this invocation (`type|reason|message`): a repeat is not recorded again. */
  recordedEvents?: Set<string>;
  /** Correlation state of this set's Events (lib/kube/eventCorrelation.ts); absent: a fresh state for this call. */
  eventCorrelation?: { state: EventCorrelationState };
  /** Condition patches in flight at most (#condition-runs); default {@link DEFAULT_WRITE_CONCURRENCY}. */
  writeConcurrency?: number;
}

/** Outcome of {@link executeStatefulSetPlan}. */
export interface ExecuteResult {
  /** API writes that succeeded (revisions, PVCs, pods, status, history). */
  writes: number;
  /** The first write error, if any (later actions were not attempted). */
  error?: Error;
  /** A write met a 409 Conflict: the remaining actions were skipped; the caller re-reads and plans again. */
  conflict?: boolean;
}

/** `FailedCreatePod` / `FailedUpdatePod` (OpenKruise's `appsv1beta1.FailedCreatePod`, `FailedUpdatePod`). */
export const CONDITION_FAILED_CREATE_POD = 'FailedCreatePod';
/** See {@link CONDITION_FAILED_CREATE_POD}. */
export const CONDITION_FAILED_UPDATE_POD = 'FailedUpdatePod';

/** Pod patches that must apply to exactly the pod version they were planned from (as CloneSet's executor). */
const PRECONDITIONED: ReadonlySet<PatchReason> = new Set<PatchReason>([
  // an adoption or release writes the pod as it was listed (upstream's patch carries the pod's UID for that)
  'ReleaseOwnership',
  'InPlaceUpdate',
  'InPlaceUpdateGraceExpired',
  'InPlaceUpdateNextBatch',
]);

type CreateAction = Extract<Action, { type: 'CreatePod' | 'CreatePVC' }>;
const isCreate = (a: Action): a is CreateAction => a.type === 'CreatePod' || a.type === 'CreatePVC';
const isPodPatch = (a: Action): a is PodPatch => a.type === 'PatchPod' || a.type === 'PatchPodStatus';

/** Names of the objects a create makes (its PVCs first). */
function createdNames(a: CreateAction): string[] {
  return a.type === 'CreatePVC'
    ? [a.pvc.metadata.name ?? '']
    : [...a.pvcs.map((c) => c.metadata.name ?? ''), a.pod.metadata.name ?? ''];
}

/** An action's write failed; `partial` holds the Events of what it did before (a claim created before its pod). */
class ActionFailed extends Error {
  /**
   * @param events the Events of the failure itself (a claim's), recorded before the action's own
   * @param silent no Event of the action's own failure (upstream `CreateStatefulPod` sinks a pod's AlreadyExists)
   */
  constructor(
    readonly action: Action,
    readonly failure: unknown,
    readonly events: KubeEvent[],
    readonly silent = false,
  ) {
    super('action failed');
  }
}

/**
 * The set was deleted or replaced after the pass read it: its adoptions are withdrawn (see
 * {@link Executor.mayAdopt}) and the pass plans again.
 */
class AdoptionWithdrawn extends Error {
  constructor() {
    super('the StatefulSet is gone, being deleted or replaced since it was read: no pod adopted');
  }
}

/** The state of one execution. */
class Executor {
  readonly namespace: string;
  readonly setName: string;
  readonly seen: ReadonlySet<string>;
  readonly latestRv = new Map<string, string>();
  /** The pods as listed, by name. */
  readonly listedPods: ReadonlyMap<string, Pod>;
  updatesChanged = false;
  writes = 0;
  readonly events: KubeEvent[] = [];

  constructor(
    readonly ctx: ExecuteContext,
    readonly plan: StatefulSetPlan,
    readonly expected: Expectations,
  ) {
    this.namespace = ctx.statefulSet.metadata.namespace ?? '';
    this.setName = ctx.statefulSet.metadata.name ?? '';
    this.seen = new Set(ctx.pods.map((p) => p.metadata.name ?? ''));
    this.listedPods = new Map(ctx.pods.map((p) => [p.metadata.name ?? '', p]));
    this.mayAdopt = ownerRecheck(ctx.kube, STATEFULSET_RESOURCE, ctx.statefulSet);
  }

  save(): Promise<void> {
    return this.ctx.expectations.put(this.ctx.lease, this.expected);
  }

  /**
   * Whether the set may still adopt orphans: read again once, before the first adoption
   * (lib/reconcile/pods/ownerRecheck.ts, upstream's `RecheckDeletionTimestamp`).
   * @throws KubeApiError when the GET fails
   */
  readonly mayAdopt: () => Promise<boolean>;

  /**
   * A PVC of a pod: created, or found to exist already as a PVC of this set (its labels match the set's
   * selector: upstream's `createPersistentVolumeClaims` uses a listed claim of that name and creates none).
   * @returns the Events of the create
   * @throws ActionFailed naming `action` when the create fails
   */
  private async createClaim(action: Action, claim: PersistentVolumeClaim, pod: string): Promise<void> {
    const selector = this.ctx.statefulSet.spec.selector ?? {};
    const name = claim.metadata.name ?? '';
    try {
      const outcome = await createOwned(
        this.ctx.kube,
        RESOURCES.persistentvolumeclaims,
        claim,
        true,
        (found) => selectorMatches(selector, found.metadata.labels),
      );
      if (outcome === 'created') {
        this.writes++;
        this.events.push(claimEvent(this.setName, pod, name));
      }
    } catch (e) {
      const ev =
        classifyWriteError(e) === 'alreadyExists'
          ? []
          : [claimEvent(this.setName, pod, name, errorMessage(e))];
      throw new ActionFailed(action, new ClaimFailed(name, e), ev);
    }
  }

  /** A run of creates, its expectations stored once before the first; those not made are rolled back. */
  async createRun(step: CreateAction[]): Promise<void> {
    const at = this.ctx.clock();
    for (const a of step) for (const name of createdNames(a)) this.expected.creates.push({ name, at });
    await this.save();
    let done = 0;
    try {
      for (const a of step) {
        if (a.type === 'CreatePVC') await this.createClaim(a, a.pvc, a.podName);
        else {
          const podName = a.pod.metadata.name ?? '';
          for (const claim of a.pvcs) await this.createClaim(a, claim, podName);
          const uid = this.ctx.statefulSet.metadata.uid;
          try {
            await createOwned(
              this.ctx.kube,
              RESOURCES.pods,
              a.pod,
              !this.seen.has(podName),
              (found) => !!uid && controllerRef(found.metadata.ownerReferences)?.uid === uid,
            );
          } catch (e) {
            // upstream records no Event for an AlreadyExists pod ("sink already exists errors"): the
            // FailedCreatePod condition says it
            throw new ActionFailed(a, e, [], classifyWriteError(e) === 'alreadyExists');
          }
          this.writes++;
        }
        this.events.push(...actionSucceeded(a, this.setName, this.plan.revisions.updateRevision));
        done++;
      }
    } catch (e) {
      const notMade = new Set(step.slice(done).flatMap(createdNames));
      this.expected.creates = this.expected.creates.filter((op) => !notMade.has(op.name) || op.at !== at);
      await this.save();
      throw e;
    }
  }

  /** A run of pod deletions ({@link deleteInstances}: expectations stored once, the rest rolled back on failure). */
  async deleteRun(step: Extract<Action, { type: 'DeletePod' }>[]): Promise<void> {
    let deleted = 0;
    try {
      this.writes += await deleteInstances(
        {
          kube: this.ctx.kube,
          expectations: this.ctx.expectations,
          lease: this.ctx.lease,
          namespace: this.namespace,
        },
        this.expected,
        step.map((a) => ({ pod: { name: a.pod.name, uid: a.pod.uid }, pvcs: [] })),
        this.ctx.clock(),
        (i) => {
          deleted = i + 1;
          this.events.push(...actionSucceeded(step[i], this.setName, this.plan.revisions.updateRevision));
        },
      );
    } catch (e) {
      throw new ActionFailed(step[deleted], e, []);
    }
  }

  /**
   * One pod patch (strategic merge; status through the subresource; an in-place resize first through `pods/resize`
   * and a conflict of its writes retried in place, lib/reconcile/pods/patchPod.ts), its update expectation recorded
   * after.
   */
  async patchPod(a: PodPatch): Promise<void> {
    const rv =
      a.type === 'PatchPod' && PRECONDITIONED.has(a.reason)
        ? (this.latestRv.get(a.pod.name) ?? a.pod.resourceVersion)
        : undefined;
    let pod: Pod;
    try {
      if (isAdoption(a) && !(await this.mayAdopt())) throw new AdoptionWithdrawn();
      const written = await writePodPatch(this.ctx.kube, this.namespace, a, {
        ...(rv !== undefined ? { resourceVersion: rv } : {}),
        ...this.listed(a.pod.name),
      });
      pod = written.pod;
      this.writes += written.writes;
    } catch (e) {
      if (e instanceof AdoptionWithdrawn) throw e;
      throw new ActionFailed(a, e, []);
    }
    const newRv = pod.metadata.resourceVersion;
    if (newRv) {
      this.latestRv.set(a.pod.name, newRv);
      this.expected.updates = this.expected.updates.filter((op) => op.name !== a.pod.name);
      this.expected.updates.push({
        name: a.pod.name,
        uid: a.pod.uid,
        resourceVersion: newRv,
        at: this.ctx.clock(),
      });
      this.updatesChanged = true;
    }
    this.events.push(...actionSucceeded(a, this.setName, this.plan.revisions.updateRevision));
  }

  /**
   * The pod `name` as listed, as {@link writePodPatch}'s `planned`: its conflict retry compares the re-read pod with
   * it (a status patch of this pass does not count; a metadata patch of this pass makes them differ: no retry).
   */
  listed(name: string): { planned?: Pod } {
    const pod = this.listedPods.get(name);
    return pod ? { planned: pod } : {};
  }

  /**
   * <a id="condition-runs"></a>A run of pod patches: one after the other in plan order, except a run of
   * pods/status patches of distinct pods (conditions only, no precondition: the readiness conditions of the pods
   * a Parallel pass creates, plan/pass.ts `refreshCreated`), whose writes go out concurrently (bounded, started in
   * plan order; none started after a failure), as CloneSet's patch runs (issue 17: 50 new pods waited for 50
   * patches in a row before the last could turn Ready). They change disjoint pods and record no Event, so what
   * the cluster ends with is the same as one after the other.
   * @throws ActionFailed for the first failed patch in plan order (after the patches in flight finished)
   */
  async patchRun(step: PodPatch[]): Promise<void> {
    const concurrent =
      step.length > 1 &&
      step.every((a) => a.type === 'PatchPodStatus') &&
      new Set(step.map((a) => a.pod.name)).size === step.length;
    if (!concurrent) {
      for (const a of step) await this.patchPod(a);
      return;
    }
    const limit = this.ctx.writeConcurrency ?? DEFAULT_WRITE_CONCURRENCY;
    const outcomes = await runBounded(step, limit, (a) => this.patchPod(a), true);
    const failed = outcomes.find((o) => o.status === 'rejected');
    if (failed?.status === 'rejected') throw failed.reason;
  }

  /** A PVC's owner references replaced (the retention policy), the PVC's UID in the patch. */
  async patchClaimOwners(a: Extract<Action, { type: 'PatchPVCOwner' }>): Promise<void> {
    try {
      await patchOwnerReferences(
        this.ctx.kube,
        RESOURCES.persistentvolumeclaims,
        { namespace: this.namespace, name: a.name },
        a.uid,
        a.ownerReferences,
      );
    } catch (e) {
      throw new ActionFailed(a, e, []);
    }
    this.writes++;
  }

  /**
   * A PVC grown to its template's request (upstream `TryPatchPVC`'s `UpdateClaim`): a merge patch, the planned
   * resourceVersion its precondition; the outcome Event after.
   */
  async resizeClaim(a: Extract<Action, { type: 'ResizePVC' }>): Promise<void> {
    try {
      await this.ctx.kube.patch(
        RESOURCES.persistentvolumeclaims,
        { namespace: this.namespace, name: a.name },
        { type: 'merge', body: a.patch },
        a.resourceVersion !== undefined ? { preconditions: { resourceVersion: a.resourceVersion } } : {},
      );
    } catch (e) {
      throw new ActionFailed(a, e, []);
    }
    this.writes++;
    this.events.push(...actionSucceeded(a, this.setName, this.plan.revisions.updateRevision));
  }
}

/** A claim's create failed: upstream's `failed to create PVC <name>: <error>`, which the pod's Event carries. */
class ClaimFailed extends Error {
  constructor(
    readonly claim: string,
    readonly original: unknown,
  ) {
    super(`failed to create PVC ${claim}: ${errorMessage(original)}`);
  }
}

/** The API error inside a failure (a claim's failure carries its create's error). */
function apiFailureOf(failure: unknown): unknown {
  return failure instanceof ClaimFailed ? failure.original : failure;
}

/**
 * Groups consecutive creates into one run and consecutive pod deletions into one run; everything else is a step
 * of its own (consecutive pod patches are merged by {@link mergeStatusPatches} within a step of patches).
 */
function steps(actions: readonly Action[]): Action[][] {
  const out: Action[][] = [];
  for (const a of actions) {
    const first = out[out.length - 1]?.[0];
    const together =
      first !== undefined &&
      ((isCreate(a) && isCreate(first)) ||
        (a.type === 'DeletePod' && first.type === 'DeletePod') ||
        (isPodPatch(a) && isPodPatch(first)));
    if (together) out[out.length - 1].push(a);
    else out.push([a]);
  }
  return out;
}

/**
 * The actions of `plan` as the executor carries them out, in order: capped by {@link capPendingWrites} (the next
 * pass continues; the patches of a pod whose create it left out go too), grouped into runs of creates, runs of pod
 * deletions and runs of pod patches (each run's status patches merged by {@link mergeStatusPatches}), every other
 * action a step of its own. `kruiseless plan` lists its writes from the same steps.
 */
export function executionSteps(actions: readonly Action[]): Action[][] {
  const capped = capPendingWrites(actions);
  // a pod whose create the cap left for the next pass has no status to patch yet (plan/pass.ts `refreshCreated`)
  const kept = new Set(capped.flatMap((a) => (a.type === 'CreatePod' ? [a.pod.metadata.name ?? ''] : [])));
  const left = new Set(
    actions.flatMap((a) =>
      a.type === 'CreatePod' && !kept.has(a.pod.metadata.name ?? '') ? [a.pod.metadata.name ?? ''] : [],
    ),
  );
  const made = left.size === 0 ? capped : capped.filter((a) => !(isPodPatch(a) && left.has(a.pod.name)));
  return steps(made).map((step) => (isPodPatch(step[0]) ? mergeStatusPatches(step as PodPatch[]) : step));
}

/**
 * Whether executing `plan` stores the expectations before any API write but Events: no revision or image pre-download
 * write comes first, and its first step is a run of creates or of pod deletions (each stores the expectations it
 * starts from, with its own added, before its first write). The pass then leaves what it observed to that write
 * instead of storing it first: one DynamoDB write a created pod fewer. Delaying it loses nothing: until it is
 * stored, the next pass observes the same again.
 */
export function storesExpectationsFirst(plan: StatefulSetPlan): boolean {
  if (plan.revisions.create || plan.revisions.bump || plan.preDownload) return false;
  const first = executionSteps(plan.actions)[0]?.[0];
  return first !== undefined && (isCreate(first) || first.type === 'DeletePod');
}

/** The revision write of the plan: the new ControllerRevision, or the older equal one's number brought forward. */
async function writeRevision(ctx: ExecuteContext, plan: StatefulSetPlan): Promise<number> {
  const { create, bump } = plan.revisions;
  if (create) {
    await ctx.kube.create(RESOURCES.controllerrevisions, create);
    return 1;
  }
  if (bump) {
    await ctx.kube.patch(
      RESOURCES.controllerrevisions,
      { namespace: ctx.statefulSet.metadata.namespace ?? '', name: bump.name },
      { type: 'merge', body: { revision: bump.revision } },
    );
    return 1;
  }
  return 0;
}

/**
 * Upstream `SetStatefulsetCondition`: a condition of the same type, status and reason is kept as it is (so a
 * repeated failure does not rewrite the status); otherwise it replaces the one of its type.
 */
export function setCondition(status: StatefulSetStatus, condition: StatefulSetCondition): StatefulSetStatus {
  const current = status.conditions?.find((c) => c.type === condition.type);
  if (current && current.status === condition.status && (current.reason ?? '') === (condition.reason ?? ''))
    return status;
  return {
    ...status,
    conditions: [...(status.conditions ?? []).filter((c) => c.type !== condition.type), condition],
  };
}

/** The condition a failed action leaves (upstream `processReplica`): creates and updates only, not deletions. */
function failureCondition(a: Action | undefined, error: string, now: Date): StatefulSetCondition | undefined {
  // a failed resize is returned by upstream's rolling update without a condition
  if (!a || a.type === 'DeletePod' || a.type === 'DeletePVC' || a.type === 'ResizePVC') return undefined;
  const create = a.type === 'CreatePod' || a.type === 'CreatePVC';
  return {
    type: create ? CONDITION_FAILED_CREATE_POD : CONDITION_FAILED_UPDATE_POD,
    status: 'True',
    lastTransitionTime: metaTime(now),
    reason: '',
    message: `StatefulPodControl failed to ${create ? 'create' : 'update'} Pod error: ${error}`,
  };
}

/**
 * Execute `plan`: the revision, the image pre-download writes (best effort: a failure is logged and told as an
 * Event), the actions (capped by {@link capPendingWrites}; the next pass continues). Never throws for API
 * errors: the first failing write stops the remaining actions, is recorded as Warning Events (and a condition for a
 * create or update) and returned in `error` — except a 409 Conflict (or an AlreadyExists on the revision create,
 * a revision not yet seen), which only stops the actions and sets `conflict`. The status is written after a failure
 * too (upstream writes it whatever `updateStatefulSet` returned); history is truncated when nothing failed.
 * An adoption the set may no longer make ({@link Executor.mayAdopt}) stops the actions and the pass (`conflict`, no
 * status written).
 * @throws state-store errors (FencedOutError after a takeover) and non-API errors
 */
export async function executeStatefulSetPlan(
  ctx: ExecuteContext,
  plan: StatefulSetPlan,
): Promise<ExecuteResult> {
  const x = new Executor(ctx, plan, structuredClone(ctx.pending));
  let failed: { action?: Action; error: KubeApiError } | undefined;
  let conflict = false;
  try {
    x.writes += await writeRevision(ctx, plan);
    if (plan.preDownload) {
      const pre = await writeImagePullJobs(ctx.kube, ctx.log, x.namespace, plan.preDownload);
      x.writes += pre.writes;
      x.events.push(...pre.events);
    }
    for (const step of executionSteps(plan.actions)) {
      const first = step[0];
      if (isCreate(first)) await x.createRun(step as CreateAction[]);
      else if (first.type === 'DeletePod')
        await x.deleteRun(step as Extract<Action, { type: 'DeletePod' }>[]);
      else if (isPodPatch(first)) await x.patchRun(step as PodPatch[]);
      else if (first.type === 'PatchPVCOwner') await x.patchClaimOwners(first);
      else if (first.type === 'ResizePVC') await x.resizeClaim(first);
      else throw new Error(`Advanced StatefulSet plans no ${first.type}`);
    }
  } catch (e) {
    if (e instanceof AdoptionWithdrawn) {
      // as upstream, whose claim then fails the sync: no status for a set that is going away
      ctx.log.info(`${e.message}; re-planning`);
      if (x.updatesChanged) await x.save();
      await recordObjectEvents({ ...ctx, resource: STATEFULSET_RESOURCE, object: ctx.statefulSet }, x.events);
      return { writes: x.writes, conflict: true };
    }
    const action = e instanceof ActionFailed ? e.action : undefined;
    const failure = e instanceof ActionFailed ? e.failure : e;
    if (e instanceof ActionFailed) x.events.push(...e.events);
    const kind = classifyWriteError(apiFailureOf(failure));
    if (kind === 'notApi') throw apiFailureOf(failure);
    if (kind === 'conflict' || (!action && kind === 'alreadyExists')) {
      conflict = true;
      ctx.log.info('conflict: an object changed since it was read; re-planning', { action: action?.type });
    } else {
      const message = errorMessage(failure);
      failed = { ...(action ? { action } : {}), error: apiFailureOf(failure) as KubeApiError };
      if (action && !(e instanceof ActionFailed && e.silent))
        x.events.push(...actionFailed(action, x.setName, message, plan.revisions.updateRevision));
      ctx.log.warn('write failed; remaining actions skipped', { error: message, action: action?.type });
    }
  }
  if (x.updatesChanged) await x.save();

  // upstream's `updateStatefulSet` builds a new status each pass: its conditions are only this pass's failure, and
  // `updateStatefulSetStatus` writes it only when `inconsistentStatus` finds a change (plan.statusChanged), so a
  // condition alone is not written and the next written status no longer has it
  let status = plan.status;
  const condition =
    failed && failureCondition(failed.action, errorMessage(failed.error), new Date(ctx.clock()));
  if (condition) status = setCondition({ ...status, conditions: [] }, condition);
  let statusError: KubeApiError | undefined;
  if (plan.statusChanged) {
    try {
      await updateStatefulSetStatus(ctx.kube, ctx.statefulSet, status);
      x.writes++;
    } catch (e) {
      const kind = classifyWriteError(e);
      if (kind === 'notApi') throw e;
      if (kind === 'conflict') conflict = true;
      else {
        statusError = e as KubeApiError;
        ctx.log.warn('status update failed', { error: errorMessage(e) });
      }
    }
  }
  if (!failed && !conflict) {
    for (const name of plan.revisions.deleteNames) {
      try {
        await ctx.kube.delete(RESOURCES.controllerrevisions, { namespace: x.namespace, name });
        x.writes++;
      } catch (e) {
        if (classifyWriteError(e) === 'notApi') throw e;
        ctx.log.warn('history truncation failed', { revision: name, error: errorMessage(e) });
      }
    }
  }
  await recordObjectEvents({ ...ctx, resource: STATEFULSET_RESOURCE, object: ctx.statefulSet }, x.events);
  const error = failed?.error ?? statusError;
  return { writes: x.writes, ...(error ? { error } : {}), ...(conflict ? { conflict } : {}) };
}
