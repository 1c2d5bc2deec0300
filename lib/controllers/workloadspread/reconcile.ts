/**
 * The WorkloadSpread controller's side of the reconcile loop: its pass (./pass.ts `runPass`) and read scope, as the
 * kind-neutral loop (lib/reconcile/reconcile.ts) calls them, every API write through the lease guard. As
 * OpenKruise's `ReconcileWorkloadSpread.Reconcile`.
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
import type { WorkloadSpreadPlan } from './plan/index.js';

/** Everything one WorkloadSpread invocation needs: its pass's needs plus the loop's. */
export interface WorkloadSpreadReconcileDeps extends LoopDeps, PassDeps {}

/** The WorkloadSpread pass and read scope, for {@link reconcileObject}. */
export const WORKLOADSPREAD_RECONCILER: Reconciler<
  WorkloadSpreadReconcileDeps,
  WorkloadSpreadPlan,
  ReadScope
> = guardedReconciler(readScopeFor, runPass);

/**
 * Reconcile one WorkloadSpread: {@link reconcileObject} with {@link WORKLOADSPREAD_RECONCILER}.
 * @throws what `reconcileObject` throws
 */
export function reconcileWorkloadSpread(
  deps: WorkloadSpreadReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileOutcome<WorkloadSpreadPlan>> {
  return reconcileObject(deps, WORKLOADSPREAD_RECONCILER, request);
}
