/**
 * The light part of the AdvancedCronJob registration (lib/controllers/controller.ts `ControllerKind`): its name,
 * kind, resource, watches, CRD file and settings. Watches as OpenKruise's
 * `pkg/controller/advancedcronjob/advancedcronjob_controller.go` `add` delivers them: For AdvancedCronJob; Owns
 * BroadcastJobs (their stream is the BroadcastJob controller's own). No Job watch: upstream's `watchJob` maps a Job
 * to its controller only when that is a BroadcastJob, so a Job an AdvancedCronJob made never wakes it — the status
 * catches up at the next scheduled time (or any change of the object), and Kruiseless does the same. The wake-up at
 * each scheduled time is the object's own (../../reconcile/reconcile.ts `keyedWakeUp`), so the resync reaches only
 * those whose wake-up may have been missed (./resync.ts).
 */
import type { ControllerKind } from '../controller.js';
import { ACJ_KIND, ACJ_RESOURCE, BROADCASTJOB_CHILD_RESOURCE } from './api/resource.js';
import { advancedCronJobNeedsResync } from './resync.js';
import { ADVANCEDCRONJOB_SETTINGS, type AdvancedCronJobSettings } from './settings.js';

/** The AdvancedCronJob controller's kind, resource, watches, CRD and settings. */
export const advancedCronJobKind: ControllerKind<AdvancedCronJobSettings> = {
  name: 'advancedcronjob',
  kind: ACJ_KIND,
  resource: ACJ_RESOURCE,
  watches: [{ type: 'For' }, { type: 'Owns', resource: BROADCASTJOB_CHILD_RESOURCE }],
  crd: 'apps.kruise.io_advancedcronjobs.yaml',
  settings: ADVANCEDCRONJOB_SETTINGS,
  needsResync: advancedCronJobNeedsResync,
};
