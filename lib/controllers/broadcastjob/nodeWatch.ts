/**
 * OpenKruise: pkg/controller/broadcastjob/broadcastjob_event_handler.go `enqueueBroadcastJobForNode`.
 *
 * The BroadcastJob controller's Node watch: a changed Node names every BroadcastJob of the cluster that has not
 * finished. Upstream names, on a node's creation, the jobs whose template fits it, and on an update the jobs for
 * which the fit changed (comparing the old and new node, updates of heartbeat conditions ignored); a Map watch sees
 * only the new object, so Kruiseless names every unfinished job — a superset, whose extra passes find nothing to do
 * (a node that stopped fitting must reach the job too, so "fits now" alone would miss a pod to delete). Finished
 * jobs (`Always` with a Complete or Failed condition) never act on nodes and are left out. Node deletions change
 * nothing upstream either.
 */
import type { JsonObject } from '../../api/types.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import type { ObjectRef } from '../../kube/resource.js';
import type { MapReads } from '../../source/watchSpec.js';
import { withDefaults } from './api/defaults.js';
import { BROADCASTJOB_RESOURCE } from './api/resource.js';
import { isJobFinished } from './plan/plan.js';

/**
 * The BroadcastJobs a changed Node concerns: every unfinished one in the cluster (one paged LIST).
 * @throws KubeApiError when the list fails (the pump logs it and leaves the change to the resync)
 */
export async function jobsForNode(_node: JsonObject, reads: MapReads): Promise<ObjectRef[]> {
  const jobs = await listAll(
    reads.kube,
    BROADCASTJOB_RESOURCE,
    { limit: LIST_PAGE_SIZE },
    (j) => !isJobFinished(withDefaults(j)),
  );
  return jobs.items.map((j) => ({ namespace: j.metadata.namespace ?? '', name: j.metadata.name ?? '' }));
}
