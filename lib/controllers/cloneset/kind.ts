/**
 * The light part of the CloneSet registration (lib/controllers/controller.ts `ControllerKind`): its name, kind,
 * resource, watches (For CloneSet; Owns pods and PVCs carrying the instance-id label, as OpenKruise's
 * `cloneset_controller.go` `add` watches them), CRD file and settings — everything the watch, resync and admission
 * functions need, none of the reconcile code. ./index.ts adds the rest.
 */
import { LABEL_INSTANCE_ID } from '../../api/keys.js';
import { RESOURCES } from '../../kube/resources.js';
import type { ControllerKind } from '../controller.js';
import { CLONESET_KIND } from './api/kinds.js';
import { CLONESET_RESOURCE } from './api/resource.js';
import { CLONESET_SETTINGS, type CloneSetSettings } from './settings.js';

/** The CloneSet controller's kind, resource, watches, CRD and settings. */
export const cloneSetKind: ControllerKind<CloneSetSettings> = {
  name: 'cloneset',
  kind: CLONESET_KIND,
  resource: CLONESET_RESOURCE,
  watches: [
    { type: 'For' },
    { type: 'Owns', resource: RESOURCES.pods, labelSelector: LABEL_INSTANCE_ID },
    { type: 'Owns', resource: RESOURCES.persistentvolumeclaims, labelSelector: LABEL_INSTANCE_ID },
  ],
  crd: 'apps.kruise.io_clonesets.yaml',
  settings: CLONESET_SETTINGS,
};
