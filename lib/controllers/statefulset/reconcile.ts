/**
 * The Advanced StatefulSet controller's side of the reconcile loop: its pass (./pass.ts `runPass`) and read scopes,
 * as the kind-neutral loop (lib/reconcile/reconcile.ts) calls them. As OpenKruise's `ReconcileStatefulSet.Reconcile`.
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
import { STATEFULSET_RESOURCE } from './api/resource.js';
import { readScopeFor, runPass, type PassDeps, type ReadScope } from './pass.js';
import type { StatefulSetPlan } from './plan/index.js';

/** Everything one Advanced StatefulSet invocation needs: its pass's needs plus the loop's. */
export interface StatefulSetReconcileDeps extends LoopDeps, PassDeps {}

/**
 * The Advanced StatefulSet pass and read scopes, for {@link reconcileObject}: its pods, PVCs and revisions listed from
 * the invocation's floors (docs/architecture.md#list-floors), its revisions' answer reused by the invocation's next
 * passes (docs/architecture.md#reused-lists), its pods from the invocation's watch from its fourth pass on
 * (docs/architecture.md#watched-lists), and the set itself from the invocation's copy of it while no event says it
 * changed (docs/architecture.md#kept-object).
 */
export const STATEFULSET_RECONCILER: Reconciler<StatefulSetReconcileDeps, StatefulSetPlan, ReadScope> =
  guardedReconciler(
    readScopeFor,
    runPass,
    [RESOURCES.pods, RESOURCES.persistentvolumeclaims, RESOURCES.controllerrevisions],
    [RESOURCES.controllerrevisions],
    [RESOURCES.pods],
    STATEFULSET_RESOURCE,
  );

/**
 * Reconcile one Advanced StatefulSet: {@link reconcileObject} with {@link STATEFULSET_RECONCILER}.
 * @throws what `reconcileObject` throws
 */
export function reconcileStatefulSet(
  deps: StatefulSetReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileOutcome<StatefulSetPlan>> {
  return reconcileObject(deps, STATEFULSET_RECONCILER, request);
}
