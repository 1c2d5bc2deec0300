/**
 * OpenKruise: pkg/controller/workloadspread/workloadspread_controller.go `calculateWorkloadSpreadStatus`,
 * `calculateWorkloadSpreadSubsetStatuses`, `calculateWorkloadSpreadSubsetStatus` and `isEmptySubsetStatuses`
 * (v1.9.0).
 *
 * The status the controller writes: `observedGeneration`; `subsetStatuses` from every pod (by subset, against the old
 * `subsetStatuses`' records); `versionedSubsetStatuses` per pod version (against that version's old records), and a
 * version with no pod left kept while its records are pending. Per subset: `replicas` = active pods; `missingReplicas`
 * = maximum (percentages of the workload's replicas rounded up; -1 without a maximum) minus active pods, minus pending
 * creations, plus pending deletions, within [0, maximum]. A `creatingPods` record ends when its pod (by name, or by
 * the annotation's generated uid) is seen, or 30 s after it was written (a `CreatePodFailed` Warning); a
 * `deletingPods` record ends when its pod is no longer active, or 15 s after (a `DeletePodFailed` Warning). Each
 * subset's only condition is the Adaptive strategy's `Schedulable` (./reschedule.ts), computed for the overall and
 * every versioned status against its own old condition; other conditions are dropped, as upstream builds each subset
 * status afresh. The pods to delete come from the overall statuses only.
 */
import { scaledValueFromIntOrPercent } from '../../../api/intOrPercent.js';
import type { Pod } from '../../../api/types.js';
import { isPodActive } from '../../../podset/pods.js';
import { CONDITION_SUBSET_SCHEDULABLE, CREATE_POD_TIMEOUT_MS, DELETE_POD_TIMEOUT_MS } from '../api/keys.js';
import type {
  WorkloadSpread,
  WorkloadSpreadStatus,
  WorkloadSpreadSubset,
  WorkloadSpreadSubsetStatus,
} from '../api/types.js';
import { injectedOf } from './injected.js';
import { planSubsetSchedule, REASON_RECOVER_SCHEDULABLE } from './reschedule.js';
import type { SubsetPods } from './subsetPods.js';

/** An Event the status calculation records on the WorkloadSpread, in upstream's order. */
export type StatusEvent =
  | { type: 'Warning'; reason: 'CreatePodFailed' | 'DeletePodFailed'; message: string }
  | { type: 'Normal'; reason: typeof REASON_RECOVER_SCHEDULABLE; message: string };

/** Pods of one subset the Adaptive strategy deletes (upstream's `scheduleFailedPodMap` entry). */
export interface UnschedulablePods {
  subset: string;
  pods: Pod[];
}

/**
 * The computed status, the Events, the pods to delete (subsets in spec order, only those with pods), and when the
 * earliest pending record, pod timeout or unschedulable mark runs out (ms from now).
 */
export interface StatusPlan {
  status: WorkloadSpreadStatus;
  events: StatusEvent[];
  unschedulable: UnschedulablePods[];
  recheckAfterMs?: number;
}

/** What one subset's calculation collects besides its status. */
interface Collect {
  events: StatusEvent[];
  recheck: number[];
  /** Absent: not collected (versioned statuses). */
  unschedulable?: UnschedulablePods[];
}

/**
 * A subset's maximum against `replicas` (-1: none); undefined for a value that cannot be evaluated or is negative
 * (upstream then gives up the status).
 */
export function subsetMax(subset: WorkloadSpreadSubset, replicas: number): number | undefined {
  if (subset.maxReplicas === undefined) return -1;
  try {
    const v = scaledValueFromIntOrPercent(subset.maxReplicas, replicas, 'up');
    return v < 0 ? undefined : v;
  } catch {
    return undefined;
  }
}

const ms = (t: string) => Date.parse(t);

function subsetStatus(
  ws: WorkloadSpread,
  index: number,
  pods: readonly Pod[],
  old: WorkloadSpreadSubsetStatus | undefined,
  replicas: number,
  now: number,
  collect: Collect,
): WorkloadSpreadSubsetStatus | undefined {
  const namespace = ws.metadata.namespace ?? '';
  const subset = ws.spec.subsets[index];
  const max = subsetMax(subset, replicas);
  if (max === undefined) return undefined;
  let missing = max;
  const creating: Record<string, string> = {};
  const deleting: Record<string, string> = {};
  const oldCreating = new Map(Object.entries(old?.creatingPods ?? {}));
  const oldDeleting = old?.deletingPods ?? {};
  let active = 0;
  for (const pod of pods) {
    const uid = injectedOf(pod)?.uid;
    oldCreating.delete(uid ? uid : (pod.metadata.name ?? ''));
    if (!isPodActive(pod)) continue;
    active++;
    if (missing > 0) missing--;
    const name = pod.metadata.name ?? '';
    const deletedAt = Object.prototype.hasOwnProperty.call(oldDeleting, name) ? oldDeleting[name] : undefined;
    if (deletedAt === undefined) continue;
    const expires = ms(deletedAt) + DELETE_POD_TIMEOUT_MS;
    if (expires < now)
      collect.events.push({
        type: 'Warning',
        reason: 'DeletePodFailed',
        message: `Pod ${namespace}/${name} was expected to be deleted but it wasn't`,
      });
    else {
      deleting[name] = deletedAt;
      if (missing < max) missing++;
      collect.recheck.push(expires - now);
    }
  }
  for (const [id, createdAt] of oldCreating) {
    const expires = ms(createdAt) + CREATE_POD_TIMEOUT_MS;
    if (expires < now)
      collect.events.push({
        type: 'Warning',
        reason: 'CreatePodFailed',
        message: `Pod ${namespace}/${id} was expected to be created but it wasn't`,
      });
    else {
      creating[id] = createdAt;
      if (missing > 0) missing--;
      collect.recheck.push(expires - now);
    }
  }
  const schedule = planSubsetSchedule({
    ws,
    index,
    pods,
    ...(old?.conditions ? { old: old.conditions.find((c) => c.type === CONDITION_SUBSET_SCHEDULABLE) } : {}),
    now,
  });
  if (schedule.recovered)
    collect.events.push({ type: 'Normal', reason: REASON_RECOVER_SCHEDULABLE, message: schedule.recovered });
  collect.recheck.push(...schedule.recheck);
  if (schedule.unschedulablePods.length > 0)
    collect.unschedulable?.push({ subset: subset.name, pods: schedule.unschedulablePods });
  return {
    name: subset.name,
    replicas: active,
    missingReplicas: missing,
    ...(schedule.condition ? { conditions: [schedule.condition] } : {}),
    ...(Object.keys(creating).length > 0 ? { creatingPods: creating } : {}),
    ...(Object.keys(deleting).length > 0 ? { deletingPods: deleting } : {}),
  };
}

function subsetStatuses(
  ws: WorkloadSpread,
  old: readonly WorkloadSpreadSubsetStatus[] | undefined,
  podMap: SubsetPods | undefined,
  replicas: number,
  now: number,
  collect: Collect,
): WorkloadSpreadSubsetStatus[] | undefined {
  const out: WorkloadSpreadSubsetStatus[] = [];
  for (const [index, subset] of ws.spec.subsets.entries()) {
    const s = subsetStatus(
      ws,
      index,
      podMap?.get(subset.name) ?? [],
      old?.find((o) => o.name === subset.name),
      replicas,
      now,
      collect,
    );
    if (!s) return undefined;
    out.push(s);
  }
  return out;
}

function isEmpty(statuses: readonly WorkloadSpreadSubsetStatus[]): boolean {
  return statuses.every(
    (s) =>
      s.replicas === 0 &&
      Object.keys(s.creatingPods ?? {}).length === 0 &&
      Object.keys(s.deletingPods ?? {}).length === 0,
  );
}

/**
 * The status (see the module doc).
 * @param all the target's pods by subset
 * @param byVersion the same pods by version, then subset
 * @param replicas the target's replicas
 * @param now the time, ms since the epoch
 */
export function planStatus(
  ws: WorkloadSpread,
  all: SubsetPods,
  byVersion: ReadonlyMap<string, SubsetPods>,
  replicas: number,
  now: number,
): StatusPlan {
  const unschedulable: UnschedulablePods[] = [];
  const collect: Collect = { events: [], recheck: [], unschedulable };
  const versionCollect: Collect = { events: collect.events, recheck: collect.recheck };
  const old = ws.status ?? {};
  const status: WorkloadSpreadStatus = {
    ...(ws.metadata.generation ? { observedGeneration: ws.metadata.generation } : {}),
  };
  const overall = subsetStatuses(ws, old.subsetStatuses, all, replicas, now, collect);
  if (overall && overall.length > 0) status.subsetStatuses = overall;
  const versioned: Record<string, WorkloadSpreadSubsetStatus[]> = {};
  const oldVersioned = old.versionedSubsetStatuses ?? {};
  for (const [version, podMap] of byVersion) {
    const s = subsetStatuses(ws, oldVersioned[version], podMap, replicas, now, versionCollect);
    if (s && s.length > 0) versioned[version] = s;
  }
  for (const version of Object.keys(oldVersioned)) {
    if (byVersion.has(version)) continue;
    const s = subsetStatuses(ws, oldVersioned[version], undefined, replicas, now, versionCollect);
    if (s && !isEmpty(s)) versioned[version] = s;
  }
  if (Object.keys(versioned).length > 0) status.versionedSubsetStatuses = versioned;
  return {
    status,
    events: collect.events,
    unschedulable: overall ? unschedulable : [],
    ...(collect.recheck.length > 0 ? { recheckAfterMs: Math.min(...collect.recheck) } : {}),
  };
}
