/**
 * The BroadcastJob controller's side of the reconcile loop: its pass (./pass.ts `runPass`) and read scope, as the
 * kind-neutral loop (lib/reconcile/reconcile.ts) calls them, every API write through the lease guard. As
 * OpenKruise's `ReconcileBroadcastJob.Reconcile`.
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
import type { BroadcastJobPlan } from './plan/index.js';

/** Everything one BroadcastJob invocation needs: its pass's needs plus the loop's. */
export interface BroadcastJobReconcileDeps extends LoopDeps, PassDeps {}

/** The BroadcastJob pass and read scope, for {@link reconcileObject}. */
export const BROADCASTJOB_RECONCILER: Reconciler<BroadcastJobReconcileDeps, BroadcastJobPlan, ReadScope> =
  guardedReconciler(readScopeFor, runPass);

/**
 * Reconcile one BroadcastJob: {@link reconcileObject} with {@link BROADCASTJOB_RECONCILER}.
 * @throws what `reconcileObject` throws
 */
export function reconcileBroadcastJob(
  deps: BroadcastJobReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileOutcome<BroadcastJobPlan>> {
  return reconcileObject(deps, BROADCASTJOB_RECONCILER, request);
}
