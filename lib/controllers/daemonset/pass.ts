/**
 * OpenKruise: pkg/controller/daemonset/daemonset_controller.go `syncDaemonSet` (with the informer cache replaced by
 * quorum reads and the in-memory expectations by the durable ones).
 *
 * One reconcile pass over one DaemonSet: read it, its pods and its ControllerRevisions and the orphans among them it
 * selects → adopt those (./adopt.ts) → observe the stored
 * expectations (pending: nothing is written, look again shortly) → read the Nodes → plan (./plan, pure) → execute
 * (./execute.ts).
 */
import { randomSuffix } from '../../reconcile/pods/randomSuffix.js';
import type { StatusCondition } from '../../api/failedValidation.js';
import type { Node } from '../../api/node.js';
import type { ControllerRevision, Pod } from '../../api/types.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { namespaceOf, objectKeyText, type ObjectKey } from '../../core/objectKey.js';
import { emptyCorrelation, type EventCorrelationState } from '../../kube/eventCorrelation.js';
import { listAll, listIfServed, LIST_PAGE_SIZE } from '../../kube/list.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { controllerRef } from '../../podset/ownership.js';
import {
  EXPECTATION_TIMEOUT_SECONDS,
  isSatisfied,
  observeExpectations,
  pendingRecheckSeconds,
} from '../../reconcile/pods/observeExpectations.js';
import { ownedExpectationStore, ownExpectations } from '../../reconcile/pods/expectationsOwner.js';
import { reportFailedValidation } from '../../reconcile/failedValidation.js';
import type { ReconcileReason } from '../../requests/schema.js';
import type { ExpectationStore, Lease } from '../../state/index.js';
import { DAEMONSET_KIND_NAME, DAEMONSET_RESOURCE } from './api/resource.js';
import type { DaemonSet } from './api/types.js';
import { claimOrphans } from './adopt.js';
import { executeDaemonSetPlan } from './execute.js';
import { updateDaemonSetStatus } from './write.js';
import { planDaemonSet, type DaemonSetPlan, type DaemonSetPlannerOptions } from './plan/index.js';
import type { FailedPodBackoff } from './plan/failedPodBackoff.js';

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
  /** The feature gates' options (./settings.ts); absent fields take OpenKruise's defaults. */
  options?: Partial<DaemonSetPlannerOptions>;
}

/** What one pass did (lib/reconcile/reconcile.ts `PassResult`). */
export interface PassResult {
  gone: boolean;
  writes: number;
  acted: boolean;
  requeueAfterSeconds?: number;
  error?: string;
  plan?: DaemonSetPlan;
}

/** The only read scope: a DaemonSet's pods are listed whatever the reason. */
export type ReadScope = 'owned';

/** {@link ReadScope} for any reason. */
export function readScopeFor(_reason: ReconcileReason): ReadScope {
  return 'owned';
}

/** Whether `o`'s controller is the DaemonSet of `uid`, or `o` has no controller (an orphan it may adopt). */
const ownedOrOrphan =
  (uid: string) => (o: { metadata: { ownerReferences?: Pod['metadata']['ownerReferences'] } }) => {
    const ref = controllerRef(o.metadata.ownerReferences);
    return !ref || (!!uid && ref.kind === DAEMONSET_KIND_NAME && ref.uid === uid);
  };

/**
 * The pods and ControllerRevisions of the namespace that the DaemonSet of `uid` controls or that have no controller
 * (./adopt.ts claims them; upstream lists everything and claims).
 * @throws KubeApiError when a list fails
 */
export async function listOwnedOrOrphan(
  kube: Pick<KubeClient, 'list'>,
  namespace: string,
  uid: string,
): Promise<{ pods: Pod[]; revisions: ControllerRevision[] }> {
  const [pods, revisions] = await Promise.all([
    listAll(kube, RESOURCES.pods, { namespace, limit: LIST_PAGE_SIZE }, ownedOrOrphan(uid)),
    listAll(kube, RESOURCES.controllerrevisions, { namespace, limit: LIST_PAGE_SIZE }, ownedOrOrphan(uid)),
  ]);
  return { pods: pods.items, revisions: revisions.items };
}

/**
 * The planning step of a pass once its pods are claimed and its expectations met: the Nodes read (and the
 * namespace's ImagePullJobs when image pre-download is on), then the pure planner (./plan). Shared with
 * ./preview.ts, so `kruiseless plan ds/<name>` plans as a pass does.
 * @param backoffs the failed-pod delays stored with the expectations
 * @returns the Nodes read and the plan
 * @throws KubeApiError when a read fails
 */
export async function readNodesAndPlan(
  deps: Pick<PassDeps, 'kube' | 'clock' | 'newSuffix' | 'options'>,
  ds: DaemonSet,
  pods: readonly Pod[],
  revisions: readonly ControllerRevision[],
  backoffs: readonly FailedPodBackoff[] | undefined,
): Promise<{ nodes: Node[]; plan: DaemonSetPlan }> {
  const namespace = ds.metadata.namespace ?? '';
  const nodes = (await listAll(deps.kube, RESOURCES.nodes, { limit: LIST_PAGE_SIZE })).items;
  const preDownloadOn =
    (deps.options?.preDownloadImageForDaemonSetUpdate ?? false) && (deps.options?.kruiseDaemon ?? true);
  const jobs = preDownloadOn
    ? await listIfServed(deps.kube, RESOURCES.imagepulljobs, { namespace })
    : undefined;
  const plan = planDaemonSet({
    ds,
    pods,
    nodes,
    revisions,
    now: new Date(deps.clock()),
    newSuffix: deps.newSuffix ?? randomSuffix,
    ...(deps.options ? { options: deps.options } : {}),
    ...(backoffs ? { backoffs } : {}),
    ...(jobs ? { imagePullJobs: jobs.items } : {}),
  });
  return { nodes, plan };
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
  const ds = await deps.kube.get(DAEMONSET_RESOURCE, { namespace, name: key.name });
  if (!ds) {
    await deps.expectations.put(lease, { creates: [], deletes: [], updates: [] });
    return { gone: true, writes: 0, acted: false };
  }
  const uid = ds.metadata.uid ?? '';
  const expectations = ownedExpectationStore(deps.expectations, uid);
  const listed = await listOwnedOrOrphan(deps.kube, namespace, uid);
  const { pods, revisions, writes: claimWrites, withdrawn } = await claimOrphans(deps.kube, ds, listed);
  if (withdrawn) {
    // as upstream, whose claim then fails the sync: the next pass reads the DaemonSet as it is now
    deps.log.info(
      'DaemonSet gone, being deleted or replaced since it was read: nothing adopted, passing again',
      {
        key: objectKeyText(key),
      },
    );
    return { gone: false, writes: claimWrites, acted: true };
  }
  const observed = observeExpectations(
    ownExpectations(stored, uid),
    pods,
    [],
    deps.clock(),
    (deps.expectationTimeoutSeconds ?? EXPECTATION_TIMEOUT_SECONDS) * 1000,
  );
  if (observed.changed) await expectations.put(lease, observed.pending);
  if (!isSatisfied(observed.pending)) {
    return {
      gone: false,
      writes: claimWrites,
      acted: false,
      requeueAfterSeconds: pendingRecheckSeconds(observed),
    };
  }
  const { plan } = await readNodesAndPlan(deps, ds, pods, revisions, observed.pending.backoffs);
  const log = (fields: Record<string, unknown>) =>
    deps.log.info('reconciled', { key: objectKeyText(key), plan: plan.type, ...fields });
  if (plan.type === 'Skip') {
    log({});
    return { gone: false, writes: claimWrites, acted: false, plan };
  }
  if (plan.type === 'Invalid') {
    const writes = await reportFailedValidation(
      {
        kube: deps.kube,
        clock: deps.clock,
        log: deps.log,
        recordedEvents,
        eventCorrelation,
        resource: DAEMONSET_RESOURCE,
        object: ds,
        kind: DAEMONSET_KIND_NAME,
        conditions: ds.status?.conditions as StatusCondition[] | undefined,
        writeStatus: (conditions) =>
          updateDaemonSetStatus(deps.kube, ds, {
            // the counts Go writes without omitempty (the CRD requires them), for a DaemonSet that never had a status
            currentNumberScheduled: 0,
            numberMisscheduled: 0,
            desiredNumberScheduled: 0,
            numberReady: 0,
            updatedNumberScheduled: 0,
            ...ds.status,
            conditions,
          }),
      },
      plan.errors,
    );
    log({ errors: plan.errors.length, writes: claimWrites + writes });
    // nothing else to do until the DaemonSet changes: no further pass
    return { gone: false, writes: claimWrites + writes, acted: false, plan };
  }
  const result = await executeDaemonSetPlan(
    {
      kube: deps.kube,
      lease,
      expectations,
      ds,
      pending: observed.pending,
      clock: deps.clock,
      recordedEvents,
      eventCorrelation,
      log: deps.log,
      ...(deps.writeConcurrency ? { writeConcurrency: deps.writeConcurrency } : {}),
    },
    plan,
  );
  const error = result.error?.message;
  const requeue = plan.type === 'Sync' ? plan.requeueAfterSeconds : undefined;
  log({
    ...(plan.type === 'Sync'
      ? { creates: plan.creates.length, deletes: plan.deletes.length, hash: plan.hash }
      : {}),
    writes: claimWrites + result.writes,
    requeueAfterSeconds: requeue,
    error,
  });
  return {
    gone: false,
    writes: claimWrites + result.writes,
    acted: result.podWrites > 0 && !result.error,
    ...(error ? { error } : requeue !== undefined ? { requeueAfterSeconds: requeue } : {}),
    plan,
  };
}
