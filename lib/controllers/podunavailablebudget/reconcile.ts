/**
 * The PodUnavailableBudget controller's side of the reconcile loop: its pass (./pass.ts `runPass`) and read scope,
 * as the kind-neutral loop (lib/reconcile/reconcile.ts) calls them, every API write through the lease guard. As
 * OpenKruise's `ReconcilePodUnavailableBudget.Reconcile`.
 */
import type { ReconcileRequest } from '../../requests/index.js';
import {
  reconcileObject,
  type LoopDeps,
  type ReconcileOutcome,
  type Reconciler,
} from '../../reconcile/reconcile.js';
import { guardedReconciler } from '../../reconcile/guardedReconciler.js';
import { readScopeFor, runPass, type PassDeps, type ReadScope } from './pass.js';
import type { PubPlan } from './plan/index.js';

/** Everything one PodUnavailableBudget invocation needs: its pass's needs plus the loop's. */
export interface PubReconcileDeps extends LoopDeps, PassDeps {}

/** The PodUnavailableBudget pass and read scope, for {@link reconcileObject}. */
export const PUB_RECONCILER: Reconciler<PubReconcileDeps, PubPlan, ReadScope> = guardedReconciler(
  readScopeFor,
  runPass,
);

/**
 * Reconcile one PodUnavailableBudget: {@link reconcileObject} with {@link PUB_RECONCILER}.
 * @throws what `reconcileObject` throws
 */
export function reconcilePodUnavailableBudget(
  deps: PubReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileOutcome<PubPlan>> {
  return reconcileObject(deps, PUB_RECONCILER, request);
}
