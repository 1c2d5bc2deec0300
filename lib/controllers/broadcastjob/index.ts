/**
 * The BroadcastJob controller's registration (OpenKruise's `pkg/controller/broadcastjob/broadcastjob_controller.go`
 * `add`): its light part (./kind.ts: resource, watches, CRD, settings), its RBAC rows and its reconcile. The one line
 * that enables it is in lib/controllers/index.ts.
 */
import type { Controller } from '../controller.js';
import {
  BROADCASTJOB_CONTROLLER_ACCESS,
  BROADCASTJOB_CONTROLLER_RULES,
  BROADCASTJOB_DENIED_TO_ALL,
  BROADCASTJOB_WATCHER_ACCESS,
  BROADCASTJOB_WATCHER_DENIED,
  BROADCASTJOB_WATCHER_RULES,
} from './access.js';
import { broadcastJobKind } from './kind.js';
import type { BroadcastJobPlan } from './plan/index.js';
import { reconcileBroadcastJob } from './reconcile.js';
import type { BroadcastJobSettings } from './settings.js';

export {
  BROADCASTJOB_RECONCILER,
  reconcileBroadcastJob,
  type BroadcastJobReconcileDeps,
} from './reconcile.js';
export { broadcastJobKind } from './kind.js';

/** The BroadcastJob controller: its light part (./kind.ts) with its access rows and reconcile. */
export const broadcastJob: Controller<BroadcastJobSettings, BroadcastJobPlan> = {
  ...broadcastJobKind,
  access: {
    controller: BROADCASTJOB_CONTROLLER_ACCESS,
    watcher: BROADCASTJOB_WATCHER_ACCESS,
    watcherDenied: BROADCASTJOB_WATCHER_DENIED,
    deniedToAll: BROADCASTJOB_DENIED_TO_ALL,
    rules: { controller: BROADCASTJOB_CONTROLLER_RULES, watcher: BROADCASTJOB_WATCHER_RULES },
  },
  reconcile: (deps, request, settings) => reconcileBroadcastJob({ ...deps, options: settings }, request),
};
