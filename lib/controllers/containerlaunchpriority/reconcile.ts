/**
 * The container launch priority controller's side of the reconcile loop: its pass (./pass.ts `runPass`) and read
 * scope, as the kind-neutral loop (lib/reconcile/reconcile.ts) calls them, every API write through the lease guard.
 */
import type { ReconcileRequest } from '../../requests/index.js';
import {
  reconcileObject,
  type LoopDeps,
  type ReconcileOutcome,
  type Reconciler,
} from '../../reconcile/reconcile.js';
import { guardedReconciler } from '../../reconcile/guardedReconciler.js';
import type { KubeClient } from '../../kube/types.js';
import type { LaunchStep } from '../../podset/launchPriority.js';
import { readScopeFor, runPass, type PassDeps, type ReadScope } from './pass.js';

/** Everything one launch priority invocation needs: its pass's needs plus the loop's. */
export interface LaunchPriorityReconcileDeps extends LoopDeps, Omit<PassDeps, 'kube'> {
  kube: KubeClient;
}

/** The launch priority pass and read scope, for {@link reconcileObject}. */
export const LAUNCH_PRIORITY_RECONCILER: Reconciler<LaunchPriorityReconcileDeps, LaunchStep, ReadScope> =
  guardedReconciler<LaunchPriorityReconcileDeps, LaunchStep, ReadScope>(readScopeFor, runPass);

/**
 * Reconcile one pod's launch: {@link reconcileObject} with {@link LAUNCH_PRIORITY_RECONCILER}.
 * @throws what `reconcileObject` throws
 */
export function reconcileContainerLaunchPriority(
  deps: LaunchPriorityReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileOutcome<LaunchStep>> {
  return reconcileObject(deps, LAUNCH_PRIORITY_RECONCILER, request);
}
