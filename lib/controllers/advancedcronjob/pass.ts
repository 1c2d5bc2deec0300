/**
 * OpenKruise: pkg/controller/advancedcronjob/advancedcronjob_controller.go `Reconcile` with `reconcileJob` /
 * `reconcileBroadcastJob` (the informer cache replaced by quorum reads).
 *
 * One reconcile pass over one AdvancedCronJob: read it and the namespace's children of its template's kind → plan
 * (./plan, pure) → write in upstream's order: the status, the children beyond the history limits (best effort: a
 * failed delete is logged), then `Replace`'s deletes and the new child (a failure there fails the pass, which backs
 * off, as upstream returns the error). The pass then waits for the next scheduled time, counted from the plan's
 * clock reading (`requeueFromMs`): it never asks for another pass at once, because upstream does not look again
 * after a create (no Job watch reaches it).
 */
import type { PassResult as LoopPassResult } from '../../reconcile/reconcile.js';
import type { Logger } from '../../core/logger.js';
import type { Clock } from '../../core/clock.js';
import { namespaceOf, objectKeyText, type ObjectKey } from '../../core/objectKey.js';
import { classifyWriteError } from '../../kube/errors.js';
import { emptyCorrelation, type EventCorrelationState } from '../../kube/eventCorrelation.js';
import { reportFailedValidation } from '../../reconcile/failedValidation.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import type { KubeClient } from '../../kube/types.js';
import type { ReconcileReason } from '../../requests/schema.js';
import type { Lease } from '../../state/index.js';
import { ACJ_KIND_NAME, ACJ_RESOURCE, BROADCASTJOB_CHILD_RESOURCE, JOB_RESOURCE } from './api/resource.js';
import {
  planAdvancedCronJob,
  templateKindOf,
  type AdvancedCronJobPlan,
  type InvalidPlan,
  type UnsupportedPlan,
} from './plan/index.js';
import { deleteChild, updateStatus } from './write.js';
import type { AdvancedCronJobSettings } from './settings.js';

/** What a pass needs. */
export interface PassDeps {
  kube: KubeClient;
  log: Logger;
  clock: Clock;
  /** The controller's settings (feature gates). */
  options?: AdvancedCronJobSettings;
}

/** What one pass did: the loop's {@link LoopPassResult} with this kind's plan. */
export type PassResult = LoopPassResult<AdvancedCronJobPlan | UnsupportedPlan | InvalidPlan>;

/** The only read scope: the namespace's children of the template's kind, whatever the reason. */
export type ReadScope = 'children';

/** {@link ReadScope} for any reason. */
export function readScopeFor(_reason: ReconcileReason): ReadScope {
  return 'children';
}

/**
 * One pass (see the module doc).
 * @throws failed reads (KubeApiError) and non-API errors
 */
export async function runPass(
  deps: PassDeps,
  key: ObjectKey,
  _lease: Lease,
  recordedEvents: Set<string>,
  _scope: ReadScope = 'children',
  eventCorrelation: { state: EventCorrelationState } = { state: emptyCorrelation() },
): Promise<PassResult> {
  const namespace = namespaceOf(key);
  const acj = await deps.kube.get(ACJ_RESOURCE, { namespace, name: key.name });
  if (!acj) return { gone: true, writes: 0, acted: false };
  const kind = templateKindOf(acj)?.kind;
  const resource = kind === 'BroadcastJob' ? BROADCASTJOB_CHILD_RESOURCE : JOB_RESOURCE;
  const children =
    kind === 'Job' || kind === 'BroadcastJob'
      ? (await listAll(deps.kube, resource, { namespace, limit: LIST_PAGE_SIZE })).items
      : [];
  const nowMs = deps.clock();
  const plan = planAdvancedCronJob({
    acj,
    children,
    now: new Date(nowMs),
    ...(deps.options?.templateNoDefaults ? { templateNoDefaults: true } : {}),
  });
  const log = (fields: Record<string, unknown>) =>
    deps.log.info('reconciled', { key: objectKeyText(key), ...fields });
  if (plan.type === 'Unsupported') {
    log({ unsupportedTemplate: plan.templateKind });
    return { gone: false, writes: 0, acted: false, plan };
  }
  if (plan.type === 'Invalid') {
    // the status has no conditions: the Warning Event alone says it (once per invocation, folded into its count)
    await reportFailedValidation(
      {
        kube: deps.kube,
        clock: deps.clock,
        log: deps.log,
        recordedEvents,
        eventCorrelation,
        resource: ACJ_RESOURCE,
        object: acj,
        kind: ACJ_KIND_NAME,
        conditions: undefined,
      },
      plan.errors,
    );
    log({ errors: plan.errors.length });
    return { gone: false, writes: 0, acted: false, plan };
  }
  let writes = 0;
  const failed = (e: unknown): PassResult => {
    if (classifyWriteError(e) === 'notApi') throw e;
    const error = (e as Error).message;
    log({ writes, error });
    return { gone: false, writes, acted: false, error, plan };
  };
  if (plan.status) {
    try {
      await updateStatus(deps.kube, acj, plan.status);
      writes++;
    } catch (e) {
      return failed(e);
    }
  }
  for (const child of plan.historyDeletes) {
    try {
      await deleteChild(deps.kube, resource, child);
      writes++;
    } catch (e) {
      if (classifyWriteError(e) === 'notApi') throw e;
      deps.log.warn('deleting an old finished child failed', {
        key: objectKeyText(key),
        child: child.metadata.name,
        error: (e as Error).message,
      });
    }
  }
  try {
    for (const child of plan.replaceDeletes) {
      await deleteChild(deps.kube, resource, child);
      writes++;
    }
    if (plan.create) {
      await deps.kube.create(resource, plan.create);
      writes++;
    }
  } catch (e) {
    return failed(e);
  }
  log({
    writes,
    skip: plan.skip,
    created: plan.create?.metadata.name,
    message: plan.message,
    requeueAfterSeconds: plan.requeueAfterSeconds,
  });
  return {
    gone: false,
    writes,
    acted: false,
    // counted from the plan's clock reading, so the writes above do not make the wake-up late
    ...(plan.requeueAfterSeconds !== undefined
      ? { requeueAfterSeconds: plan.requeueAfterSeconds, requeueFromMs: nowMs }
      : {}),
    plan,
  };
}
