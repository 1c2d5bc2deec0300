/**
 * What the randomized fault test checks (docs/reliability.md#randomized-fault-test), written independently of
 * the planner: the strategy numbers are resolved here from the stored spec with OpenKruise's rounding, and a
 * pod's availability is the simulated kubelet's truth, not the Ready condition the controller last saw.
 * Test-only.
 */
import {
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_LIFECYCLE_STATE,
  LABEL_SPECIFIED_DELETE,
} from '../../../../../../lib/api/keys.js';
import type { CloneSet, IntOrString, Pod } from '../../../../../../lib/api/types.js';

/** `value` of `replicas` as a pod count: ints as they are, percents rounded up or down (OpenKruise's rounding). */
function scaled(value: IntOrString | undefined, replicas: number, up: boolean, otherwise: number): number {
  if (value === undefined) return otherwise;
  if (typeof value === 'number') return value;
  const exact = (Number(value.slice(0, -1)) * replicas) / 100;
  return up ? Math.ceil(exact) : Math.floor(exact);
}

/** The bounds of the rolling update, as pod counts. */
export interface Bounds {
  replicas: number;
  /** `maxSurge`, rounded up (0 when unset). */
  maxSurge: number;
  /** `maxUnavailable` (default 20%), rounded up when maxSurge is 0, else down. */
  maxUnavailable: number;
  /** `partition`, rounded up and at most replicas. */
  partition: number;
}

/** Resolve the stored spec's strategy into pod counts (docs/behaviour/cloneset.md#int-or-percent). */
export function boundsOf(cs: CloneSet): Bounds {
  const replicas = cs.spec.replicas ?? 1;
  const us = cs.spec.updateStrategy ?? {};
  const maxSurge = scaled(us.maxSurge, replicas, true, 0);
  const maxUnavailable = scaled(us.maxUnavailable ?? '20%', replicas, maxSurge === 0, 0);
  const partition = Math.min(scaled(us.partition, replicas, true, 0), replicas);
  return { replicas, maxSurge, maxUnavailable, partition };
}

/** Whether the pod belongs to the CloneSet of this UID (controller owner reference). */
export function ownedBy(pod: Pod, uid: string | undefined): boolean {
  return (pod.metadata.ownerReferences ?? []).some((r) => r.uid === uid && r.controller);
}

/**
 * Whether the pod serves traffic, by the simulated kubelet's truth: not terminating, healthy, running every
 * container at its spec image, every readiness gate True — and reported Ready by the kubelet's last sync, so a
 * pod only becomes available when the kubelet says so, but stops being available the moment anything takes it
 * out (a failed probe, a new image, a readiness gate set False).
 */
export function isAvailable(pod: Pod, unhealthy: ReadonlySet<string>): boolean {
  if (pod.metadata.deletionTimestamp || unhealthy.has(pod.metadata.name ?? '')) return false;
  if (pod.status?.phase !== 'Running') return false;
  const statuses = pod.status.containerStatuses ?? [];
  const running = pod.spec.containers.every((c) =>
    statuses.some((s) => s.name === c.name && s.image === c.image),
  );
  const conds = pod.status.conditions ?? [];
  const gates = (pod.spec.readinessGates ?? []).every((g) =>
    conds.some((c) => c.type === g.conditionType && c.status === 'True'),
  );
  const reported = conds.some((c) => c.type === 'Ready' && c.status === 'True');
  return running && gates && reported;
}

/**
 * Whether the pod counts as available for the maxUnavailable bound, as OpenKruise counts it
 * (`IsPodAvailable` in pkg/controller/cloneset/sync/cloneset_sync_utils.go): available by the kubelet's truth
 * and in lifecycle state Normal (or none). A pod in any other state — PreparingNormal, PreparingUpdate, Updating,
 * Updated, PreparingDelete — is unavailable to OpenKruise, so the controller may delete or update it without
 * spending the budget. A pod marked `apps.kruise.io/specified-delete` (how a ReCreate update takes a pod out) is
 * charged when it is marked: OpenKruise counts it as "to delete", not as unavailable, and may then delete it
 * together with unready marked pods although that goes below the bound (`deleteReadyLimit` in
 * `calculateDiffsWithExpectation`).
 */
export function isServing(pod: Pod, unhealthy: ReadonlySet<string>): boolean {
  const state = lifecycleOf(pod);
  const marked = pod.metadata.labels?.[LABEL_SPECIFIED_DELETE] !== undefined;
  return isAvailable(pod, unhealthy) && (state === '' || state === 'Normal') && !marked;
}

/** Why a pod does not serve (`''` when it does), for violation messages. */
export function notServingBecause(pod: Pod, unhealthy: ReadonlySet<string>): string {
  if (pod.metadata.deletionTimestamp) return 'terminating';
  if (unhealthy.has(pod.metadata.name ?? '')) return 'unhealthy';
  if (pod.status?.phase !== 'Running') return pod.status?.phase ?? 'no phase';
  const statuses = pod.status.containerStatuses ?? [];
  if (!pod.spec.containers.every((c) => statuses.some((s) => s.name === c.name && s.image === c.image)))
    return 'restarting';
  const conds = pod.status.conditions ?? [];
  const gate = (pod.spec.readinessGates ?? []).find(
    (g) => !conds.some((c) => c.type === g.conditionType && c.status === 'True'),
  );
  if (gate) return `${gate.conditionType} not True`;
  if (!conds.some((c) => c.type === 'Ready' && c.status === 'True')) return 'not reported Ready';
  if (pod.metadata.labels?.[LABEL_SPECIFIED_DELETE] !== undefined) return 'specified-delete';
  const state = lifecycleOf(pod);
  return state === '' || state === 'Normal' ? '' : state;
}

/** The lifecycle state label of a pod (`''` when absent). */
export function lifecycleOf(pod: Pod): string {
  return pod.metadata.labels?.[LABEL_LIFECYCLE_STATE] ?? '';
}

/** The history-independent outcome of a run after quiescence, compared between the faulty and the fault-free run. */
export interface Projection {
  pods: number;
  /** Pods at `status.updateRevision`. */
  updated: number;
  available: number;
  /** Lifecycle states of the pods, sorted. */
  states: string[];
  /** Pods left in PreparingUpdate at an old revision (see {@link compareProjections}). */
  stranded: number;
  status: Record<string, unknown>;
}

/** The projection of a CloneSet and its owned pods. */
export function projectionOf(
  cs: CloneSet | undefined,
  pods: Pod[],
  unhealthy: ReadonlySet<string>,
): Projection {
  const st = cs?.status;
  const updateRevision = st?.updateRevision ?? '';
  return {
    pods: pods.length,
    updated: pods.filter((p) =>
      updateRevision.endsWith(p.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '-'),
    ).length,
    available: pods.filter((p) => isAvailable(p, unhealthy)).length,
    states: pods.map(lifecycleOf).sort(),
    stranded: pods.filter(
      (p) =>
        lifecycleOf(p) === 'PreparingUpdate' &&
        !updateRevision.endsWith(p.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '-'),
    ).length,
    status: {
      observedGeneration: st?.observedGeneration,
      replicas: st?.replicas,
      readyReplicas: st?.readyReplicas,
      availableReplicas: st?.availableReplicas,
      updatedReplicas: st?.updatedReplicas,
      updatedReadyReplicas: st?.updatedReadyReplicas,
      updatedAvailableReplicas: st?.updatedAvailableReplicas,
      expectedUpdatedReplicas: st?.expectedUpdatedReplicas,
      updateRevision: st?.updateRevision,
      currentRevision: st?.currentRevision,
      conditions: (st?.conditions ?? []).map((c) => `${c.type}=${c.status}/${c.reason ?? ''}`).sort(),
    },
  };
}

/**
 * The fields that depend on the history of a run, not only on its actions, when a partition above 0 is left at
 * the end: which pods a rollout reached before the partition was raised again (OpenKruise does not roll them back
 * without the CloneSetPartitionRollback gate), and pods it had moved to PreparingUpdate, which stay there
 * (OpenKruise's `refreshPodState` only returns a PreparingUpdate pod to Normal once it is at the update revision)
 * and so count as unavailable.
 */
const HISTORY_DEPENDENT_UNDER_PARTITION = [
  'updated',
  'updatedReplicas',
  'updatedReadyReplicas',
  'updatedAvailableReplicas',
  'currentRevision',
  'states',
  'available',
  'availableReplicas',
];

/**
 * Differences between the faulty run's projection and the fault-free run's, as `field: faulty ≠ fault-free`
 * lines. With a partition above 0 at the end, the {@link HISTORY_DEPENDENT_UNDER_PARTITION} fields are not
 * compared; instead each run must have updated at least replicas − partition pods. When the final spec fails
 * validation (OpenKruise's webhook would have refused it; Kruiseless reports it and leaves the cluster alone),
 * only the conditions are compared: the pods and the rest of the status are as the last valid spec left them.
 */
export function compareProjections(faulty: Projection, clean: Projection, bounds: Bounds): string[] {
  const out: string[] = [];
  const invalid = (p: Projection) =>
    (p.status.conditions as string[]).some((c) => c.startsWith('FailedValidation='));
  if (invalid(clean) || invalid(faulty)) {
    // the reconciler leaves the cluster as the last valid spec left it, which depends on how far it got
    // (a FailedScale/FailedUpdate left by a fault before the spec went invalid stays: no phase runs to clear it)
    const kept = (p: Projection) =>
      (p.status.conditions as string[]).filter((c) => !/^Failed(Scale|Update)=/.test(c));
    const [a, b] = [kept(faulty), kept(clean)];
    if (JSON.stringify(a) !== JSON.stringify(b))
      out.push(`conditions: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)} (fault-free)`);
    return out;
  }
  if (faulty.stranded > 0 || clean.stranded > 0) {
    // a pod an earlier rollout moved to PreparingUpdate, no longer needed at the old revision: OpenKruise's
    // refreshPodState keeps it there, PreparingUpdateAsUpdate counts it as updated (so no update moves it), and a
    // scale-down may then be held by deleteReadyLimit — where a run ends depends on its history
    for (const k of ['updateRevision', 'observedGeneration', 'conditions'])
      if (JSON.stringify(faulty.status[k]) !== JSON.stringify(clean.status[k]))
        out.push(
          `${k}: ${JSON.stringify(faulty.status[k])} ≠ ${JSON.stringify(clean.status[k])} (fault-free)`,
        );
    return out;
  }
  const historyDependent = new Set(bounds.partition > 0 ? HISTORY_DEPENDENT_UNDER_PARTITION : []);
  const cmp = (field: string, a: unknown, b: unknown) => {
    if (historyDependent.has(field)) return;
    if (JSON.stringify(a) !== JSON.stringify(b))
      out.push(`${field}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)} (fault-free)`);
  };
  cmp('pods', faulty.pods, clean.pods);
  cmp('updated', faulty.updated, clean.updated);
  cmp('available', faulty.available, clean.available);
  cmp('states', faulty.states, clean.states);
  for (const k of Object.keys(clean.status)) cmp(k, faulty.status[k], clean.status[k]);
  if (bounds.partition > 0) {
    for (const [run, p] of [
      ['faulty', faulty],
      ['fault-free', clean],
    ] as const)
      if (p.updated < bounds.replicas - bounds.partition)
        out.push(
          `${run}: ${p.updated} pods updated, partition ${bounds.partition} of ${bounds.replicas} wants ≥ ${bounds.replicas - bounds.partition}`,
        );
  }
  return out;
}
