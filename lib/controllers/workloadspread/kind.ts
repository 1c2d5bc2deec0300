/**
 * The light part of the WorkloadSpread registration (lib/controllers/controller.ts `ControllerKind`): its name, kind,
 * resource, watches, CRD file and settings, none of the reconcile code (./index.ts adds the rest). Watches as
 * OpenKruise's `pkg/controller/workloadspread/workloadspread_controller.go` `add`: For WorkloadSpread; pods mapped by
 * their matched-workloadspread annotation (./podWatch.ts; no label selector, so it shares the SidecarSet controller's
 * stream of every pod). Upstream also maps a target's replicas or revision change (CloneSet, Deployment, ReplicaSet,
 * Job, custom workloads) to its WorkloadSpread; Kruiseless does not: a scale creates or deletes pods, whose events
 * and the resync reach the WorkloadSpread, without a LIST of WorkloadSpreads per workload event.
 */
import { RESOURCES } from '../../kube/resources.js';
import type { ControllerKind } from '../controller.js';
import { WORKLOADSPREAD_KIND, WORKLOADSPREAD_RESOURCE } from './api/resource.js';
import { workloadSpreadsForPod } from './podWatch.js';
import { WORKLOADSPREAD_SETTINGS, type WorkloadSpreadSettings } from './settings.js';

export { WORKLOADSPREAD_KIND } from './api/resource.js';

/** The WorkloadSpread controller's kind, resource, watches, CRD and settings. */
export const workloadSpreadKind: ControllerKind<WorkloadSpreadSettings> = {
  name: 'workloadspread',
  kind: WORKLOADSPREAD_KIND,
  resource: WORKLOADSPREAD_RESOURCE,
  watches: [{ type: 'For' }, { type: 'Map', resource: RESOURCES.pods, map: workloadSpreadsForPod }],
  crd: 'apps.kruise.io_workloadspreads.yaml',
  settings: WORKLOADSPREAD_SETTINGS,
};
