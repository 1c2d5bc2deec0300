/**
 * OpenKruise: pkg/controller/broadcastjob/broadcastjob_controller.go `Reconcile` (with the informer cache replaced by
 * quorum reads and the in-memory expectations by the durable ones).
 *
 * One reconcile pass over one BroadcastJob: read the job and its pods → observe the stored expectations (pending:
 * nothing is written, look again shortly, as upstream returns early) → read the Nodes unless the job has finished →
 * plan (./plan, pure) → delete the job after its TTL, or execute (./execute.ts).
 */
import { ownedExpectationStore, ownExpectations } from '../../reconcile/pods/expectationsOwner.js';
import type { PassResult as LoopPassResult } from '../../reconcile/reconcile.js';
import { randomSuffix } from '../../reconcile/pods/randomSuffix.js';
import type { Pod } from '../../api/types.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { namespaceOf, objectKeyText, type ObjectKey } from '../../core/objectKey.js';
import { classifyWriteError } from '../../kube/errors.js';
import { emptyCorrelation, type EventCorrelationState } from '../../kube/eventCorrelation.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { controllerRef } from '../../podset/ownership.js';
import {
  EXPECTATION_TIMEOUT_SECONDS,
  isSatisfied,
  observeExpectations,
  pendingRecheckSeconds,
} from '../../reconcile/pods/observeExpectations.js';
import type { ReconcileReason } from '../../requests/schema.js';
import type { ExpectationStore, Lease } from '../../state/index.js';
import { withDefaults } from './api/defaults.js';
import { LABEL_CONTROLLER_UID, LABEL_JOB_NAME } from './api/keys.js';
import { BROADCASTJOB_KIND_NAME, BROADCASTJOB_RESOURCE } from './api/resource.js';
import { executeBroadcastJobPlan } from './execute.js';
import { reportInvalid } from './invalid.js';
import { isJobFinished, planBroadcastJob, type BroadcastJobPlan } from './plan/index.js';
import { deleteBroadcastJob } from './write.js';
import type { BroadcastJobSettings } from './settings.js';

/** What a pass needs. */
export interface PassDeps {
  kube: KubeClient;
  expectations: ExpectationStore;
  log: Logger;
  clock: Clock;
  /** Expectation timeout, seconds; default {@link EXPECTATION_TIMEOUT_SECONDS}. */
  expectationTimeoutSeconds?: number;
  /** Creates of one batch in flight at most; default lib/core/bounded.ts's. */
  writeConcurrency?: number;
  /** New pod name suffixes; default 5 random characters of `SAFE_ALPHABET`. */
  newSuffix?: () => string;
  /** The controller's settings (feature gates). */
  options?: BroadcastJobSettings;
}

/** What one pass did: the loop's {@link LoopPassResult} with this kind's plan. */
export type PassResult = LoopPassResult<BroadcastJobPlan>;

/** The only read scope: a BroadcastJob's pods are listed by its labels whatever the reason. */
export type ReadScope = 'owned';

/** {@link ReadScope} for any reason. */
export function readScopeFor(_reason: ReconcileReason): ReadScope {
  return 'owned';
}

/**
 * The job's pods as upstream lists them: the namespace's pods with both job labels (`broadcastjob-name`,
 * `broadcastjob-controller-uid`), kept when their controller reference is a BroadcastJob of the job's UID.
 * @throws KubeApiError when the list fails
 */
export async function listJobPods(
  kube: Pick<KubeClient, 'list'>,
  namespace: string,
  name: string,
  uid: string,
): Promise<Pod[]> {
  const listed = await listAll(
    kube,
    RESOURCES.pods,
    {
      namespace,
      labelSelector: `${LABEL_JOB_NAME}=${name},${LABEL_CONTROLLER_UID}=${uid}`,
      limit: LIST_PAGE_SIZE,
    },
    (p) => {
      const ref = controllerRef(p.metadata.ownerReferences);
      return !!uid && ref?.kind === BROADCASTJOB_KIND_NAME && ref.uid === uid;
    },
  );
  return listed.items;
}

/**
 * One pass (see the module doc).
 * @throws state-store errors (FencedOutError after a takeover) and failed reads (KubeApiError)
 */
export async function runPass(
  deps: PassDeps,
  key: ObjectKey,
  lease: Lease,
  recordedEvents: Set<string>,
  _scope: ReadScope = 'owned',
  eventCorrelation: { state: EventCorrelationState } = { state: emptyCorrelation() },
): Promise<PassResult> {
  const namespace = namespaceOf(key);
  const stored = await deps.expectations.get(key);
  const job = await deps.kube.get(BROADCASTJOB_RESOURCE, { namespace, name: key.name });
  if (!job) {
    await deps.expectations.put(lease, { creates: [], deletes: [], updates: [] });
    return { gone: true, writes: 0, acted: false };
  }
  const uid = job.metadata.uid ?? '';
  const expectations = ownedExpectationStore(deps.expectations, uid);
  const pods = await listJobPods(deps.kube, namespace, key.name, uid);
  const observed = observeExpectations(
    ownExpectations(stored, uid),
    pods,
    [],
    deps.clock(),
    (deps.expectationTimeoutSeconds ?? EXPECTATION_TIMEOUT_SECONDS) * 1000,
  );
  if (observed.changed) await expectations.put(lease, observed.pending);
  if (!isSatisfied(observed.pending)) {
    return { gone: false, writes: 0, acted: false, requeueAfterSeconds: pendingRecheckSeconds(observed) };
  }
  const nodes = isJobFinished(withDefaults(job))
    ? []
    : (await listAll(deps.kube, RESOURCES.nodes, { limit: LIST_PAGE_SIZE })).items;
  const plan = planBroadcastJob({
    job,
    pods,
    nodes,
    now: new Date(deps.clock()),
    newSuffix: deps.newSuffix ?? randomSuffix,
    ...(deps.options?.templateNoDefaults ? { templateNoDefaults: true } : {}),
  });
  const log = (fields: Record<string, unknown>) =>
    deps.log.info('reconciled', { key: objectKeyText(key), plan: plan.type, ...fields });
  if (plan.type === 'Finished') {
    log({ requeueAfterSeconds: plan.requeueAfterSeconds });
    return {
      gone: false,
      writes: 0,
      acted: false,
      ...(plan.requeueAfterSeconds !== undefined ? { requeueAfterSeconds: plan.requeueAfterSeconds } : {}),
      plan,
    };
  }
  if (plan.type === 'Invalid') {
    const writes = await reportInvalid({ ...deps, recordedEvents, eventCorrelation }, job, plan.errors);
    log({ invalid: plan.errors });
    return { gone: false, writes, acted: false, plan };
  }
  if (plan.type === 'DeleteJob') {
    try {
      await deleteBroadcastJob(deps.kube, job);
    } catch (e) {
      if (classifyWriteError(e) === 'notApi') throw e;
      log({ error: (e as Error).message });
      return { gone: false, writes: 0, acted: false, error: (e as Error).message, plan };
    }
    log({ deleted: true });
    return { gone: true, writes: 1, acted: true, plan };
  }
  const result = await executeBroadcastJobPlan(
    {
      kube: deps.kube,
      lease,
      expectations,
      job,
      pending: observed.pending,
      clock: deps.clock,
      log: deps.log,
      recordedEvents,
      eventCorrelation,
      ...(deps.writeConcurrency ? { writeConcurrency: deps.writeConcurrency } : {}),
    },
    plan,
  );
  const error = result.error?.message ?? plan.error;
  log({
    deletes: plan.deletes.length,
    creates: plan.creates.length,
    writes: result.writes,
    phase: plan.status.phase,
    requeueAfterSeconds: plan.requeueAfterSeconds,
    error,
  });
  return {
    gone: false,
    writes: result.writes,
    acted: result.podWrites > 0 && !result.error,
    ...(error
      ? { error }
      : plan.requeueAfterSeconds !== undefined
        ? { requeueAfterSeconds: plan.requeueAfterSeconds }
        : {}),
    plan,
  };
}
