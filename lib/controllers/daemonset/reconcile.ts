/**
 * The Advanced DaemonSet controller's side of the reconcile loop: its pass (./pass.ts `runPass`) and read scope, as
 * the kind-neutral loop (lib/reconcile/reconcile.ts) calls them, every API write through the lease guard. As
 * OpenKruise's `ReconcileDaemonSet.Reconcile`.
 */
import type { ReconcileRequest } from '../../requests/index.js';
import {
  reconcileObject,
  type LoopDeps,
  type ReconcileOutcome,
  type Reconciler,
} from '../../reconcile/reconcile.js';
import { guardedReconciler } from '../../reconcile/guardedReconciler.js';
import { RESOURCES } from '../../kube/resources.js';
import { DAEMONSET_RESOURCE } from './api/resource.js';
import { readScopeFor, runPass, type PassDeps, type ReadScope } from './pass.js';
import type { DaemonSetPlan } from './plan/index.js';

/** Everything one DaemonSet invocation needs: its pass's needs plus the loop's. */
export interface DaemonSetReconcileDeps extends LoopDeps, PassDeps {}

/**
 * The DaemonSet pass and read scope, for {@link reconcileObject}; its pods, revisions and Nodes listed from the
 * invocation's floors (docs/architecture.md#list-floors: a Node's change wakes the DaemonSets with its resourceVersion),
 * its revisions' answer reused by the invocation's next passes (docs/architecture.md#reused-lists), and the DaemonSet
 * itself from the invocation's copy of it while no event says it changed (docs/architecture.md#kept-object).
 */
export const DAEMONSET_RECONCILER: Reconciler<DaemonSetReconcileDeps, DaemonSetPlan, ReadScope> =
  guardedReconciler(
    readScopeFor,
    runPass,
    [RESOURCES.pods, RESOURCES.controllerrevisions, RESOURCES.nodes],
    [RESOURCES.controllerrevisions],
    [],
    DAEMONSET_RESOURCE,
  );

/**
 * Reconcile one DaemonSet: {@link reconcileObject} with {@link DAEMONSET_RECONCILER}.
 * @throws what `reconcileObject` throws
 */
export function reconcileDaemonSet(
  deps: DaemonSetReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileOutcome<DaemonSetPlan>> {
  return reconcileObject(deps, DAEMONSET_RECONCILER, request);
}
