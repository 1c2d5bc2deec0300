/**
 * The WorkloadSpread controller's registration (OpenKruise's
 * `pkg/controller/workloadspread/workloadspread_controller.go` `Add`): its light part (./kind.ts: resource, watches,
 * CRD, settings), its RBAC rows and its reconcile. The one line that enables it is in lib/controllers/index.ts.
 * Placing pods in subsets at creation is the pod webhook's step (./podWebhook.ts).
 */
import type { Controller } from '../controller.js';
import {
  WORKLOADSPREAD_CONTROLLER_ACCESS,
  WORKLOADSPREAD_CONTROLLER_RULES,
  WORKLOADSPREAD_DENIED_TO_ALL,
  WORKLOADSPREAD_WATCHER_ACCESS,
  WORKLOADSPREAD_WATCHER_DENIED,
  WORKLOADSPREAD_WATCHER_RULES,
} from './access.js';
import { workloadSpreadKind } from './kind.js';
import type { WorkloadSpreadPlan } from './plan/index.js';
import { reconcileWorkloadSpread } from './reconcile.js';
import type { WorkloadSpreadSettings } from './settings.js';

export {
  WORKLOADSPREAD_RECONCILER,
  reconcileWorkloadSpread,
  type WorkloadSpreadReconcileDeps,
} from './reconcile.js';
export { workloadSpreadKind, WORKLOADSPREAD_KIND } from './kind.js';

/** The WorkloadSpread controller: its light part (./kind.ts) with its access rows and reconcile. */
export const workloadSpread: Controller<WorkloadSpreadSettings, WorkloadSpreadPlan> = {
  ...workloadSpreadKind,
  access: {
    controller: WORKLOADSPREAD_CONTROLLER_ACCESS,
    watcher: WORKLOADSPREAD_WATCHER_ACCESS,
    watcherDenied: WORKLOADSPREAD_WATCHER_DENIED,
    deniedToAll: WORKLOADSPREAD_DENIED_TO_ALL,
    rules: { controller: WORKLOADSPREAD_CONTROLLER_RULES, watcher: WORKLOADSPREAD_WATCHER_RULES },
  },
  reconcile: (deps, request, settings) => reconcileWorkloadSpread({ ...deps, options: settings }, request),
};
