/**
 * The resources the AdvancedCronJob controller addresses (lib/kube/resource.ts): its own, `apps.kruise.io/v1beta1`
 * advancedcronjobs (namespaced, status subresource; v1beta1 is the storage version of
 * infra/crds/apps.kruise.io_advancedcronjobs.yaml), and its children's: batch/v1 Jobs and `apps.kruise.io/v1beta1`
 * BroadcastJobs. The BroadcastJob resource is declared again here rather than imported: no controller folder
 * imports another's (docs/architecture.md#layers).
 */
import { GROUP } from '../../../api/keys.js';
import type { Resource } from '../../../kube/resource.js';
import type { AdvancedCronJob, CronChild } from './types.js';

/** The Kind of an AdvancedCronJob. */
export const ACJ_KIND_NAME = 'AdvancedCronJob';

/** `apps.kruise.io/v1beta1`: the apiVersion the controller reads, and its children's owner references name. */
export const ACJ_API_VERSION = `${GROUP}/v1beta1`;

/** `apps.kruise.io/AdvancedCronJob`: the kind of an AdvancedCronJob's `ObjectKey` and reconcile requests. */
export const ACJ_KIND = `${GROUP}/${ACJ_KIND_NAME}`;

/** OpenKruise AdvancedCronJobs, v1beta1. */
export const ACJ_RESOURCE = {
  group: GROUP,
  version: 'v1beta1',
  plural: 'advancedcronjobs',
  namespaced: true,
  kind: ACJ_KIND_NAME,
} as Resource<AdvancedCronJob>;

/** batch/v1 Jobs (run by kube-controller-manager's Job controller). */
export const JOB_RESOURCE = {
  group: 'batch',
  version: 'v1',
  plural: 'jobs',
  namespaced: true,
  kind: 'Job',
} as Resource<CronChild>;

/** `apps.kruise.io/v1beta1` BroadcastJobs (run by Kruiseless's BroadcastJob controller). */
export const BROADCASTJOB_CHILD_RESOURCE = {
  group: GROUP,
  version: 'v1beta1',
  plural: 'broadcastjobs',
  namespaced: true,
  kind: 'BroadcastJob',
} as Resource<CronChild>;
