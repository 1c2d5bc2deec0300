/**
 * OpenKruise: pkg/controller/workloadspread/workloadspread_controller.go `Reconcile` / `syncWorkloadSpread`
 * (v1.9.0), with the informer cache replaced by quorum reads.
 *
 * One reconcile pass over one WorkloadSpread: read it → its target's pods and replicas, and the nodes of the pods it
 * did not place (./targets.ts) → group them by version and subset, taking in pods created before it (patched with
 * their subset, ./plan/existingPods.ts) → the deletion-cost annotations that differ (./plan/deletionCost.ts), patched → the status
 * (./plan/status.ts) with its `CreatePodFailed` / `DeletePodFailed` Warnings → the status, when it changed, through
 * the status subresource → the Events of the status calculation (a `RecoverSchedulable` once per status that turned
 * back, not once per invocation) → under the Adaptive strategy, the unschedulable pods deleted one by one in subset
 * order (./plan/reschedule.ts; a failed delete stops the pass with a `DeletePodFailed` Warning, as upstream's
 * `deletePodsForSubset`). A conflict (the pod webhook wrote a record meanwhile) re-reads the WorkloadSpread and plans
 * again, 4 attempts in all. The pass looks again when the earliest pending record, unschedulable pod's timeout or
 * unschedulable mark runs out.
 */
import type { PassResult as LoopPassResult } from '../../reconcile/reconcile.js';
import { recordObjectEvents } from '../../reconcile/pods/recordEvents.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { namespaceOf, objectKeyText, type ObjectKey } from '../../core/objectKey.js';
import { classifyWriteError, isConflict } from '../../kube/errors.js';
import { emptyCorrelation, type EventCorrelationState } from '../../kube/eventCorrelation.js';
import type { KubeClient } from '../../kube/types.js';
import type { ReconcileReason } from '../../requests/schema.js';
import type { Lease } from '../../state/index.js';
import { WORKLOADSPREAD_RESOURCE } from './api/resource.js';
import type { WorkloadSpread } from './api/types.js';
import { planWorkloadSpread, type WorkloadSpreadPlan } from './plan/index.js';
import { workloadSpreadEnabled, type WorkloadSpreadSettings } from './settings.js';
import { readTargets } from './targets.js';
import { deletePod, patchPodDeletionCost, patchPodSubset, updateWorkloadSpreadStatus } from './write.js';

/** What a pass needs. */
export interface PassDeps {
  kube: KubeClient;
  log: Logger;
  clock: Clock;
  /** The controller's settings (feature gate); absent: OpenKruise's defaults. */
  options?: WorkloadSpreadSettings;
}

/** What one pass did: the loop's {@link LoopPassResult} with this kind's plan. */
export type PassResult = LoopPassResult<WorkloadSpreadPlan>;

/** The only read scope: the target and its pods, whatever the reason. */
export type ReadScope = 'targets';

/** {@link ReadScope} for any reason. */
export function readScopeFor(_reason: ReconcileReason): ReadScope {
  return 'targets';
}

/** Status writes tried at most per pass. */
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
  let ws = await deps.kube.get(WORKLOADSPREAD_RESOURCE, { namespace, name: key.name });
  if (!ws) return { gone: true, writes: 0, acted: false };
  if (ws.metadata.deletionTimestamp || !ws.spec?.targetRef || !workloadSpreadEnabled(deps.options ?? {}))
    return { gone: false, writes: 0, acted: false };
  const targets = await readTargets(deps.kube, ws);
  if (targets.replicasPathError !== undefined) {
    // as upstream's sync, which returns the error before any write: retried with backoff
    const error = `targetFilter.replicasPathList of ${objectKeyText(key)}: ${targets.replicasPathError}`;
    deps.log.warn('WorkloadSpread target replicas not readable', { key: objectKeyText(key), error });
    return { gone: false, writes: 0, acted: false, error };
  }
  const events = (object: WorkloadSpread) => ({
    kube: deps.kube,
    resource: WORKLOADSPREAD_RESOURCE,
    object,
    clock: deps.clock,
    recordedEvents,
    eventCorrelation,
  });
  const log = (fields: Record<string, unknown>) =>
    deps.log.info('reconciled', { key: objectKeyText(key), ...fields });
  let writes = 0;
  const failed = (e: unknown, plan: WorkloadSpreadPlan): PassResult => {
    if (classifyWriteError(e) === 'notApi') throw e;
    const error = (e as Error).message;
    log({ writes, error });
    return { gone: false, writes, acted: false, error, plan };
  };
  let plan = planWorkloadSpread(ws, targets, deps.clock());
  try {
    for (const { pod, patch } of plan.adoptions) {
      await patchPodSubset(deps.kube, namespace, pod, patch);
      writes++;
    }
    for (const { pod, cost } of plan.deletionCosts) {
      await patchPodDeletionCost(deps.kube, namespace, pod, cost);
      writes++;
    }
  } catch (e) {
    return failed(e, plan);
  }
  for (let attempt = 1; ; attempt++) {
    if (!plan.changed) break;
    try {
      await updateWorkloadSpreadStatus(deps.kube, ws, plan.status);
      writes++;
      break;
    } catch (e) {
      if (!isConflict(e) || attempt >= STATUS_ATTEMPTS) return failed(e, plan);
    }
    const fresh = await deps.kube.get(WORKLOADSPREAD_RESOURCE, { namespace, name: key.name });
    if (!fresh) return { gone: true, writes, acted: false };
    ws = fresh;
    plan = { ...planWorkloadSpread(ws, targets, deps.clock()), adoptions: [], deletionCosts: [] };
  }
  const warnings = plan.events.filter((e) => e.type === 'Warning');
  if (warnings.length > 0) await recordObjectEvents(events(ws), warnings);
  const recoveries = plan.events.filter((e) => e.type === 'Normal');
  if (recoveries.length > 0) {
    // one Event per status that turned back (the overall and each version's), folded into one with its count, as
    // upstream's recorder does: not once per invocation (a status turns back in one pass only)
    const { recordedEvents: _once, ...recording } = events(ws);
    await recordObjectEvents(recording, recoveries);
  }
  for (const { subset, pods } of plan.unschedulable)
    for (const pod of pods) {
      const name = pod.metadata.name ?? '';
      try {
        await deletePod(deps.kube, namespace, name, pod.metadata.uid);
        writes++;
      } catch (e) {
        if (classifyWriteError(e) !== 'notApi')
          await recordObjectEvents(events(ws), [
            {
              type: 'Warning',
              reason: 'DeletePodFailed',
              // upstream's spelling, kept so the Events match
              message: `Failed to delete unschedulabe Pod ${namespace}/${name} in Subset ${subset} of WorkloadSpread ${namespace}/${key.name}`,
            },
          ]);
        return failed(e, plan);
      }
    }
  const recheck = plan.recheckAfterMs;
  log({
    writes,
    pods: targets.pods.length,
    replicas: targets.replicas,
    requeueAfterSeconds: recheck !== undefined ? recheck / 1000 : undefined,
  });
  return {
    gone: false,
    writes,
    acted: false,
    // a millisecond past the expiry, when the record is strictly older than its timeout
    ...(recheck !== undefined ? { requeueAfterSeconds: (recheck + 1) / 1000 } : {}),
    plan,
  };
}
