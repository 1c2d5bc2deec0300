/**
 * OpenKruise: pkg/controller/workloadspread/workloadspread_event_handler.go `workloadEventHandler` and
 * `getWorkloadSpreadForWorkload` (v1.9.0).
 *
 * The WorkloadSpread controller's workload watches: a CloneSet, Deployment, StatefulSet or Advanced StatefulSet that
 * is created, deleted or whose spec changed (lib/source/workloadChange.ts) names the first WorkloadSpread of its
 * namespace, not being deleted, whose `targetRef` has its group, Kind and name — so the subsets' maximums follow a
 * target created after its WorkloadSpread, or scaled, before any of its pods changes. These streams are the ones the
 * CloneSet and PodUnavailableBudget controllers follow already. Upstream also maps ReplicaSets (to a WorkloadSpread
 * of the ReplicaSet or of its Deployment), Jobs (a parallelism change) and whitelisted custom workloads (a watch
 * per Kind added at start), and a CloneSet's revision change; Kruiseless does not: a Deployment's own change names its WorkloadSpread, and the pods of a new
 * revision or of a Job, placed by the pod webhook, name it by their annotation (./podWatch.ts) as they are created,
 * finish or are deleted. No Job stream is opened for that: a Job's status changes with each of its pods, and batch/v1
 * Jobs have no `observedGeneration` to tell a spec change from them. A Job whose parallelism changes while it has no
 * pod to create or delete (suspended), or a custom workload's replicas change that creates or deletes no pod, is
 * seen by the resync.
 */
import type { JsonObject } from '../../api/types.js';
import { isNotFound } from '../../kube/errors.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import type { ObjectRef } from '../../kube/resource.js';
import type { ChangeType, MapReads, MapWatch } from '../../source/watchSpec.js';
import { workloadChangeConcerns, type GenerationalObject } from '../../source/workloadChange.js';
import {
  groupOf,
  SPREAD_WORKLOAD_RESOURCES,
  WORKLOADSPREAD_RESOURCE,
  type SpreadWorkloadKind,
} from './api/resource.js';
import type { WorkloadSpread } from './api/types.js';

/** The targets whose changes name their WorkloadSpread (see the module doc). */
export const WORKLOADSPREAD_WATCHED_WORKLOADS: readonly SpreadWorkloadKind[] = [
  'CloneSet',
  'Deployment',
  'StatefulSet',
  'AdvancedStatefulSet',
];

/**
 * The WorkloadSpread a workload of `group`/`kind` named `name` is the target of, among `spreads` (upstream's
 * `getWorkloadSpreadForWorkload`: the first not being deleted whose targetRef has that group, Kind and name).
 */
export function workloadSpreadOfTarget(
  spreads: readonly WorkloadSpread[],
  target: { group: string; kind: string; name: string },
): WorkloadSpread | undefined {
  return spreads.find((ws) => {
    const ref = ws.spec?.targetRef;
    return (
      !ws.metadata.deletionTimestamp &&
      ref !== undefined &&
      groupOf(ref.apiVersion) === target.group &&
      ref.kind === target.kind &&
      ref.name === target.name
    );
  });
}

/**
 * The map function of one target kind's watch.
 * @throws what the LIST of WorkloadSpreads throws other than NotFound (the pump logs it and leaves the change to the
 *   resync)
 */
export function workloadSpreadsForWorkload(kind: SpreadWorkloadKind): MapWatch['map'] {
  const r = SPREAD_WORKLOAD_RESOURCES[kind];
  return async (obj: JsonObject, reads: MapReads, change: ChangeType): Promise<ObjectRef[]> => {
    const w = obj as GenerationalObject & { metadata?: { name?: string; namespace?: string } };
    const namespace = w.metadata?.namespace ?? '';
    const name = w.metadata?.name ?? '';
    if (!namespace || !name || !workloadChangeConcerns(w, change)) return [];
    let spreads: WorkloadSpread[];
    try {
      spreads = (await listAll(reads.kube, WORKLOADSPREAD_RESOURCE, { namespace, limit: LIST_PAGE_SIZE }))
        .items;
    } catch (e) {
      if (isNotFound(e)) return [];
      throw e;
    }
    const ws = workloadSpreadOfTarget(spreads, { group: r.group, kind: r.kind, name });
    return ws ? [{ namespace, name: ws.metadata.name ?? '' }] : [];
  };
}

/** The four workload watches of the WorkloadSpread controller. */
export const WORKLOADSPREAD_WORKLOAD_WATCHES: readonly MapWatch[] = WORKLOADSPREAD_WATCHED_WORKLOADS.map(
  (k) => ({ type: 'Map', resource: SPREAD_WORKLOAD_RESOURCES[k], map: workloadSpreadsForWorkload(k) }),
);
