/**
 * OpenKruise: pkg/controller/podunavailablebudget/podunavailablebudget_controller.go `Reconcile` /
 * `syncPodUnavailableBudget` (v1.9.0), with the informer cache replaced by quorum reads.
 *
 * One reconcile pass over one PUB: read it → its pods and expected replicas (./targets.ts) → plan (./plan, pure) →
 * `NoPods`, or mark the pods without a related-pub annotation → (spec invalid: a Warning, and the pass fails) →
 * `NotDeleted` on pods whose disruption ran out → the status, when it changed, through the status subresource. A
 * conflict (the webhook consumed budget meanwhile) re-reads the PUB and plans again, 4 attempts in all as upstream's
 * `ConflictRetry`. The pass looks again when the earliest record runs out.
 */
import type { PassResult as LoopPassResult } from '../../reconcile/reconcile.js';
import { recordObjectEvents } from '../../reconcile/pods/recordEvents.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { namespaceOf, objectKeyText, type ObjectKey } from '../../core/objectKey.js';
import { classifyWriteError, isConflict } from '../../kube/errors.js';
import { emptyCorrelation, type EventCorrelationState } from '../../kube/eventCorrelation.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import type { ReconcileReason } from '../../requests/schema.js';
import type { Lease } from '../../state/index.js';
import { PUB_RESOURCE } from './api/resource.js';
import type { PodUnavailableBudget } from './api/types.js';
import { planPubStatus, type PubPlan } from './plan/index.js';
import { pubControllerEnabled, type PubSettings } from './settings.js';
import { podsForPub } from './targets.js';
import { markPodRelatedPub, updatePubStatus } from './write.js';

/** What a pass needs. */
export interface PassDeps {
  kube: KubeClient;
  log: Logger;
  clock: Clock;
  /** The controller's settings (feature gates); absent: OpenKruise's defaults. */
  options?: PubSettings;
}

/** What one pass did: the loop's {@link LoopPassResult} with this kind's plan. */
export type PassResult = LoopPassResult<PubPlan>;

/** The only read scope: the PUB's pods and workloads, whatever the reason. */
export type ReadScope = 'targets';

/** {@link ReadScope} for any reason. */
export function readScopeFor(_reason: ReconcileReason): ReadScope {
  return 'targets';
}

/** Status writes tried at most per pass (upstream's `ConflictRetry.Steps`). */
export const STATUS_ATTEMPTS = 4;

/**
 * One pass (see the module doc).
 * @throws failed reads (KubeApiError) and non-API errors
 */
export async function runPass(
  deps: PassDeps,
  key: ObjectKey,
  _lease: Lease,
  recordedEvents: Set<string>,
  _scope: ReadScope = 'targets',
  eventCorrelation: { state: EventCorrelationState } = { state: emptyCorrelation() },
): Promise<PassResult> {
  const namespace = namespaceOf(key);
  let pub = await deps.kube.get(PUB_RESOURCE, { namespace, name: key.name });
  if (!pub) return { gone: true, writes: 0, acted: false };
  if (pub.metadata.deletionTimestamp || !pubControllerEnabled(deps.options ?? {}))
    return { gone: false, writes: 0, acted: false };
  const { pods, expectedCount } = await podsForPub(deps.kube, pub, deps.log);
  const events = (object: PodUnavailableBudget) => ({
    kube: deps.kube,
    resource: PUB_RESOURCE,
    object,
    clock: deps.clock,
    recordedEvents,
    eventCorrelation,
  });
  const log = (fields: Record<string, unknown>) =>
    deps.log.info('reconciled', { key: objectKeyText(key), ...fields });
  let writes = 0;
  const failed = (e: unknown, plan: PubPlan): PassResult => {
    if (classifyWriteError(e) === 'notApi') throw e;
    const error = (e as Error).message;
    log({ writes, error });
    return { gone: false, writes, acted: false, error, plan };
  };
  let plan = planPubStatus({ pub, pods, expectedCount, now: new Date(deps.clock()) });
  if (plan.noPods)
    await recordObjectEvents(events(pub), [
      { type: 'Normal', reason: 'NoPods', message: 'No matching pods found' },
    ]);
  else {
    try {
      for (const name of plan.unmarked) {
        await markPodRelatedPub(deps.kube, namespace, name, key.name);
        writes++;
      }
    } catch (e) {
      return failed(e, plan);
    }
  }
  if (plan.type === 'Invalid') {
    await recordObjectEvents(events(pub), [
      { type: 'Warning', reason: 'CalculateExpectedPodCountFailed', message: plan.message },
    ]);
    log({ writes, error: plan.message });
    return { gone: false, writes, acted: false, error: plan.message, plan };
  }
  for (let attempt = 1; ; attempt++) {
    if (plan.type !== 'Status') break;
    for (const name of plan.notDeleted) {
      const pod = pods.find((p) => p.metadata.name === name);
      if (pod)
        await recordObjectEvents({ ...events(pub), resource: RESOURCES.pods, object: pod }, [
          {
            type: 'Warning',
            reason: 'NotDeleted',
            message: `Pod was expected by PUB ${namespace}/${key.name} to be deleted but it wasn't`,
          },
        ]);
    }
    if (!plan.changed) break;
    try {
      await updatePubStatus(deps.kube, pub, plan.status);
      writes++;
      break;
    } catch (e) {
      if (!isConflict(e) || attempt >= STATUS_ATTEMPTS) return failed(e, plan);
    }
    const fresh = await deps.kube.get(PUB_RESOURCE, { namespace, name: key.name });
    if (!fresh) return { gone: true, writes, acted: false };
    pub = fresh;
    plan = planPubStatus({ pub, pods, expectedCount, now: new Date(deps.clock()) });
  }
  const recheck = plan.type === 'Status' ? plan.recheckAfterMs : undefined;
  log({
    writes,
    pods: pods.length,
    expectedCount,
    ...(plan.type === 'Status'
      ? { unavailableAllowed: plan.status.unavailableAllowed, currentAvailable: plan.status.currentAvailable }
      : {}),
    requeueAfterSeconds: recheck !== undefined ? recheck / 1000 : undefined,
  });
  return {
    gone: false,
    writes,
    acted: false,
    // a millisecond past the expiry, when the record is strictly older than its grace
    ...(recheck !== undefined ? { requeueAfterSeconds: (recheck + 1) / 1000 } : {}),
    plan,
  };
}
