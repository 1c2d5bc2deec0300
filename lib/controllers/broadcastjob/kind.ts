/**
 * The light part of the BroadcastJob registration (lib/controllers/controller.ts `ControllerKind`): its name, kind,
 * resource, watches, CRD file and settings, none of the reconcile code (./index.ts adds the rest). Watches as
 * OpenKruise's `pkg/controller/broadcastjob/broadcastjob_controller.go` `add`: For BroadcastJob; Owns pods
 * (narrowed to pods carrying `broadcastjob-controller-uid`, which every pod it creates has); Nodes mapped to every
 * unfinished BroadcastJob (./nodeWatch.ts).
 */
import { RESOURCES } from '../../kube/resources.js';
import type { ControllerKind } from '../controller.js';
import { LABEL_CONTROLLER_UID } from './api/keys.js';
import { BROADCASTJOB_KIND, BROADCASTJOB_RESOURCE } from './api/resource.js';
import { jobsForNode } from './nodeWatch.js';
import { BROADCASTJOB_SETTINGS, type BroadcastJobSettings } from './settings.js';

/** The BroadcastJob controller's kind, resource, watches, CRD and settings. */
export const broadcastJobKind: ControllerKind<BroadcastJobSettings> = {
  name: 'broadcastjob',
  kind: BROADCASTJOB_KIND,
  resource: BROADCASTJOB_RESOURCE,
  watches: [
    { type: 'For' },
    { type: 'Owns', resource: RESOURCES.pods, labelSelector: LABEL_CONTROLLER_UID },
    { type: 'Map', resource: RESOURCES.nodes, map: jobsForNode },
  ],
  crd: 'apps.kruise.io_broadcastjobs.yaml',
  settings: BROADCASTJOB_SETTINGS,
};
