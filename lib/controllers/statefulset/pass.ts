/**
 * OpenKruise: pkg/controller/statefulset/statefulset_controller.go `Reconcile`, `syncStatefulSet`, `getPodsForStatefulSet`
 * (with the informer cache replaced by quorum and floored reads, docs/architecture.md#list-floors, and the in-memory
 * expectations by the durable ones).
 *
 * One reconcile pass over one Advanced StatefulSet: read the set, its pods, PVCs and ControllerRevisions → observe
 * the stored expectations → plan (./plan, pure) → execute (./execute.ts) → decide when to look again.
 */
import { ownedExpectationStore, ownExpectations } from '../../reconcile/pods/expectationsOwner.js';
import type { PassResult as LoopPassResult } from '../../reconcile/reconcile.js';
import type { ImagePullJob } from '../../api/imagePullJob.js';
import { selectorMatches, selectorString } from '../../api/selector.js';
import type { ControllerRevision, PersistentVolumeClaim, Pod } from '../../api/types.js';
import { CONDITION_FAILED_VALIDATION, failedValidationMessage } from '../../api/failedValidation.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { namespaceOf, objectKeyText, type ObjectKey } from '../../core/objectKey.js';
import { emptyCorrelation, type EventCorrelationState } from '../../kube/eventCorrelation.js';
import { listAll, listIfServed, LIST_PAGE_SIZE } from '../../kube/list.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient, KubeObject, Listed } from '../../kube/types.js';
import { controllerRef } from '../../podset/ownership.js';
import {
  EXPECTATION_TIMEOUT_SECONDS,
  isSatisfied,
  observeExpectations,
  pendingRecheckSeconds,
  type ObservedExpectations,
} from '../../reconcile/pods/observeExpectations.js';
import { reportFailedValidation } from '../../reconcile/failedValidation.js';
import { recordObjectEvents } from '../../reconcile/pods/recordEvents.js';
import type { ReconcileReason } from '../../requests/schema.js';
import type { Expectations, ExpectationStore, Lease } from '../../state/index.js';
import { STATEFULSET_RESOURCE } from './api/resource.js';
import type { StatefulSet } from './api/types.js';
import { executeStatefulSetPlan, storesExpectationsFirst, type ExecuteResult } from './execute.js';
import { planStatefulSet, type StatefulSetPlan, type StatefulSetPlannerOptions } from './plan/index.js';
import type { StatefulSetSettings } from './settings.js';
import { isMemberOf } from './plan/ownership.js';
import { parentAndOrdinal } from './plan/ordinals.js';
import { resizesClaims } from './plan/resize.js';
import type { StorageClassInfo } from './plan/types.js';
import { updateStatefulSetStatus } from './write.js';

/** What a pass needs. */
export interface PassDeps {
  kube: KubeClient;
  expectations: ExpectationStore;
  log: Logger;
  clock: Clock;
  /** Planner options (feature gates). */
  options?: StatefulSetSettings;
  /** Expectation timeout, seconds; default {@link EXPECTATION_TIMEOUT_SECONDS}. */
  expectationTimeoutSeconds?: number;
  /** Pod condition patches in flight at most (./execute.ts#condition-runs); default lib/core/bounded.ts's. */
  writeConcurrency?: number;
}

/** What one pass did: the loop's {@link LoopPassResult} with this kind's plan. */
export type PassResult = LoopPassResult<StatefulSetPlan>;

/** `FailedValidation`: the set failed the validating webhook's rules; nothing in the cluster was changed. */
export { CONDITION_FAILED_VALIDATION };

/** The StatefulSet and what it owns, as read in one pass. */
export interface World {
  statefulSet: StatefulSet;
  /** Pods whose controller reference names the set's UID. */
  pods: Pod[];
  /** PVCs matching the set's selector (its volumeClaimTemplates' PVCs carry the selector's labels). */
  pvcs: PersistentVolumeClaim[];
  /** ControllerRevisions matching the set's selector (the planner keeps the owned ones). */
  revisions: ControllerRevision[];
  /** StorageClasses, read only when the set's PVCs may be resized (./plan/resize.ts); else none. */
  storageClasses?: StorageClassInfo[];
  /**
   * The namespace's ImagePullJobs, read only with gate `PreDownloadImageForInPlaceUpdate` on; absent otherwise or
   * when the resource is not served (./plan/preDownload.ts).
   */
  imagePullJobs?: ImagePullJob[];
}

/**
 * Which pods a pass lists: `selector` — the pods matching the set's selector (a `Requeue`, the look-again a pass
 * scheduled for itself); `owned` — every pod of the namespace, paged, kept when its controller reference names
 * the set (a change or the resync: a pod that left the selector is still the set's). docs/architecture.md#reads.
 */
export type ReadScope = 'selector' | 'owned';

/** {@link ReadScope} for a request reason, as CloneSet's: only a `Requeue` reads by selector. */
export function readScopeFor(reason: ReconcileReason): ReadScope {
  return reason === 'Requeue' ? 'selector' : 'owned';
}

/** `selectorString` of the set's selector, undefined when it is invalid (validation reports it). */
function selectorOf(sts: StatefulSet): string | undefined {
  try {
    return selectorString(sts.spec.selector ?? {});
  } catch {
    return undefined;
  }
}

const controlledBy = (o: KubeObject, uid: string): boolean =>
  !!uid && controllerRef(o.metadata.ownerReferences)?.uid === uid;

/**
 * A pod the set's claim may take (plan/ownership.ts): one it controls, or an orphan (no controller reference)
 * that its selector matches and that is named `<set>-<ordinal>` — upstream lists every pod of the namespace and
 * claims those; the rest is never read into the pass.
 */
function claimable(sts: StatefulSet, uid: string): (o: KubeObject) => boolean {
  // an invalid selector adopts nothing (validation reports it before any claim)
  const adopts = selectorOf(sts) !== undefined;
  return (o) =>
    controlledBy(o, uid) ||
    (adopts &&
      !controllerRef(o.metadata.ownerReferences) &&
      isMemberOf(sts, o as Pod) &&
      selectorMatches(sts.spec.selector ?? {}, o.metadata.labels));
}

/**
 * Whether `stored` expectations name a PVC of the set `setName`: a pending create or delete whose name is not a pod
 * name of the set (`<set>-<ordinal>`; a claim is `<template>-<set>-<ordinal>`, which never parses as one).
 * Pending pod creates, deletes and updates alone need no PVC list to be observed (issue 17: a set without
 * volumeClaimTemplates listed its PVCs in every pass after a create, one request per pass for nothing).
 */
export function claimsPending(stored: Expectations, setName: string): boolean {
  const isPod = (name: string) => parentAndOrdinal(name).parent === setName;
  return [...stored.creates, ...stored.deletes].some((op) => !isPod(op.name));
}

/**
 * Read the StatefulSet, then in parallel its pods ({@link ReadScope}), its PVCs (by selector, only when it has
 * volumeClaimTemplates or a PVC is pending, {@link claimsPending}), its revisions (by selector) and, only when its
 * PVCs may be resized (gate `StatefulSetAutoResizePVCGate` and `volumeClaimUpdateStrategy` OnPodRollingUpdate), the
 * StorageClasses, and with gate `PreDownloadImageForInPlaceUpdate` on the namespace's ImagePullJobs (when served).
 * Quorum reads only.
 * @param pendingClaims whether a PVC is pending ({@link claimsPending}): then the PVCs are listed even without
 *   volumeClaimTemplates; or its answer to come (awaited beside the set's GET)
 * @param resizeGate whether `StatefulSetAutoResizePVCGate` is on
 * @param preDownloadGate whether `PreDownloadImageForInPlaceUpdate` is on
 * @returns undefined when the StatefulSet does not exist
 * @throws InvalidObjectKeyError when the key has no namespace; KubeApiError when a read fails
 */
export async function readWorld(
  kube: KubeClient,
  key: ObjectKey,
  scope: ReadScope,
  pendingClaims: boolean | Promise<boolean>,
  resizeGate = false,
  preDownloadGate = false,
): Promise<World | undefined> {
  const namespace = namespaceOf(key);
  const [statefulSet, claimsPendingNow] = await Promise.all([
    kube.get(STATEFULSET_RESOURCE, { namespace, name: key.name }),
    pendingClaims,
  ]);
  if (!statefulSet) return undefined;
  const uid = statefulSet.metadata.uid ?? '';
  const selector = selectorOf(statefulSet);
  const mine = claimable(statefulSet, uid);
  const none = Promise.resolve({ items: [], resourceVersion: '' } as Listed<never>);
  const hasTemplates = (statefulSet.spec.volumeClaimTemplates ?? []).length > 0;
  const bySelector = { namespace, ...(selector !== undefined ? { labelSelector: selector } : {}) };
  const resize = resizesClaims(statefulSet, resizeGate) && hasTemplates;
  const [pods, pvcs, revisions, storageClasses, jobs] = await Promise.all([
    scope === 'selector' && selector !== undefined
      ? kube.list(RESOURCES.pods, bySelector)
      : listAll(kube, RESOURCES.pods, { namespace, limit: LIST_PAGE_SIZE }, mine),
    selector === undefined || (!hasTemplates && !claimsPendingNow)
      ? none
      : listAll(kube, RESOURCES.persistentvolumeclaims, { ...bySelector, limit: LIST_PAGE_SIZE }),
    selector === undefined ? none : kube.list(RESOURCES.controllerrevisions, bySelector),
    resize ? kube.list(RESOURCES.storageclasses, {}) : none,
    preDownloadGate ? listIfServed(kube, RESOURCES.imagepulljobs, { namespace }) : undefined,
  ]);
  return {
    statefulSet,
    pods: pods.items.filter(mine),
    pvcs: pvcs.items,
    revisions: revisions.items,
    ...(jobs ? { imagePullJobs: jobs.items } : {}),
    ...(resize
      ? {
          storageClasses: storageClasses.items.map((sc) => ({
            name: sc.metadata.name ?? '',
            ...(sc.allowVolumeExpansion !== undefined
              ? { allowVolumeExpansion: sc.allowVolumeExpansion }
              : {}),
          })),
        }
      : {}),
  };
}

/** The stored expectations observed against what was just listed (pure). */
export function observedFrom(
  deps: Pick<PassDeps, 'clock' | 'expectationTimeoutSeconds'>,
  stored: Parameters<typeof observeExpectations>[0],
  world: World,
): ObservedExpectations {
  return observeExpectations(
    stored,
    world.pods,
    world.pvcs,
    deps.clock(),
    (deps.expectationTimeoutSeconds ?? EXPECTATION_TIMEOUT_SECONDS) * 1000,
  );
}

/** What a pass reads before it plans: the set and what it owns, and the stored expectations observed against them. */
export interface PassRead {
  world: World;
  /** The stored expectations observed against `world` (nothing written back here). */
  observed: ObservedExpectations;
}

/**
 * The read side of a pass, shared by {@link runPass} and the read-only preview (./preview.ts): the stored
 * expectations, then {@link readWorld} (its PVCs listed when a PVC is pending; StorageClasses under the
 * `statefulSetAutoResizePVCGate` option), then {@link observedFrom}. Writes nothing.
 * @returns undefined when the StatefulSet does not exist
 * @throws InvalidObjectKeyError when the key has no namespace; KubeApiError when a read fails; state-store errors
 */
export async function readPass(
  deps: Pick<PassDeps, 'kube' | 'expectations' | 'clock' | 'options' | 'expectationTimeoutSeconds'>,
  key: ObjectKey,
  scope: ReadScope,
): Promise<PassRead | undefined> {
  // side by side: only this invocation, the lease holder, writes the expectations
  const storedRead = deps.expectations.get(key);
  const [stored, world] = await Promise.all([
    storedRead,
    readWorld(
      deps.kube,
      key,
      scope,
      storedRead.then((s) => claimsPending(s, key.name)),
      deps.options?.statefulSetAutoResizePVCGate ?? false,
      deps.options?.preDownloadImageForInPlaceUpdate ?? false,
    ),
  ]);
  if (!world) return undefined;
  return {
    world,
    observed: observedFrom(deps, ownExpectations(stored, world.statefulSet.metadata.uid ?? ''), world),
  };
}

/**
 * The plan for `world`, and the plan to execute: emptied of writes (actions, revision create/bump, history, image
 * pre-download) while
 * expectations are pending — the status is still written.
 */
export function planPass(
  deps: Pick<PassDeps, 'clock' | 'options'>,
  world: World,
  observed: ObservedExpectations,
): { plan: StatefulSetPlan; effective: StatefulSetPlan; waiting: boolean } {
  const waiting = !isSatisfied(observed.pending);
  const options: Partial<StatefulSetPlannerOptions> = { ...(deps.options ?? {}) };
  const plan = planStatefulSet({
    statefulSet: world.statefulSet,
    pods: world.pods,
    revisions: world.revisions,
    pvcs: world.pvcs,
    ...(world.storageClasses ? { storageClasses: world.storageClasses } : {}),
    ...(world.imagePullJobs ? { imagePullJobs: world.imagePullJobs } : {}),
    now: new Date(deps.clock()),
    options,
    updateExpectationsSatisfied: observed.pending.updates.length === 0,
  });
  const { create: _c, bump: _b, ...kept } = plan.revisions;
  const { preDownload: _p, ...withoutPreDownload } = plan;
  const effective: StatefulSetPlan = waiting
    ? { ...withoutPreDownload, actions: [], revisions: { ...kept, deleteNames: [] } }
    : plan;
  return { plan, effective, waiting };
}

/** The message of an invalid set's `FailedValidation` condition and Event: `StatefulSet is invalid: <errors>`. */
export function invalidMessage(plan: StatefulSetPlan): string {
  return failedValidationMessage('StatefulSet', plan.errors);
}

/**
 * Whether a pass over an invalid set writes its `FailedValidation` condition (and Event): unless the stored status
 * already has it True with the same message.
 */
export function reportsInvalid(sts: StatefulSet, plan: StatefulSetPlan): boolean {
  const previous = (sts.status ?? plan.status).conditions?.find(
    (c) => c.type === CONDITION_FAILED_VALIDATION,
  );
  return !(previous?.status === 'True' && previous.message === invalidMessage(plan));
}

/**
 * An invalid set (`plan.errors`): the kind-neutral `FailedValidation` condition naming every error and its Warning
 * Event (lib/reconcile/failedValidation.ts), written only when the stored condition says something else; nothing
 * else is touched (issue 17: "an invalid object gets a FailedValidation condition and a Warning Event").
 * @throws non-API errors
 */
async function reportInvalid(
  deps: PassDeps,
  sts: StatefulSet,
  plan: StatefulSetPlan,
  env: { recordedEvents: Set<string>; eventCorrelation: { state: EventCorrelationState } },
): Promise<ExecuteResult> {
  const stored = sts.status ?? plan.status;
  const writes = await reportFailedValidation(
    {
      kube: deps.kube,
      clock: deps.clock,
      log: deps.log,
      ...env,
      resource: STATEFULSET_RESOURCE,
      object: sts,
      kind: 'StatefulSet',
      conditions: stored.conditions,
      writeStatus: (conditions) => updateStatefulSetStatus(deps.kube, sts, { ...stored, conditions }),
    },
    plan.errors,
  );
  return { writes };
}

/**
 * A valid set whose stored status still has a `FailedValidation` condition (the spec was fixed): the status is
 * written, which drops it (a written status carries only its own pass's conditions, ./execute.ts).
 */
export function withoutFailedValidation(plan: StatefulSetPlan, sts: StatefulSet): StatefulSetPlan {
  const stored = sts.status?.conditions ?? [];
  if (!stored.some((c) => c.type === CONDITION_FAILED_VALIDATION)) return plan;
  return { ...plan, statusChanged: true };
}

/**
 * One pass: read, observe, plan, execute.
 * @param recordedEvents Events already recorded by this invocation (not repeated)
 * @param scope what to list ({@link readScopeFor} the request's reason)
 * @throws state-store errors (FencedOutError after a takeover) and failed reads (KubeApiError)
 */
export async function runPass(
  deps: PassDeps,
  key: ObjectKey,
  lease: Lease,
  recordedEvents: Set<string>,
  scope: ReadScope = 'owned',
  eventCorrelation: { state: EventCorrelationState } = { state: emptyCorrelation() },
): Promise<PassResult> {
  const started = Date.now();
  const read = await readPass(deps, key, scope);
  if (!read) {
    await deps.expectations.put(lease, { creates: [], deletes: [], updates: [] });
    return { gone: true, writes: 0, acted: false };
  }
  const { world, observed } = read;
  const expectations = ownedExpectationStore(deps.expectations, world.statefulSet.metadata.uid ?? '');
  const { plan, effective, waiting } = planPass(deps, world, observed);
  // what was observed is stored now, unless the plan's first write stores the expectations anyway
  if (observed.changed && (plan.errors.length > 0 || !storesExpectationsFirst(effective)))
    await expectations.put(lease, observed.pending);
  if (observed.expired.length > 0)
    deps.log.warn('expectations timed out; re-planning from what the API server shows', {
      expired: observed.expired.map((op) => op.name),
    });
  if (plan.errors.length > 0) {
    const reported = await reportInvalid(deps, world.statefulSet, plan, { recordedEvents, eventCorrelation });
    deps.log.warn('StatefulSet is invalid: nothing reconciled', {
      key: objectKeyText(key),
      errors: plan.errors,
    });
    return { gone: false, writes: reported.writes, acted: false, plan };
  }
  await recordObjectEvents(
    {
      kube: deps.kube,
      resource: STATEFULSET_RESOURCE,
      object: world.statefulSet,
      clock: deps.clock,
      recordedEvents,
      eventCorrelation,
    },
    plan.events ?? [],
  );
  const result = await executeStatefulSetPlan(
    {
      kube: deps.kube,
      lease,
      expectations,
      statefulSet: world.statefulSet,
      pods: world.pods,
      pvcs: world.pvcs,
      pending: observed.pending,
      clock: deps.clock,
      log: deps.log,
      recordedEvents,
      eventCorrelation,
      ...(deps.writeConcurrency ? { writeConcurrency: deps.writeConcurrency } : {}),
    },
    withoutFailedValidation(effective, world.statefulSet),
  );
  const acted =
    effective.actions.length > 0 ||
    !!effective.revisions.create ||
    !!effective.revisions.bump ||
    !!result.conflict;
  deps.log.info('reconciled', {
    key: objectKeyText(key),
    waitingForExpectations: waiting,
    halt: plan.halt,
    actions: effective.actions.map((a) => a.type),
    writes: result.writes,
    statusChanged: plan.statusChanged,
    requeueAfterSeconds: plan.requeueAfterSeconds,
    error: result.error?.message ?? plan.error,
    conflict: result.conflict,
    durationMs: Date.now() - started,
  });
  const error = result.error?.message ?? (plan.error && !waiting ? plan.error : undefined);
  const requeue = error ? undefined : waiting ? pendingRecheckSeconds(observed) : plan.requeueAfterSeconds;
  return {
    gone: false,
    writes: result.writes,
    acted: acted && !result.error,
    ...(requeue !== undefined ? { requeueAfterSeconds: requeue } : {}),
    ...(error ? { error } : {}),
    plan,
  };
}
