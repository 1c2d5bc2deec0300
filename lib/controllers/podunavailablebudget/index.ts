/**
 * The PodUnavailableBudget controller's registration (OpenKruise's
 * `pkg/controller/podunavailablebudget/podunavailablebudget_controller.go` `Add`): its light part (./kind.ts:
 * resource, watches, CRD, settings), its RBAC rows and its reconcile. The one line that enables it is in
 * lib/controllers/index.ts. Admission (deny a pod deletion, eviction or in-place update that would break the budget,
 * and consume it) is the pod webhook's (./podWebhook.ts).
 */
import type { Controller } from '../controller.js';
import {
  PUB_CONTROLLER_ACCESS,
  PUB_CONTROLLER_RULES,
  PUB_DENIED_TO_ALL,
  PUB_WATCHER_ACCESS,
  PUB_WATCHER_DENIED,
  PUB_WATCHER_RULES,
} from './access.js';
import { podUnavailableBudgetKind } from './kind.js';
import type { PubPlan } from './plan/index.js';
import { reconcilePodUnavailableBudget } from './reconcile.js';
import type { PubSettings } from './settings.js';

export { PUB_RECONCILER, reconcilePodUnavailableBudget, type PubReconcileDeps } from './reconcile.js';
export { podUnavailableBudgetKind, PUB_KIND } from './kind.js';

/** The PodUnavailableBudget controller: its light part (./kind.ts) with its access rows and reconcile. */
export const podUnavailableBudget: Controller<PubSettings, PubPlan> = {
  ...podUnavailableBudgetKind,
  access: {
    controller: PUB_CONTROLLER_ACCESS,
    watcher: PUB_WATCHER_ACCESS,
    watcherDenied: PUB_WATCHER_DENIED,
    deniedToAll: PUB_DENIED_TO_ALL,
    rules: { controller: PUB_CONTROLLER_RULES, watcher: PUB_WATCHER_RULES },
  },
  reconcile: (deps, request, settings) =>
    reconcilePodUnavailableBudget({ ...deps, options: settings }, request),
};
