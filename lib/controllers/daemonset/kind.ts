/**
 * The light part of the Advanced DaemonSet registration (lib/controllers/controller.ts `ControllerKind`): its name,
 * kind, resource, watches, CRD file and settings, none of the reconcile code (./index.ts adds the rest). Watches as
 * OpenKruise's `pkg/controller/daemonset/daemonset_controller.go` `add`: For DaemonSet; Owns pods (narrowed to pods
 * carrying `controller-revision-hash`, which every pod it creates has); Nodes mapped to every DaemonSet
 * (./nodeWatch.ts).
 */
import { RESOURCES } from '../../kube/resources.js';
import type { ControllerKind } from '../controller.js';
import { LABEL_CONTROLLER_REVISION_HASH } from './api/keys.js';
import { DAEMONSET_KIND, DAEMONSET_RESOURCE } from './api/resource.js';
import { daemonSetsForNode } from './nodeWatch.js';
import { DAEMONSET_SETTINGS, type DaemonSetSettings } from './settings.js';

/** The Advanced DaemonSet controller's kind, resource, watches, CRD and settings. */
export const daemonSetKind: ControllerKind<DaemonSetSettings> = {
  name: 'daemonset',
  kind: DAEMONSET_KIND,
  resource: DAEMONSET_RESOURCE,
  watches: [
    { type: 'For' },
    { type: 'Owns', resource: RESOURCES.pods, labelSelector: LABEL_CONTROLLER_REVISION_HASH },
    { type: 'Map', resource: RESOURCES.nodes, map: daemonSetsForNode },
  ],
  crd: 'apps.kruise.io_daemonsets.yaml',
  settings: DAEMONSET_SETTINGS,
};
