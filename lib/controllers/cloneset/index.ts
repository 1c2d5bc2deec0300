/**
 * The CloneSet controller's registration (OpenKruise's `pkg/controller/cloneset/cloneset_controller.go` `add`):
 * its light part (./kind.ts: resource, watches, CRD, settings), its RBAC rows and its reconcile. The one line that enables it is in lib/controllers/index.ts.
 */
import type { Plan } from './plan/index.js';
import type { Controller } from '../controller.js';
import {
  CLONESET_CONTROLLER_ACCESS,
  CLONESET_CONTROLLER_RULES,
  CLONESET_DENIED_TO_ALL,
  CLONESET_WATCHER_ACCESS,
  CLONESET_WATCHER_DENIED,
  CLONESET_WATCHER_RULES,
} from './access.js';
import { reconcileCloneSet } from './reconcile.js';
import { cloneSetKind } from './kind.js';
import type { CloneSetSettings } from './settings.js';
import type { PassDeps } from './pass.js';

export { CLONESET_RECONCILER, reconcileCloneSet, type ReconcileDeps } from './reconcile.js';
export { parseCloneSetSettings, type CloneSetSettings } from './settings.js';
export { cloneSetKind } from './kind.js';

/**
 * The CloneSet controller with the hooks another controller supplies (the registry, lib/controllers/index.ts, joins
 * them: a controller folder never imports another's).
 * @param hooks `admitPodUpdate`: the PodUnavailableBudget's decision before a pod's update (./pubCheck.ts)
 */
export function cloneSetWith(hooks: Pick<PassDeps, 'admitPodUpdate'>): Controller<CloneSetSettings, Plan> {
  return {
    ...cloneSet,
    reconcile: (deps, request, settings) =>
      reconcileCloneSet({ ...deps, ...hooks, options: settings }, request),
  };
}

/** The CloneSet controller: its light part (./kind.ts) with its access rows and reconcile. */
export const cloneSet: Controller<CloneSetSettings, Plan> = {
  ...cloneSetKind,
  access: {
    controller: CLONESET_CONTROLLER_ACCESS,
    watcher: CLONESET_WATCHER_ACCESS,
    watcherDenied: CLONESET_WATCHER_DENIED,
    deniedToAll: CLONESET_DENIED_TO_ALL,
    rules: { controller: CLONESET_CONTROLLER_RULES, watcher: CLONESET_WATCHER_RULES },
  },
  reconcile: (deps, request, settings) => reconcileCloneSet({ ...deps, options: settings }, request),
};
