/**
 * The Advanced StatefulSet controller's registration (OpenKruise's `pkg/controller/statefulset/statefulset_controller.go`
 * `add`): its light part (./kind.ts: resource, watches, CRD, settings), its RBAC rows and its reconcile. The one
 * line that enables it is in lib/controllers/index.ts.
 */
import type { Controller } from '../controller.js';
import {
  STATEFULSET_CONTROLLER_ACCESS,
  STATEFULSET_CONTROLLER_RULES,
  STATEFULSET_DENIED_TO_ALL,
  STATEFULSET_WATCHER_ACCESS,
  STATEFULSET_WATCHER_DENIED,
  STATEFULSET_WATCHER_RULES,
} from './access.js';
import { statefulSetKind } from './kind.js';
import type { StatefulSetPlan } from './plan/index.js';
import { reconcileStatefulSet } from './reconcile.js';
import type { StatefulSetSettings } from './settings.js';

export { STATEFULSET_RECONCILER, reconcileStatefulSet, type StatefulSetReconcileDeps } from './reconcile.js';
export { parseStatefulSetSettings, type StatefulSetSettings } from './settings.js';
export { statefulSetKind } from './kind.js';

/** The Advanced StatefulSet controller: its light part (./kind.ts) with its access rows and reconcile. */
export const statefulSet: Controller<StatefulSetSettings, StatefulSetPlan> = {
  ...statefulSetKind,
  access: {
    controller: STATEFULSET_CONTROLLER_ACCESS,
    watcher: STATEFULSET_WATCHER_ACCESS,
    watcherDenied: STATEFULSET_WATCHER_DENIED,
    deniedToAll: STATEFULSET_DENIED_TO_ALL,
    rules: { controller: STATEFULSET_CONTROLLER_RULES, watcher: STATEFULSET_WATCHER_RULES },
  },
  reconcile: (deps, request, settings) => reconcileStatefulSet({ ...deps, options: settings }, request),
};
