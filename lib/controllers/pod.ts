/**
 * The pod registration (light part ./podKind.ts): OpenKruise v1.9.0's pod-keyed controllers as ordered pod concerns
 * (./podConcern.ts) under one key kind, `core/Pod` — container launch priority
 * (lib/controllers/containerlaunchpriority), then pod readiness (lib/controllers/podreadiness). One invocation for a
 * pod takes its one lease, reads the pod and runs each concern that selects it, every API write through the lease
 * guard; its access is the concerns' rows together.
 */
import type { KubeClient } from '../kube/types.js';
import { guardedReconciler } from '../reconcile/guardedReconciler.js';
import {
  reconcileObject,
  type LoopDeps,
  type ReconcileOutcome,
  type Reconciler,
} from '../reconcile/reconcile.js';
import type { ReconcileRequest } from '../requests/index.js';
import { LAUNCH_PRIORITY_ACCESS, launchPriorityConcern } from './containerlaunchpriority/index.js';
import type { Controller, ControllerAccess } from './controller.js';
import {
  podConcernsPass,
  podReadScopeFor,
  type PodConcern,
  type PodConcernDeps,
  type PodConcernsPlan,
  type PodReadScope,
} from './podConcern.js';
import { podKind } from './podKind.js';
import { POD_READINESS_ACCESS, podReadinessConcern } from './podreadiness/index.js';
import type { PodReadinessSettings } from './podreadiness/settings.js';

/** The concerns, in the order their work runs on a pod (./podKind.ts `POD_CONCERN_PREDICATES`: their predicates). */
export const POD_CONCERNS: readonly PodConcern[] = [launchPriorityConcern, podReadinessConcern];

/** Everything one invocation of the pod registration needs: its concerns' needs plus the loop's. */
export interface PodReconcileDeps extends LoopDeps, Omit<PodConcernDeps, 'kube'> {
  kube: KubeClient;
}

/**
 * The pod registration's pass over `concerns` and its read scope, for {@link reconcileObject}.
 * @param concerns default {@link POD_CONCERNS}
 */
export function podReconciler(
  concerns: readonly PodConcern[] = POD_CONCERNS,
): Reconciler<PodReconcileDeps, PodConcernsPlan, PodReadScope> {
  return guardedReconciler<PodReconcileDeps, PodConcernsPlan, PodReadScope>(
    podReadScopeFor,
    podConcernsPass(concerns),
  );
}

const POD_RECONCILER = podReconciler();

/**
 * Reconcile one pod: {@link reconcileObject} with the concerns of {@link POD_CONCERNS}.
 * @throws what `reconcileObject` throws
 */
export function reconcilePod(
  deps: PodReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileOutcome<PodConcernsPlan>> {
  return reconcileObject(deps, POD_RECONCILER, request);
}

/** The rows of `parts` together, in order (lib/controllers/access.ts drops the repeats). */
function joinedAccess(parts: readonly ControllerAccess[]): ControllerAccess {
  return {
    controller: parts.flatMap((a) => a.controller),
    watcher: parts.flatMap((a) => a.watcher),
    watcherDenied: parts.flatMap((a) => a.watcherDenied),
    deniedToAll: parts.flatMap((a) => a.deniedToAll),
    rules: {
      controller: parts.flatMap((a) => a.rules.controller),
      watcher: parts.flatMap((a) => a.rules.watcher),
    },
  };
}

/** The pod registration: its light part with its concerns' access rows and its reconcile. */
export const pod: Controller<PodReadinessSettings, PodConcernsPlan> = {
  ...podKind,
  access: joinedAccess([LAUNCH_PRIORITY_ACCESS, POD_READINESS_ACCESS]),
  reconcile: (deps, request) => reconcilePod(deps, request),
};
