/**
 * The Advanced DaemonSet controller's registration (OpenKruise's `pkg/controller/daemonset/daemonset_controller.go`
 * `add`): its light part (./kind.ts: resource, watches, CRD, settings), its RBAC rows and its reconcile. The one line
 * that enables it is in lib/controllers/index.ts.
 */
import type { Controller } from '../controller.js';
import {
  DAEMONSET_CONTROLLER_ACCESS,
  DAEMONSET_CONTROLLER_RULES,
  DAEMONSET_DENIED_TO_ALL,
  DAEMONSET_WATCHER_ACCESS,
  DAEMONSET_WATCHER_DENIED,
  DAEMONSET_WATCHER_RULES,
} from './access.js';
import { daemonSetKind } from './kind.js';
import type { DaemonSetPlan } from './plan/index.js';
import { reconcileDaemonSet } from './reconcile.js';
import type { DaemonSetSettings } from './settings.js';

export { DAEMONSET_RECONCILER, reconcileDaemonSet, type DaemonSetReconcileDeps } from './reconcile.js';
export { daemonSetKind } from './kind.js';

/** The Advanced DaemonSet controller: its light part (./kind.ts) with its access rows and reconcile. */
export const daemonSet: Controller<DaemonSetSettings, DaemonSetPlan> = {
  ...daemonSetKind,
  access: {
    controller: DAEMONSET_CONTROLLER_ACCESS,
    watcher: DAEMONSET_WATCHER_ACCESS,
    watcherDenied: DAEMONSET_WATCHER_DENIED,
    deniedToAll: DAEMONSET_DENIED_TO_ALL,
    rules: { controller: DAEMONSET_CONTROLLER_RULES, watcher: DAEMONSET_WATCHER_RULES },
  },
  reconcile: (deps, request, settings) => reconcileDaemonSet({ ...deps, options: settings }, request),
};
