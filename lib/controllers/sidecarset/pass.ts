/**
 * OpenKruise: pkg/controller/sidecarset/sidecarset_controller.go `Reconcile` and `Processor.UpdateSidecarSet` (with
 * the informer cache replaced by quorum reads).
 *
 * One reconcile pass over one SidecarSet: read it → list the pods its selector names (in the namespaces its
 * namespace selector matches, else in all) → register its spec as the latest ControllerRevision (./history.ts) →
 * plan (./plan, pure) → write the status if it changed → reset the older container of each finished hot upgrade
 * (with an Event on the pod), or else update the chosen pods in place, each followed by its
 * `SidecarSetUpgradable` condition. Upstream's in-memory update and
 * resourceVersion expectations guard against a stale informer cache; this pass lists pods from the API server (a
 * quorum read), so a pod it updated is seen updated by the next pass and no expectation is kept.
 */
import type { PassResult as LoopPassResult } from '../../reconcile/reconcile.js';
import type { Pod } from '../../api/types.js';
import { isEmptySelector, selectorString } from '../../api/selector.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { objectKeyText, type ObjectKey } from '../../core/objectKey.js';
import { classifyWriteError, isConflict } from '../../kube/errors.js';
import { emptyCorrelation, type EventCorrelationState } from '../../kube/eventCorrelation.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient, KubeEvent } from '../../kube/types.js';
import { recordObjectEvents } from '../../reconcile/pods/recordEvents.js';
import type { ReconcileReason } from '../../requests/schema.js';
import type { Lease } from '../../state/index.js';
import { NAMESPACE_RESOURCE, SIDECARSET_RESOURCE } from './api/resource.js';
import type { SidecarSet } from './api/types.js';
import { effectiveNamespaceSelector } from './plan/match.js';
import { matchedPods, planSidecarSet, type LatestRevision, type SidecarSetPlan } from './plan/index.js';
import { registerLatestRevision } from './history.js';
import { patchUpgradableCondition, updatePod, updateSidecarSetStatus } from './write.js';

/** What a pass needs. */
export interface PassDeps {
  kube: KubeClient;
  log: Logger;
  clock: Clock;
}

/** What one pass did: the loop's {@link LoopPassResult} with this kind's plan. */
export type PassResult = LoopPassResult<SidecarSetPlan>;

/** The only read scope: a SidecarSet's pods are listed by its selector whatever the reason. */
export type ReadScope = 'selected';

/** {@link ReadScope} for any reason. */
export function readScopeFor(_reason: ReconcileReason): ReadScope {
  return 'selected';
}

/**
 * The pods the SidecarSet's selector names (`getMatchingPods` before its filter): one paged LIST per namespace its
 * namespace selector (or v1alpha1 `namespace`) matches — after a LIST of those namespaces — else one cluster-wide;
 * none for an empty selector.
 * @throws InvalidSelectorError for an invalid selector; KubeApiError when a list fails
 */
export async function listSelectedPods(
  kube: Pick<KubeClient, 'list'>,
  sidecarSet: SidecarSet,
): Promise<Pod[]> {
  // an empty selector injects nothing (./plan/match.ts), so no pod can be matched: no cluster-wide LIST for it
  if (isEmptySelector(sidecarSet.spec.selector)) return [];
  const labelSelector = selectorString(sidecarSet.spec.selector ?? {});
  const nsSelector = effectiveNamespaceSelector(sidecarSet);
  const namespaces: (string | undefined)[] = nsSelector
    ? (
        await listAll(kube, NAMESPACE_RESOURCE, {
          labelSelector: selectorString(nsSelector),
          limit: LIST_PAGE_SIZE,
        })
      ).items
        .map((n) => n.metadata.name ?? '')
        .sort()
    : [undefined];
  const pods: Pod[] = [];
  for (const namespace of namespaces) {
    const listed = await listAll(kube, RESOURCES.pods, {
      ...(namespace !== undefined ? { namespace } : {}),
      labelSelector,
      limit: LIST_PAGE_SIZE,
    });
    pods.push(...listed.items);
  }
  return pods;
}

/**
 * Record `event` on a pod (the hot-upgrade reset's `ResetContainerSucceed` / `ResetContainerFailed`, as upstream's
 * `flipHotUpgradingContainers`). Best effort, never throws; each pod's Event is its own (no de-duplication across
 * pods).
 */
function recordPodEvent(deps: PassDeps, pod: Pod, event: KubeEvent): Promise<void> {
  return recordObjectEvents({ kube: deps.kube, resource: RESOURCES.pods, object: pod, clock: deps.clock }, [
    event,
  ]);
}

/**
 * One pass (see the module doc). A failed pod write stops the round (upstream returns the error and requeues);
 * the next pass starts from what the API server then holds.
 * @throws failed reads (KubeApiError) and non-API errors
 */
export async function runPass(
  deps: PassDeps,
  key: ObjectKey,
  _lease: Lease,
  recordedEvents: Set<string>,
  _scope: ReadScope = 'selected',
  eventCorrelation: { state: EventCorrelationState } = { state: emptyCorrelation() },
): Promise<PassResult> {
  const stored = await deps.kube.get(SIDECARSET_RESOURCE, { name: key.name });
  if (!stored) return { gone: true, writes: 0, acted: false };
  const sidecarSet = stored as unknown as SidecarSet;
  const now = new Date(deps.clock());
  let writes = 0;
  let plan: SidecarSetPlan | undefined;
  const fail = (e: unknown): PassResult => {
    if (classifyWriteError(e) === 'notApi') throw e;
    const error = (e as Error).message;
    deps.log.info('reconciled', { key: objectKeyText(key), writes, error });
    return { gone: false, writes, acted: writes > 0, error, ...(plan ? { plan } : {}) };
  };
  const notPlanned = (e: unknown): PassResult => {
    if (classifyWriteError(e) !== 'notApi') throw e;
    const error = (e as Error).message;
    deps.log.warn('SidecarSet not reconciled', { key: objectKeyText(key), error });
    return { gone: false, writes, acted: false, error };
  };
  let selected: Pod[];
  try {
    selected = await listSelectedPods(deps.kube, sidecarSet);
  } catch (e) {
    return notPlanned(e);
  }
  let latest: LatestRevision;
  try {
    const registered = await registerLatestRevision(
      deps.kube,
      deps.log,
      sidecarSet,
      matchedPods(sidecarSet, selected),
    );
    writes += registered.writes;
    latest = registered.latest;
  } catch (e) {
    return fail(e);
  }
  try {
    plan = planSidecarSet(sidecarSet, selected, now, latest);
  } catch (e) {
    return notPlanned(e);
  }
  if (plan.writeStatus) {
    try {
      await updateSidecarSetStatus(deps.kube, sidecarSet, plan.status);
      writes++;
    } catch (e) {
      return fail(e);
    }
  }
  let podWrites = 0;
  for (const w of plan.writes) {
    try {
      if (w.type === 'SetCondition') await patchUpgradableCondition(deps.kube, w.pod, w.condition);
      else await updatePod(deps.kube, w.next);
      writes++;
      podWrites++;
    } catch (e) {
      // a conflict is retried by the next pass against a fresh read, as upstream's RetryOnConflict does at once:
      // no Warning for it
      if (w.type === 'ResetHotUpgrade' && !isConflict(e))
        await recordPodEvent(deps, w.pod, {
          type: 'Warning',
          reason: 'ResetContainerFailed',
          message: `reset sidecar container image empty failed: ${(e as Error).message}`,
        });
      return fail(e);
    }
    if (w.type === 'ResetHotUpgrade')
      await recordPodEvent(deps, w.pod, {
        type: 'Normal',
        reason: 'ResetContainerSucceed',
        message: 'reset sidecar container image empty successfully',
      });
  }
  if (plan.notUpgradable > 0)
    await recordObjectEvents(
      {
        kube: deps.kube,
        resource: SIDECARSET_RESOURCE,
        object: stored,
        clock: deps.clock,
        recordedEvents,
        eventCorrelation,
      },
      [
        {
          type: 'Normal',
          reason: 'NotUpgradablePods',
          message: `SidecarSet in-place update detected ${plan.notUpgradable} not upgradable pod(s) in this round, will skip them.`,
        },
      ],
    );
  deps.log.info('reconciled', {
    key: objectKeyText(key),
    matched: plan.status.matchedPods,
    updated: plan.status.updatedPods,
    writes,
    idle: plan.idle,
  });
  return { gone: false, writes, acted: podWrites > 0, plan };
}
