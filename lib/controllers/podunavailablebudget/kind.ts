/**
 * The light part of the PodUnavailableBudget registration (lib/controllers/controller.ts `ControllerKind`): its name,
 * kind, resource, watches, CRD file and settings, none of the reconcile code (./index.ts adds the rest). Watches as
 * OpenKruise's `pkg/controller/podunavailablebudget/podunavailablebudget_controller.go` `add`: For PUB; pods mapped
 * to the PUB that covers them (./podWatch.ts; no label selector, so it shares the SidecarSet controller's stream of
 * every pod); a CloneSet, Advanced StatefulSet, Deployment or StatefulSet created, deleted or scaled mapped to the PUB
 * that covers it (./workloadWatch.ts).
 */
import { RESOURCES } from '../../kube/resources.js';
import type { ControllerKind } from '../controller.js';
import { PUB_KIND, PUB_RESOURCE } from './api/resource.js';
import { pubsForPod } from './podWatch.js';
import { PUB_WORKLOAD_WATCHES } from './workloadWatch.js';
import { PUB_SETTINGS, type PubSettings } from './settings.js';

export { PUB_KIND } from './api/resource.js';

/** The PodUnavailableBudget controller's kind, resource, watches, CRD and settings. */
export const podUnavailableBudgetKind: ControllerKind<PubSettings> = {
  name: 'podunavailablebudget',
  kind: PUB_KIND,
  resource: PUB_RESOURCE,
  watches: [
    { type: 'For' },
    { type: 'Map', resource: RESOURCES.pods, map: pubsForPod },
    ...PUB_WORKLOAD_WATCHES,
  ],
  crd: 'policy.kruise.io_podunavailablebudgets.yaml',
  settings: PUB_SETTINGS,
};
