/**
 * The container launch priority controller's registration (OpenKruise v1.9.0's
 * `pkg/controller/containerlaunchpriority` `Add`): its light part (./kind.ts: pods, the For watch with its predicate),
 * its RBAC rows and its reconcile. The pod webhook step that asks for an order is ./podWebhook.ts; the rules both
 * share are lib/podset/launchPriority.ts.
 */
import type { LaunchStep } from '../../podset/launchPriority.js';
import type { Controller } from '../controller.js';
import {
  LAUNCH_PRIORITY_CONTROLLER_ACCESS,
  LAUNCH_PRIORITY_CONTROLLER_RULES,
  LAUNCH_PRIORITY_DENIED_TO_ALL,
  LAUNCH_PRIORITY_WATCHER_ACCESS,
  LAUNCH_PRIORITY_WATCHER_DENIED,
  LAUNCH_PRIORITY_WATCHER_RULES,
} from './access.js';
import { containerLaunchPriorityKind } from './kind.js';
import { reconcileContainerLaunchPriority } from './reconcile.js';
import type { LaunchPrioritySettings } from './settings.js';

export { containerLaunchPriorityKind, LAUNCH_PRIORITY_KIND } from './kind.js';
export { reconcileContainerLaunchPriority, LAUNCH_PRIORITY_RECONCILER } from './reconcile.js';

/** The container launch priority controller: its light part with its access rows and reconcile. */
export const containerLaunchPriority: Controller<LaunchPrioritySettings, LaunchStep> = {
  ...containerLaunchPriorityKind,
  access: {
    controller: LAUNCH_PRIORITY_CONTROLLER_ACCESS,
    watcher: LAUNCH_PRIORITY_WATCHER_ACCESS,
    watcherDenied: LAUNCH_PRIORITY_WATCHER_DENIED,
    deniedToAll: LAUNCH_PRIORITY_DENIED_TO_ALL,
    rules: { controller: LAUNCH_PRIORITY_CONTROLLER_RULES, watcher: LAUNCH_PRIORITY_WATCHER_RULES },
  },
  reconcile: (deps, request) => reconcileContainerLaunchPriority(deps, request),
};
