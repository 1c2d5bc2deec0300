/**
 * One reconcile pass over one CloneSet (docs/architecture.md#lib-reconcile): read → observe expectations → finish a
 * recorded scale-down, or plan and execute → decide when to look again. The steps return data; {@link runPass}
 * strings them together. As one call of OpenKruise's `ReconcileCloneSet.doReconcile`, with the informer cache
 * replaced by quorum reads and the in-memory expectations by the durable ones.
 */
import { ownedExpectationStore, ownExpectations } from '../../reconcile/pods/expectationsOwner.js';
import type { PassResult as LoopPassResult } from '../../reconcile/reconcile.js';
import { randomUUID } from 'node:crypto';
import { randomSuffix } from '../../reconcile/pods/randomSuffix.js';
import type { CloneSet, ControllerRevision, PersistentVolumeClaim, Pod } from '../../api/types.js';
import type { ImagePullJob } from '../../api/imagePullJob.js';
import { selectorString } from '../../api/selector.js';
import { planCloneSet } from './plan/plan.js';
import { isPrePullPod, LABEL_PREPULL_FOR } from './plan/index.js';
import { isPodAvailable } from '../../podset/pods.js';
import { DEFAULT_PLANNER_OPTIONS, type NodeLabels, type Plan, type PlannerOptions } from './plan/types.js';
import { namespaceOf, objectKeyText, type ObjectKey } from '../../core/objectKey.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { emptyCorrelation, type EventCorrelationState } from '../../kube/eventCorrelation.js';
import { anyExists, listAll, listIfServed, LIST_PAGE_SIZE } from '../../kube/list.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient, KubeObject, Listed } from '../../kube/types.js';
import type { ReconcileReason } from '../../requests/schema.js';
import type { Expectations, ExpectationStore, Lease, ScaleDownLedger } from '../../state/index.js';
import { executePlan, reportFailedWrite, type ExecuteContext, type ExecuteResult } from './execute.js';
import { finishScaleDown, intentIsCurrent } from './finishScaleDown.js';
import { withPubCheck } from './pubCheck.js';
import { spreadNodesFor } from './spreadNodes.js';
import {
  isSatisfied,
  observeExpectations,
  pendingRecheckSeconds,
  type ObservedExpectations,
} from '../../reconcile/pods/observeExpectations.js';
import { CLONESET_RESOURCE } from './api/resource.js';

/** What a pass needs. */
export interface PassDeps {
  kube: KubeClient;
  expectations: ExpectationStore;
  ledger: ScaleDownLedger;
  log: Logger;
  clock: Clock;
  /** Planner options; `expectationTimeoutSeconds` is also the expectation timeout of the observation. */
  options?: Partial<PlannerOptions>;
  /** Instance-id source; default {@link randomInstanceId}. */
  newInstanceId?: () => string;
  /** Writes in flight at most within a create batch or a run of pod patches (execute.ts#write-concurrency). */
  writeConcurrency?: number;
  /**
   * Asks the PodUnavailableBudget that covers `pod` whether it may be updated, consuming the budget when it may
   * (gate `PodUnavailableBudgetUpdateGate`; ./pubCheck.ts); absent: updates are not checked. Given by the registry
   * (lib/controllers/index.ts), which joins the CloneSet to the PodUnavailableBudget controller's decision.
   */
  admitPodUpdate?: (kube: KubeClient, pod: Pod) => Promise<boolean>;
}

/** What one pass did: the loop's {@link LoopPassResult} with this kind's plan. */
export type PassResult = LoopPassResult<Plan>;

/** Default instance id (OpenKruise's `GenerateNewInstanceID`): lib/reconcile/pods/randomSuffix.ts. */
export const randomInstanceId = randomSuffix;

/** The CloneSet and what it owns, as read in one pass. */
export interface World {
  cloneSet: CloneSet;
  pods: Pod[];
  pvcs: PersistentVolumeClaim[];
  revisions: ControllerRevision[];
  /**
   * The namespace's ImagePullJobs, listed only with image pre-download on; undefined otherwise or when the resource
   * is not served (docs/behaviour/cloneset.md#image-pre-download).
   */
  imagePullJobs?: ImagePullJob[];
  /**
   * Whether the CloneSet may own PVCs ({@link Expectations.ownsClaims}): true with claim templates, else whether the
   * PVCs just listed hold one it owns; when they were not listed, what was stored (undefined: not known).
   */
  ownsClaims?: boolean;
  /** The CloneSet's pre-pull pods, listed only with gate `PreDownloadImageWithPods` on (then also `nodeAgent`). */
  prePullPods?: Pod[];
  /** Whether the cluster has a node agent (any NodeImage), read with the pre-pull pods. */
  nodeAgent?: boolean;
  /**
   * The labels of the pods' nodes, read only when a scale-in may rank pods by topology (./spreadNodes.ts
   * `spreadNodesFor`); `unreadNodes` those whose GET failed.
   */
  nodeLabels?: NodeLabels;
  unreadNodes?: string[];
}

/**
 * Which pods and PVCs a pass lists (docs/architecture.md#reads).
 * - `selector`: the pods matching the CloneSet's `spec.selector` (so the read does not grow with other CloneSets'
 *   pods in the namespace), and the PVCs only when the CloneSet may own some (below) and, without claim templates,
 *   expectations are pending (a PVC can only be ours if a template made it, or a pending delete must be observed).
 * - `owned`: every pod of the namespace, whatever its labels (an owned pod may have lost even the instance-id
 *   label), as OpenKruise's owner-UID index gives them, and every PVC of the namespace unless the stored
 *   expectations say the CloneSet owns none ({@link Expectations.ownsClaims}: no claim templates, and the last
 *   complete read found none; a PVC it owns comes only from a template, which sets the flag before its first
 *   create). Needed when a pod may have stopped matching the selector (its labels or the selector changed), so that
 *   it is released, and when PVCs of a removed template may need cleaning up.
 * - `full`: `owned` with the PVCs always listed, so a PVC given to the CloneSet by someone else is still cleaned up.
 * All keep only objects whose owner references name the CloneSet's UID.
 */
export type ReadScope = 'selector' | 'owned' | 'full';

/**
 * The read scope for a request reason: a change to a pod, a PVC or the CloneSet itself may have taken an object
 * out of the selector or left PVCs behind, so those read `owned`; the `Resync`, the safety net for every change
 * event that was lost (review finding 9: by selector it could never release a pod that left the selector nor clean
 * up PVCs), reads `full`. Only a `Requeue` — the look-again a pass of this CloneSet scheduled for itself, the no-op
 * reconcile of a settled CloneSet — reads `selector`.
 */
export function readScopeFor(reason: ReconcileReason): ReadScope {
  if (reason === 'Requeue') return 'selector';
  return reason === 'Resync' ? 'full' : 'owned';
}

/** Whether an owner reference of `o` names `uid` (OpenKruise's owner-UID field index, `IndexNameForOwnerRefUID`). */
function isOwnedBy(o: { metadata: { ownerReferences?: { uid: string }[] } }, uid: string): boolean {
  return (o.metadata.ownerReferences ?? []).some((r) => r.uid === uid);
}

function ownedBy<T extends { metadata: { ownerReferences?: { uid: string }[] } }>(
  items: T[],
  uid: string,
): T[] {
  return items.filter((o) => isOwnedBy(o, uid));
}

/** `selectorString` of the CloneSet's selector, undefined when it is invalid (the planner reports it). */
function selectorOf(cs: CloneSet): string | undefined {
  try {
    return selectorString(cs.spec.selector ?? {});
  } catch {
    return undefined;
  }
}

/**
 * Read the CloneSet, then its owned pods and PVCs (as {@link ReadScope} says) and its revisions (by selector), in
 * parallel. Never `resourceVersion=0`: the LISTs are quorum reads or, through the pass's client, `NotOlderThan` the
 * invocation's floors (docs/architecture.md#reads and #list-floors for why the cache's possibly stale answer is not
 * used).
 * @param pendingRead the stored expectations, or their read (awaited beside the CloneSet's GET: only this invocation, the
 *   lease holder, writes them), read as {@link ownExpectations} for the CloneSet read
 * @param options planner options: with image pre-download on, the namespace's ImagePullJobs are listed too
 * @returns undefined when the CloneSet does not exist
 * @throws InvalidObjectKeyError when the key has no namespace (CloneSets are namespaced)
 * @throws KubeApiError when a read fails
 */
export async function readWorld(
  kube: KubeClient,
  key: ObjectKey,
  scope: ReadScope,
  pendingRead: Expectations | Promise<Expectations>,
  options?: Partial<PlannerOptions>,
): Promise<World | undefined> {
  const namespace = namespaceOf(key);
  const [cloneSet, stored] = await Promise.all([
    kube.get(CLONESET_RESOURCE, { namespace, name: key.name }),
    pendingRead,
  ]);
  if (!cloneSet) return undefined;
  const uid = cloneSet.metadata.uid ?? '';
  const pending = ownExpectations(stored, uid);
  const selector = selectorOf(cloneSet);
  const narrow = scope === 'selector' && selector !== undefined;
  const hasTemplates = (cloneSet.spec.volumeClaimTemplates ?? []).length > 0;
  const skipPVCs =
    !hasTemplates && scope !== 'full' && ((narrow && isSatisfied(pending)) || pending.ownsClaims === false);
  const none = Promise.resolve({ items: [], resourceVersion: '' } as Listed<never>);
  const preDownload = !!options?.preDownloadImageForInPlaceUpdate;
  const prePull = preDownload && !!options?.preDownloadImageWithPods;
  // namespace-wide lists in pages, each page cut down to what the CloneSet owns before the next is read
  const owned = (o: KubeObject) => isOwnedBy(o, uid);
  const paged = { namespace, limit: LIST_PAGE_SIZE };
  const [pods, pvcs, revisions, jobs, prePulls, nodeAgent] = await Promise.all([
    narrow
      ? kube.list(RESOURCES.pods, { namespace, labelSelector: selector })
      : listAll(kube, RESOURCES.pods, paged, owned),
    skipPVCs ? none : listAll(kube, RESOURCES.persistentvolumeclaims, paged, owned),
    selector === undefined
      ? none
      : kube.list(RESOURCES.controllerrevisions, { namespace, labelSelector: selector }),
    preDownload ? listIfServed(kube, RESOURCES.imagepulljobs, { namespace }) : undefined,
    prePull
      ? kube.list(RESOURCES.pods, { namespace, labelSelector: `${LABEL_PREPULL_FOR}=${uid}` })
      : undefined,
    prePull ? anyExists(kube, RESOURCES.nodeimages) : undefined,
  ]);
  const ownPods = ownedBy<Pod>(pods.items, uid).filter((p) => !isPrePullPod(p));
  // after the pods: whether a scale-in can rank them by topology depends on how many are active
  const spread = await spreadNodesFor(kube, cloneSet, ownPods);
  const ownPVCs = ownedBy<PersistentVolumeClaim>(pvcs.items, uid);
  const ownsClaims = hasTemplates || (skipPVCs ? pending.ownsClaims : ownPVCs.length > 0);
  return {
    cloneSet,
    pods: ownPods,
    pvcs: ownPVCs,
    ...(ownsClaims !== undefined ? { ownsClaims } : {}),
    revisions: revisions.items,
    ...(jobs ? { imagePullJobs: jobs.items } : {}),
    ...(prePulls ? { prePullPods: ownedBy<Pod>(prePulls.items, uid), nodeAgent: !!nodeAgent } : {}),
    ...(spread ? { nodeLabels: spread.labels, unreadNodes: spread.unread } : {}),
  };
}

/** The expectation timeout, ms: the planner option `expectationTimeoutSeconds` (one setting for both). */
export function expectationTimeoutMs(options: Partial<PlannerOptions> | undefined): number {
  return (options?.expectationTimeoutSeconds ?? DEFAULT_PLANNER_OPTIONS.expectationTimeoutSeconds) * 1000;
}

/**
 * `stored` expectations observed against what was just listed, with what the pass learnt of the CloneSet's PVCs
 * (`world.ownsClaims`, carried by every later store of the pass; `changed` counts only the writes observed) (pure).
 */
function observedFrom(
  deps: Pick<PassDeps, 'clock' | 'options'>,
  stored: Expectations,
  world: World,
): ObservedExpectations {
  const observed = observeExpectations(
    stored,
    world.pods,
    world.pvcs,
    deps.clock(),
    expectationTimeoutMs(deps.options),
  );
  if (world.ownsClaims === undefined || world.ownsClaims === stored.ownsClaims) return observed;
  return { ...observed, pending: { ...observed.pending, ownsClaims: world.ownsClaims } };
}

/**
 * The stored expectations of `key` observed against what was just listed (read-only; {@link observe} writes the
 * result back, `kruiseless plan` only shows it).
 * @throws state-store errors
 */
export async function readObserved(
  deps: Pick<PassDeps, 'expectations' | 'clock' | 'options'>,
  key: ObjectKey,
  world: World,
): Promise<ObservedExpectations> {
  const stored = await deps.expectations.get(key);
  return observedFrom(deps, ownExpectations(stored, world.cloneSet.metadata.uid ?? ''), world);
}

/**
 * Observe the stored expectations against what was just listed and write them back when something was observed
 * or expired.
 * @throws state-store errors (FencedOutError)
 */
export async function observe(
  deps: PassDeps,
  lease: Lease,
  stored: Expectations,
  world: World,
): Promise<ObservedExpectations> {
  const observed = observedFrom(deps, stored, world);
  if (observed.changed) await deps.expectations.put(lease, observed.pending);
  if (observed.expired.length > 0) {
    deps.log.warn('expectations timed out; re-planning from what the API server shows', {
      expired: observed.expired.map((op) => op.name),
    });
  }
  return observed;
}

/**
 * The plan for this pass, emptied of writes (actions and revision writes) while expectations are pending, as
 * OpenKruise's `SatisfiedExpectations` gate in `doReconcile`; status is still written.
 */
export function planPass(
  deps: Pick<PassDeps, 'clock' | 'newInstanceId' | 'options'>,
  world: World,
  waiting: boolean,
): { plan: Plan; effective: Plan } {
  const plan = planCloneSet({
    cloneSet: world.cloneSet,
    pods: world.pods,
    pvcs: world.pvcs,
    revisions: world.revisions,
    ...(world.imagePullJobs ? { imagePullJobs: world.imagePullJobs } : {}),
    ...(world.prePullPods ? { prePullPods: world.prePullPods, nodeAgent: !!world.nodeAgent } : {}),
    ...(world.nodeLabels ? { nodeLabels: world.nodeLabels } : {}),
    now: new Date(deps.clock()),
    newInstanceId: deps.newInstanceId ?? randomInstanceId,
    ...(deps.options ? { options: deps.options } : {}),
  });
  const effective: Plan = waiting
    ? {
        ...plan,
        actions: [],
        revisions: { ...plan.revisions, create: undefined, update: undefined, deleteNames: [] },
        preDownload: undefined,
      }
    : plan;
  return { plan, effective };
}

/**
 * When to look again, seconds: after a failed write nothing here (the invocation backs off by the CloneSet's
 * failure count, ./backoff.ts, as OpenKruise's failed `Reconcile` is requeued by the rate limiter whatever
 * `RequeueAfter` it asked for); while expectations are pending, `pendingRecheckSeconds`
 * (lib/reconcile/pods/observeExpectations.ts); else what the planner asked for.
 */
export function nextLook(
  result: ExecuteResult,
  waiting: boolean,
  observed: ObservedExpectations,
  plan: Plan,
): number | undefined {
  if (result.error) return undefined;
  if (waiting) return pendingRecheckSeconds(observed);
  return plan.requeueAfterSeconds;
}

function countBy(xs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}

/** What the executor needs for this pass's world. */
function executeContext(
  deps: PassDeps,
  lease: Lease,
  world: World,
  observed: ObservedExpectations,
  recordedEvents: Set<string>,
  eventCorrelation: { state: EventCorrelationState },
): ExecuteContext {
  return {
    kube: deps.kube,
    lease,
    expectations: deps.expectations,
    ledger: deps.ledger,
    cloneSet: world.cloneSet,
    pods: world.pods,
    pvcs: world.pvcs,
    pending: observed.pending,
    clock: deps.clock,
    newIntentId: randomUUID,
    log: deps.log,
    recordedEvents,
    eventCorrelation,
    ...(deps.writeConcurrency ? { writeConcurrency: deps.writeConcurrency } : {}),
  };
}

/**
 * One pass: read, observe, then either finish a recorded scale-down intent (once no expectation is pending) or plan
 * and execute (no pod writes while one is).
 * @param recordedEvents Events already recorded by this invocation (not repeated)
 * @param scope what to list ({@link readScopeFor} the request's reason)
 * @param eventCorrelation this invocation's Event correlation state (lib/kube/eventCorrelation.ts), updated in place
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
  const { kube, log } = deps;
  const started = Date.now();
  // side by side: only this invocation, the lease holder, writes the expectations
  const storedRead = deps.expectations.get(key);
  const [stored, world] = await Promise.all([
    storedRead,
    readWorld(kube, key, scope, storedRead, deps.options),
  ]);
  if (!world) {
    await deps.expectations.put(lease, { creates: [], deletes: [], updates: [] });
    return { gone: true, writes: 0, acted: false };
  }
  if (world.unreadNodes?.length)
    log.warn('nodes not read: their pods get no topology-spread rank at scale-in', {
      nodes: world.unreadNodes,
    });
  const uid = world.cloneSet.metadata.uid ?? '';
  const expectations = ownedExpectationStore(deps.expectations, uid);
  const mine = ownExpectations(stored, uid);
  const observed = await observe({ ...deps, expectations }, lease, mine, world);
  // what the read learnt of the CloneSet's PVCs rides on the pass's next store of its expectations (a PVC create
  // records its expectation first, so a template's `true` is stored before it); a pass that stores none stores it
  // at its end
  const claims = claimsKeeper(expectations, lease, mine, world, observed);
  const result = await act({ ...deps, expectations: claims.store }, key, lease, world, observed, {
    recordedEvents,
    eventCorrelation,
    started,
  });
  await claims.saveIfUnsaved();
  return result;
}

/**
 * The expectations store for the rest of a pass, noting whether the pass stored them, and `saveIfUnsaved`, which
 * stores `world.ownsClaims` when it differs from what was stored and nothing of the pass has stored it yet.
 * @throws state-store errors, from `saveIfUnsaved` (FencedOutError after a takeover)
 */
function claimsKeeper(
  store: ExpectationStore,
  lease: Lease,
  stored: Expectations,
  world: World,
  observed: ObservedExpectations,
): { store: ExpectationStore; saveIfUnsaved: () => Promise<void> } {
  let saved = observed.changed;
  const unsaved = world.ownsClaims !== undefined && world.ownsClaims !== stored.ownsClaims;
  return {
    store: {
      get: (k) => store.get(k),
      put: async (l, e) => {
        await store.put(l, e);
        saved = true;
      },
    },
    saveIfUnsaved: async () => {
      if (unsaved && !saved) await store.put(lease, observed.pending);
    },
  };
}

/** What a pass's {@link act} is given beside the world. */
interface ActEnv {
  recordedEvents: Set<string>;
  eventCorrelation: { state: EventCorrelationState };
  /** `Date.now()` at the pass's start, for its log line. */
  started: number;
}

/**
 * Finish a recorded scale-down intent (once no expectation is pending), or plan and execute (no pod writes while one
 * is): the part of {@link runPass} after the read and the observation.
 * @throws state-store errors (FencedOutError after a takeover)
 */
async function act(
  deps: PassDeps,
  key: ObjectKey,
  lease: Lease,
  world: World,
  observed: ObservedExpectations,
  { recordedEvents, eventCorrelation, started }: ActEnv,
): Promise<PassResult> {
  const { kube, log } = deps;
  const intent = await deps.ledger.get(key);
  if (intent && !intentIsCurrent(intent, world.cloneSet)) {
    log.info('scale-down intent recorded for an older spec or a deleted CloneSet: cleared, planning anew', {
      intentId: intent.intentId,
      generation: intent.generation,
      ownerUid: intent.ownerUid,
    });
    await deps.ledger.clear(lease, intent.intentId);
  } else if (intent && isSatisfied(observed.pending)) {
    // the same victims as the predecessor, but no more than the plan for the world as it is now would delete; only
    // once every expectation is observed (OpenKruise's `SatisfiedExpectations` gate in `doReconcile`): a victim
    // whose delete is still in flight would be deleted twice, and the world the allowance is planned from still
    // counts it (while pending, the pass below waits and writes no pod)
    const { plan: now } = planPass({ ...deps, newInstanceId: randomInstanceId }, world, false);
    const at = new Date(deps.clock());
    const deleting = now.actions.flatMap((a) =>
      a.type === 'DeletePod' ? world.pods.filter((p) => p.metadata.uid === a.pod.uid) : [],
    );
    const allowance = {
      total: deleting.length,
      available: deleting.filter((p) => isPodAvailable(p, 0, at)).length,
    };
    const finished = await finishScaleDown(
      {
        ...deps,
        lease,
        cloneSet: world.cloneSet,
        pods: world.pods,
        pvcs: world.pvcs,
        pending: observed.pending,
        allowance,
        eventCorrelation,
      },
      intent,
    );
    if (finished.error) {
      const failed = await reportFailedWrite(
        executeContext(deps, lease, world, observed, recordedEvents, eventCorrelation),
        now,
        finished.error,
      );
      return {
        gone: false,
        writes: finished.writes + failed.writes,
        acted: false,
        error: finished.error.message,
        plan: now,
      };
    }
    // the intent is cleared (or a victim changed): plan at once (it may have kept pods that are no longer surplus)
    return { gone: false, writes: finished.writes, acted: true };
  }

  const waiting = !isSatisfied(observed.pending);
  const planned = planPass(deps, world, waiting);
  // gate PodUnavailableBudgetUpdateGate: each pod's budget is asked before its update starts (./pubCheck.ts)
  const admit = deps.admitPodUpdate;
  const checked =
    deps.options?.pubUpdateGate && admit
      ? await withPubCheck(planned.effective, world.pods, (pod) => admit(kube, pod))
      : { plan: planned.effective };
  const effective = checked.plan;
  const plan = checked.refused
    ? { ...planned.plan, requeueAfterSeconds: effective.requeueAfterSeconds }
    : planned.plan;
  if (checked.refused)
    log.info('update waits for a PodUnavailableBudget', { key: objectKeyText(key), pod: checked.refused });
  const result = await executePlan(
    executeContext(deps, lease, world, observed, recordedEvents, eventCorrelation),
    effective,
  );
  const acted =
    effective.actions.length > 0 ||
    !!effective.revisions.create ||
    !!effective.revisions.update ||
    !!result.conflict;
  log.info('reconciled', {
    key: objectKeyText(key),
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
  const requeue = nextLook(result, waiting, observed, plan);
  return {
    gone: false,
    writes: result.writes,
    acted: acted && !result.error,
    ...(requeue !== undefined ? { requeueAfterSeconds: requeue } : {}),
    ...(result.error ? { error: result.error.message } : {}),
    plan,
  };
}
