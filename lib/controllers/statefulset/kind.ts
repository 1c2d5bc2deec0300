/**
 * The light part of the Advanced StatefulSet registration (lib/controllers/controller.ts `ControllerKind`): its
 * name, kind, resource, watches, CRD file and settings, none of the reconcile code (./index.ts adds the rest).
 * Watches as OpenKruise's `pkg/controller/statefulset/statefulset_controller.go` `add`: For StatefulSet; Owns
 * pods (narrowed to pods carrying `statefulset.kubernetes.io/pod-name`, which every pod it creates has). Upstream's
 * third watch, PVCs with its resize annotation (`pvc_event_handler.go`), serves `volumeClaimUpdateStrategy`'s PVC
 * resize; Kruiseless does not watch PVCs: a plan whose resized claim is still growing looks again after 2 s
 * instead (./plan/resize.ts `claimStillGrowing`).
 */
import { RESOURCES } from '../../kube/resources.js';
import type { ControllerKind } from '../controller.js';
import { LABEL_STATEFULSET_POD_NAME } from './api/keys.js';
import { STATEFULSET_KIND, STATEFULSET_RESOURCE } from './api/resource.js';
import { STATEFULSET_SETTINGS, type StatefulSetSettings } from './settings.js';

/** The Advanced StatefulSet controller's kind, resource, watches, CRD and settings. */
export const statefulSetKind: ControllerKind<StatefulSetSettings> = {
  name: 'statefulset',
  kind: STATEFULSET_KIND,
  resource: STATEFULSET_RESOURCE,
  watches: [
    { type: 'For' },
    { type: 'Owns', resource: RESOURCES.pods, labelSelector: LABEL_STATEFULSET_POD_NAME },
  ],
  crd: 'apps.kruise.io_statefulsets.yaml',
  settings: STATEFULSET_SETTINGS,
};
