/**
 * The SidecarSet controller's registration (OpenKruise's `pkg/controller/sidecarset/sidecarset_controller.go`
 * `add`): its light part (./kind.ts: resource, watches, CRD, settings), its RBAC rows and its reconcile. The one line
 * that enables it is in lib/controllers/index.ts. Injection at pod creation is the pod webhook's (./podWebhook.ts).
 */
import type { Controller } from '../controller.js';
import {
  SIDECARSET_CONTROLLER_ACCESS,
  SIDECARSET_CONTROLLER_RULES,
  SIDECARSET_DENIED_TO_ALL,
  SIDECARSET_WATCHER_ACCESS,
  SIDECARSET_WATCHER_DENIED,
  SIDECARSET_WATCHER_RULES,
} from './access.js';
import { sidecarSetKind } from './kind.js';
import type { SidecarSetPlan } from './plan/index.js';
import { reconcileSidecarSet } from './reconcile.js';
import type { SidecarSetSettings } from './settings.js';

export { SIDECARSET_RECONCILER, reconcileSidecarSet, type SidecarSetReconcileDeps } from './reconcile.js';
export { sidecarSetKind, SIDECARSET_KIND } from './kind.js';

/** The SidecarSet controller: its light part (./kind.ts) with its access rows and reconcile. */
export const sidecarSet: Controller<SidecarSetSettings, SidecarSetPlan> = {
  ...sidecarSetKind,
  access: {
    controller: SIDECARSET_CONTROLLER_ACCESS,
    watcher: SIDECARSET_WATCHER_ACCESS,
    watcherDenied: SIDECARSET_WATCHER_DENIED,
    deniedToAll: SIDECARSET_DENIED_TO_ALL,
    rules: { controller: SIDECARSET_CONTROLLER_RULES, watcher: SIDECARSET_WATCHER_RULES },
  },
  reconcile: (deps, request) => reconcileSidecarSet(deps, request),
};
