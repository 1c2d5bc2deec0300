/**
 * The CloneSet controller's side of the reconcile loop: its pass (lib/controllers/cloneset/pass.ts `runPass`: read →
 * observe expectations → finish a recorded scale-down, or plan and execute) and read scopes, as the kind-neutral
 * loop (lib/reconcile/reconcile.ts) calls them. As OpenKruise's `ReconcileCloneSet.Reconcile`.
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
import { CLONESET_RESOURCE } from './api/resource.js';
import { readScopeFor, runPass, type PassDeps, type ReadScope } from './pass.js';
import type { Plan } from './plan/index.js';

/** Everything one CloneSet invocation needs: its pass's needs plus the loop's (lease, requeue, time budget). */
export interface ReconcileDeps extends LoopDeps, PassDeps {}

/**
 * The CloneSet pass and read scopes, for {@link reconcileObject}: its pods, PVCs and revisions listed from the
 * invocation's floors (docs/architecture.md#list-floors), its revisions' answer reused by the invocation's next passes
 * (docs/architecture.md#reused-lists), its pods from the invocation's watch from its fourth pass on
 * (docs/architecture.md#watched-lists), and the CloneSet itself from the invocation's copy of it while no event says it
 * changed (docs/architecture.md#kept-object).
 */
export const CLONESET_RECONCILER: Reconciler<ReconcileDeps, Plan, ReadScope> = guardedReconciler(
  readScopeFor,
  runPass,
  [RESOURCES.pods, RESOURCES.persistentvolumeclaims, RESOURCES.controllerrevisions],
  [RESOURCES.controllerrevisions],
  [RESOURCES.pods],
  CLONESET_RESOURCE,
);

/**
 * Reconcile one CloneSet: {@link reconcileObject} with {@link CLONESET_RECONCILER}.
 * @throws what `reconcileObject` throws
 */
export function reconcileCloneSet(
  deps: ReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileOutcome<Plan>> {
  return reconcileObject(deps, CLONESET_RECONCILER, request);
}
