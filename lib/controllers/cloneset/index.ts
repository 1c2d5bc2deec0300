/**
 * The CloneSet controller's registration (OpenKruise's `pkg/controller/cloneset/cloneset_controller.go` `add`):
 * its resource, its watches (For CloneSet; Owns pods and PVCs carrying the instance-id label), its RBAC rows, its
 * settings and its reconcile. The one line that enables it is in lib/controllers/index.ts.
 */
import { CLONESET_KIND } from './api/kinds.js';
import { LABEL_INSTANCE_ID } from '../../api/keys.js';
import { RESOURCES } from '../../kube/resources.js';
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
import { CLONESET_SETTINGS, type CloneSetSettings } from './settings.js';
import { CLONESET_RESOURCE } from './api/resource.js';

export { CLONESET_RECONCILER, reconcileCloneSet, type ReconcileDeps } from './reconcile.js';
export { parseCloneSetSettings, type CloneSetSettings } from './settings.js';

/** The CloneSet controller. */
export const cloneSet: Controller<CloneSetSettings, Plan> = {
  name: 'cloneset',
  kind: CLONESET_KIND,
  resource: CLONESET_RESOURCE,
  watches: [
    { type: 'For' },
    { type: 'Owns', resource: RESOURCES.pods, labelSelector: LABEL_INSTANCE_ID },
    { type: 'Owns', resource: RESOURCES.persistentvolumeclaims, labelSelector: LABEL_INSTANCE_ID },
  ],
  crd: 'apps.kruise.io_clonesets.yaml',
  access: {
    controller: CLONESET_CONTROLLER_ACCESS,
    watcher: CLONESET_WATCHER_ACCESS,
    watcherDenied: CLONESET_WATCHER_DENIED,
    deniedToAll: CLONESET_DENIED_TO_ALL,
    rules: { controller: CLONESET_CONTROLLER_RULES, watcher: CLONESET_WATCHER_RULES },
  },
  settings: CLONESET_SETTINGS,
  reconcile: (deps, request, settings) => reconcileCloneSet({ ...deps, options: settings }, request),
};
