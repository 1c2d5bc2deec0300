/**
 * The AdvancedCronJob controller's registration (OpenKruise's
 * `pkg/controller/advancedcronjob/advancedcronjob_controller.go` `Add`): its light part (./kind.ts: resource,
 * watches, CRD, settings), its RBAC rows and its reconcile. The one line that enables it is in
 * lib/controllers/index.ts.
 */
import type { Controller } from '../controller.js';
import {
  ADVANCEDCRONJOB_CONTROLLER_ACCESS,
  ADVANCEDCRONJOB_CONTROLLER_RULES,
  ADVANCEDCRONJOB_DENIED_TO_ALL,
  ADVANCEDCRONJOB_WATCHER_ACCESS,
  ADVANCEDCRONJOB_WATCHER_DENIED,
  ADVANCEDCRONJOB_WATCHER_RULES,
} from './access.js';
import { advancedCronJobKind } from './kind.js';
import { reconcileAdvancedCronJob, type AcjPassPlan } from './reconcile.js';
import type { AdvancedCronJobSettings } from './settings.js';

export {
  ADVANCEDCRONJOB_RECONCILER,
  reconcileAdvancedCronJob,
  type AdvancedCronJobReconcileDeps,
} from './reconcile.js';
export { advancedCronJobKind } from './kind.js';

/** The AdvancedCronJob controller: its light part (./kind.ts) with its access rows and reconcile. */
export const advancedCronJob: Controller<AdvancedCronJobSettings, AcjPassPlan> = {
  ...advancedCronJobKind,
  access: {
    controller: ADVANCEDCRONJOB_CONTROLLER_ACCESS,
    watcher: ADVANCEDCRONJOB_WATCHER_ACCESS,
    watcherDenied: ADVANCEDCRONJOB_WATCHER_DENIED,
    deniedToAll: ADVANCEDCRONJOB_DENIED_TO_ALL,
    rules: { controller: ADVANCEDCRONJOB_CONTROLLER_RULES, watcher: ADVANCEDCRONJOB_WATCHER_RULES },
  },
  reconcile: (deps, request, settings) => reconcileAdvancedCronJob({ ...deps, options: settings }, request),
};
