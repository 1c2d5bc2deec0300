/**
 * The SidecarSet controller's side of the reconcile loop: its pass (./pass.ts `runPass`) and read scope, as the
 * kind-neutral loop (lib/reconcile/reconcile.ts) calls them, every API write through the lease guard. As
 * OpenKruise's `ReconcileSidecarSet.Reconcile`.
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
import type { SidecarSetPlan } from './plan/index.js';

/** Everything one SidecarSet invocation needs: its pass's needs plus the loop's. */
export interface SidecarSetReconcileDeps extends LoopDeps, PassDeps {}

/** The SidecarSet pass and read scope, for {@link reconcileObject}. */
export const SIDECARSET_RECONCILER: Reconciler<SidecarSetReconcileDeps, SidecarSetPlan, ReadScope> =
  guardedReconciler(readScopeFor, runPass);

/**
 * Reconcile one SidecarSet: {@link reconcileObject} with {@link SIDECARSET_RECONCILER}.
 * @throws what `reconcileObject` throws
 */
export function reconcileSidecarSet(
  deps: SidecarSetReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileOutcome<SidecarSetPlan>> {
  return reconcileObject(deps, SIDECARSET_RECONCILER, request);
}
