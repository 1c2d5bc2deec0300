/**
 * The light part of the SidecarSet registration (lib/controllers/controller.ts `ControllerKind`): its name, kind,
 * resource, watches, CRD file and settings, none of the reconcile code (./index.ts adds the rest). Watches as
 * OpenKruise's `pkg/controller/sidecarset/sidecarset_controller.go` `add`: For SidecarSet (cluster-scoped: its keys
 * and requests carry no namespace), an update only when its spec changed (its own status writes wake no pass); pods mapped to the SidecarSets their injected-list annotation names
 * (./podWatch.ts). That pod watch has no label selector (injection marks pods with an annotation only), so it is
 * its own stream of every pod in the cluster.
 */
import { RESOURCES } from '../../kube/resources.js';
import { generationNotObserved } from '../../source/generationChanged.js';
import type { ControllerKind } from '../controller.js';
import { SIDECARSET_RESOURCE } from './api/resource.js';
import { sidecarSetsForPod } from './podWatch.js';
import { SIDECARSET_SETTINGS, type SidecarSetSettings } from './settings.js';

/** `<group>/<Kind>` of SidecarSets: their keys' and requests' kind. */
export const SIDECARSET_KIND = 'apps.kruise.io/SidecarSet';

/** The SidecarSet controller's kind, resource, watches, CRD and settings. */
export const sidecarSetKind: ControllerKind<SidecarSetSettings> = {
  name: 'sidecarset',
  kind: SIDECARSET_KIND,
  resource: SIDECARSET_RESOURCE,
  watches: [
    { type: 'For', updates: generationNotObserved },
    { type: 'Map', resource: RESOURCES.pods, map: sidecarSetsForPod },
  ],
  crd: 'apps.kruise.io_sidecarsets.yaml',
  settings: SIDECARSET_SETTINGS,
};
