/**
 * OpenKruise: pkg/controller/broadcastjob/broadcastjob_event_handler.go `enqueueBroadcastJobForNode`.
 *
 * The BroadcastJob controller's Node watch. Upstream names, on a node's creation, the jobs whose template fits it,
 * on an update the jobs for which the fit changed (comparing the old and new node; heartbeat-only updates ignored),
 * and nothing on a deletion. A Map watch sees only the new object, so Kruiseless asks the cluster instead: an
 * unfinished job is named when its pass would act on this node — it has no pod there and its template, pinned to the
 * node, fits (`nodesToRunPod`'s rest), or its pod there, not terminating, no longer fits (its unfit) — and every
 * unfinished job is named when the node is gone (a superset of upstream's none). A node on which every job is where
 * its fit puts it makes no reconcile, which is what a heartbeat is. Finished jobs (`Always` with a Complete or
 * Failed condition) never act on nodes and are left out.
 */
import type { Node } from '../../api/node.js';
import type { JsonObject, Pod } from '../../api/types.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import type { ObjectRef } from '../../kube/resource.js';
import { whyPodDoesNotFit } from '../../podset/nodeFit.js';
import { controllerRef } from '../../podset/ownership.js';
import { readNodeNow } from '../../source/nodeReads.js';
import type { MapReads } from '../../source/watchSpec.js';
import { withDefaults } from './api/defaults.js';
import { BROADCASTJOB_RESOURCE } from './api/resource.js';
import type { BroadcastJob } from './api/types.js';
import { mockPodSpec } from './plan/nodes.js';
import { isJobFinished } from './plan/plan.js';

/** Whether `job`'s pass would act on `node`, whose bound pods of the job are `pods` (`nodesToRunPod`'s rule). */
function actsOn(job: BroadcastJob, node: Node, pods: readonly Pod[]): boolean {
  const [pod] = pods;
  if (!pod) return !whyPodDoesNotFit(mockPodSpec(job, node.metadata.name ?? ''), node);
  return !pod.metadata.deletionTimestamp && !!whyPodDoesNotFit(pod.spec, node);
}

/**
 * The BroadcastJobs a changed Node concerns (see the module doc). Reads: the cluster's BroadcastJobs (one paged
 * LIST), the node as it is now and the pods bound to it (lib/source/nodeReads.ts).
 * @throws KubeApiError when a read fails (the pump logs it and leaves the change to the resync)
 */
export async function jobsForNode(obj: JsonObject, reads: MapReads): Promise<ObjectRef[]> {
  const name = (obj as unknown as Node).metadata.name ?? '';
  const jobs = (
    await listAll(
      reads.kube,
      BROADCASTJOB_RESOURCE,
      { limit: LIST_PAGE_SIZE },
      (j) => !isJobFinished(withDefaults(j)),
    )
  ).items;
  if (jobs.length === 0) return [];
  const refOf = (j: BroadcastJob): ObjectRef => ({
    namespace: j.metadata.namespace ?? '',
    name: j.metadata.name ?? '',
  });
  const { node, pods } = await readNodeNow(reads, name);
  if (!node || node.metadata.deletionTimestamp) return jobs.map(refOf);
  return jobs
    .filter((j) => {
      const own = pods.filter((p) => controllerRef(p.metadata.ownerReferences)?.uid === j.metadata.uid);
      return actsOn(withDefaults(j), node, own);
    })
    .map(refOf);
}
