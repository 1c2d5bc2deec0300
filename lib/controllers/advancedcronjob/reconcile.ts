/**
 * The AdvancedCronJob controller's side of the reconcile loop: its pass (./pass.ts `runPass`) and read scope, as the
 * kind-neutral loop (lib/reconcile/reconcile.ts) calls them, every API write through the lease guard. As
 * OpenKruise's `ReconcileAdvancedCronJob.Reconcile`.
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
import type { AdvancedCronJobPlan, InvalidPlan, UnsupportedPlan } from './plan/index.js';

/** Everything one AdvancedCronJob invocation needs: its pass's needs plus the loop's. */
export interface AdvancedCronJobReconcileDeps extends LoopDeps, PassDeps {}

/** The plan a pass reports. */
export type AcjPassPlan = AdvancedCronJobPlan | UnsupportedPlan | InvalidPlan;

/**
 * The AdvancedCronJob pass and read scope, for {@link reconcileObject}; its wait for the next scheduled time is the
 * object's one wake-up (`keyedWakeUp`: on AWS one EventBridge Scheduler schedule per AdvancedCronJob, moved by each
 * pass and deleted with the object), so between two runs nothing invokes it.
 */
export const ADVANCEDCRONJOB_RECONCILER: Reconciler<AdvancedCronJobReconcileDeps, AcjPassPlan, ReadScope> = {
  ...guardedReconciler(readScopeFor, runPass),
  keyedWakeUp: true,
};

/**
 * Reconcile one AdvancedCronJob: {@link reconcileObject} with {@link ADVANCEDCRONJOB_RECONCILER}.
 * @throws what `reconcileObject` throws
 */
export function reconcileAdvancedCronJob(
  deps: AdvancedCronJobReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileOutcome<AcjPassPlan>> {
  return reconcileObject(deps, ADVANCEDCRONJOB_RECONCILER, request);
}
