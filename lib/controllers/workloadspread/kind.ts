/**
 * The light part of the WorkloadSpread registration (lib/controllers/controller.ts `ControllerKind`): its name, kind,
 * resource, watches, CRD file and settings, none of the reconcile code (./index.ts adds the rest). Watches as
 * OpenKruise's `pkg/controller/workloadspread/workloadspread_controller.go` `add`: For WorkloadSpread; pods mapped by
 * their matched-workloadspread annotation (./podWatch.ts; no label selector, so it shares the SidecarSet controller's
 * stream of every pod); a CloneSet, Deployment, StatefulSet or Advanced StatefulSet created, deleted or whose spec
 * changed mapped to the WorkloadSpread that targets it (./workloadWatch.ts, on the streams the CloneSet and
 * PodUnavailableBudget controllers follow already).
 */
import { RESOURCES } from '../../kube/resources.js';
import type { ControllerKind } from '../controller.js';
import { WORKLOADSPREAD_KIND, WORKLOADSPREAD_RESOURCE } from './api/resource.js';
import { workloadSpreadsForPod } from './podWatch.js';
import { WORKLOADSPREAD_WORKLOAD_WATCHES } from './workloadWatch.js';
import { WORKLOADSPREAD_SETTINGS, type WorkloadSpreadSettings } from './settings.js';

export { WORKLOADSPREAD_KIND } from './api/resource.js';

/** The WorkloadSpread controller's kind, resource, watches, CRD and settings. */
export const workloadSpreadKind: ControllerKind<WorkloadSpreadSettings> = {
  name: 'workloadspread',
  kind: WORKLOADSPREAD_KIND,
  resource: WORKLOADSPREAD_RESOURCE,
  watches: [
    { type: 'For' },
    { type: 'Map', resource: RESOURCES.pods, map: workloadSpreadsForPod },
    ...WORKLOADSPREAD_WORKLOAD_WATCHES,
  ],
  crd: 'apps.kruise.io_workloadspreads.yaml',
  settings: WORKLOADSPREAD_SETTINGS,
};
