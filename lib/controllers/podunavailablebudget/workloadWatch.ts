/**
 * OpenKruise: pkg/controller/podunavailablebudget/pub_pod_event_handler.go `SetEnqueueRequestForPUB` and the workload
 * watches of podunavailablebudget_controller.go `add` (v1.9.0).
 *
 * The PUB controller's workload watches: a CloneSet, Advanced StatefulSet, Deployment or StatefulSet that is created,
 * deleted or whose replicas change names the PUB that covers it — the first of its namespace's PUBs whose targetRef
 * names it, or, for a PUB without targetRef, whose selector matches its pod template's labels — so the budget follows
 * a scale before the pods do (a scale-down's deletes then meet a budget already computed for the new total).
 * Upstream's update predicate compares the old and new `spec.replicas`; a Map watch sees only the new object, so a
 * change names the PUB while `metadata.generation` is ahead of `status.observedGeneration` (any spec change the
 * workload's controller has not yet observed: a superset). A relisted workload names nothing (the resync covers
 * PUBs), so a relist costs no LIST of PUBs per workload.
 */
import type { JsonObject, LabelSelector } from '../../api/types.js';
import type { ObjectRef } from '../../kube/resource.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import { isNotFound } from '../../kube/errors.js';
import type { ChangeType, MapReads, MapWatch } from '../../source/watchSpec.js';
import { workloadChangeConcerns } from '../../source/workloadChange.js';
import { PUB_RESOURCE, PUB_WORKLOAD_RESOURCES, type PubWorkloadKind } from './api/resource.js';
import type { PodUnavailableBudget } from './api/types.js';
import { pubForPod } from './plan/targets.js';

/** The workloads upstream watches for their replicas (its `add`): CloneSet, Advanced StatefulSet, Deployment, StatefulSet. */
export const PUB_WATCHED_WORKLOADS: readonly PubWorkloadKind[] = [
  'Deployment',
  'AdvancedStatefulSet',
  'CloneSet',
  'StatefulSet',
];

/** A workload as the map reads it. */
interface WatchedWorkload {
  metadata?: { name?: string; namespace?: string; generation?: number };
  spec?: { template?: { metadata?: { labels?: Record<string, string> } }; selector?: LabelSelector };
  status?: { observedGeneration?: number };
}

/**
 * The map function of one workload kind's watch.
 * @throws what the LIST of PUBs throws other than NotFound (the pump logs it and leaves the change to the resync)
 */
export function pubsForWorkload(kind: PubWorkloadKind): MapWatch['map'] {
  const r = PUB_WORKLOAD_RESOURCES[kind];
  const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
  return async (obj: JsonObject, reads: MapReads, change: ChangeType): Promise<ObjectRef[]> => {
    const w = obj as WatchedWorkload;
    const namespace = w.metadata?.namespace ?? '';
    const name = w.metadata?.name ?? '';
    if (!namespace || !name || !workloadChangeConcerns(w, change)) return [];
    let pubs: PodUnavailableBudget[];
    try {
      pubs = (await listAll(reads.kube, PUB_RESOURCE, { namespace, limit: LIST_PAGE_SIZE })).items;
    } catch (e) {
      if (isNotFound(e)) return [];
      throw e;
    }
    const labels = w.spec?.template?.metadata?.labels ?? {};
    const pub = pubForPod(pubs, { metadata: { labels } }, { apiVersion, kind: r.kind, name });
    return pub ? [{ namespace, name: pub.metadata.name ?? '' }] : [];
  };
}

/** The four workload watches of the PUB controller. */
export const PUB_WORKLOAD_WATCHES: readonly MapWatch[] = PUB_WATCHED_WORKLOADS.map((k) => ({
  type: 'Map',
  resource: PUB_WORKLOAD_RESOURCES[k],
  map: pubsForWorkload(k),
}));
