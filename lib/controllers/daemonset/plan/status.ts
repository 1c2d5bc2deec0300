/**
 * OpenKruise: pkg/controller/daemonset/daemonset_controller.go `updateDaemonSetStatus`, `storeDaemonSetStatus`;
 * daemonset_util.go `isDaemonPodAvailable`; Kubernetes pkg/api/v1/pod `IsPodAvailable`, pkg/controller/daemon/util
 * `IsPodUpdated`.
 *
 * The status a pass writes, from the nodes and the pods as listed.
 */
import { withoutFailedValidation, type StatusCondition } from '../../../api/failedValidation.js';
import { CONDITION_INPLACE_UPDATE_READY, LABEL_CONTROLLER_REVISION_HASH } from '../../../api/keys.js';
import type { Node } from '../../../api/node.js';
import type { Pod } from '../../../api/types.js';
import { getPodCondition, isPodReady } from '../../../podset/pods.js';
import { hasReadinessGate } from '../../../podset/readiness.js';
import { LABEL_POD_TEMPLATE_GENERATION } from '../api/keys.js';
import type { DaemonSet, DaemonSetStatus } from '../api/types.js';
import { nodeShouldRunDaemonPod, daemonPodSpec } from './nodes.js';
import { templateGeneration } from './newPod.js';
import { sortDaemonPods } from './podsByNode.js';

/**
 * `IsPodAvailable` and, for a pod with the `InPlaceUpdateReady` gate, that condition True when present
 * (`isDaemonPodAvailable`): Ready, and ready for more than `minReadySeconds` (0: at once).
 */
export function isDaemonPodAvailable(pod: Pod, minReadySeconds: number, now: Date): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds > 0) {
    const t = getPodCondition(pod, 'Ready')?.lastTransitionTime;
    if (!t || !(Date.parse(t) + minReadySeconds * 1000 < now.getTime())) return false;
  }
  if (hasReadinessGate(pod, CONDITION_INPLACE_UPDATE_READY)) {
    const c = getPodCondition(pod, CONDITION_INPLACE_UPDATE_READY);
    if (c && c.status !== 'True') return false;
  }
  return true;
}

/** `IsPodUpdated`: its `controller-revision-hash` is `hash`, or its `pod-template-generation` the legacy generation. */
export function isPodUpdated(pod: Pod, hash: string, generation: string | undefined): boolean {
  const labels = pod.metadata.labels ?? {};
  return (
    (hash !== '' && labels[LABEL_CONTROLLER_REVISION_HASH] === hash) ||
    (generation !== undefined && labels[LABEL_POD_TEMPLATE_GENERATION] === generation)
  );
}

/**
 * Seconds after which a Ready pod has been Ready for more than `minReadySeconds` (upstream's
 * `podAvailableWaitingTime`, rounded up past the strict `>`: at least 1); `minReadySeconds` when its Ready condition
 * has no transition time.
 */
export function availableWaitSeconds(pod: Pod, minReadySeconds: number, now: Date): number {
  const t = getPodCondition(pod, 'Ready')?.lastTransitionTime;
  if (!t) return minReadySeconds;
  return Math.max(1, Math.floor((Date.parse(t) + minReadySeconds * 1000 - now.getTime()) / 1000) + 1);
}

/** What {@link daemonSetStatus} computes. */
export interface StatusResult {
  status: DaemonSetStatus;
  /** Seconds until a ready pod becomes available (`minReadySeconds` when some ready pod is not yet). */
  requeueAfterSeconds?: number;
}

/**
 * The status upstream stores: per node, in order — a node that should run the pod counts in
 * `desiredNumberScheduled`, and with a pod there (any, terminating too) in `currentNumberScheduled`; its oldest pod
 * (`podByCreationTimestampAndPhase`) counts in `numberReady`, `numberAvailable` ({@link isDaemonPodAvailable}) and
 * `updatedNumberScheduled` ({@link isPodUpdated}); a node that should not run it but has a pod counts in
 * `numberMisscheduled`. `numberUnavailable` = desired − available; `updateRevision` = `hash`; `observedGeneration`
 * the DaemonSet's generation when `observe`, else as stored; `collisionCount` and conditions as stored. As Go writes
 * it: `numberAvailable`, `numberUnavailable` and `observedGeneration` absent at 0 (`omitempty`).
 */
export function daemonSetStatus(
  ds: DaemonSet,
  nodes: readonly Node[],
  byNode: ReadonlyMap<string, Pod[]>,
  hash: string,
  observe: boolean,
  now: Date,
): StatusResult {
  const spec = daemonPodSpec(ds);
  const generation = templateGeneration(ds);
  const minReady = ds.spec.minReadySeconds ?? 0;
  let desired = 0;
  let current = 0;
  let misscheduled = 0;
  let ready = 0;
  let available = 0;
  let updated = 0;
  for (const node of nodes) {
    const pods = byNode.get(node.metadata.name ?? '') ?? [];
    const { shouldRun } = nodeShouldRunDaemonPod(node, ds, spec);
    if (!shouldRun) {
      if (pods.length > 0) misscheduled++;
      continue;
    }
    desired++;
    if (pods.length === 0) continue;
    current++;
    const pod = sortDaemonPods(pods)[0];
    if (isPodReady(pod)) {
      ready++;
      if (isDaemonPodAvailable(pod, minReady, now)) available++;
    }
    if (isPodUpdated(pod, hash, generation)) updated++;
  }
  const stored = ds.status ?? {};
  // a valid DaemonSet drops the FailedValidation condition an earlier invalid spec left
  const conditions = withoutFailedValidation((stored.conditions ?? []) as StatusCondition[]);
  // Go's omitempty: numberAvailable, numberUnavailable and observedGeneration are dropped at 0, updateRevision empty
  const status: DaemonSetStatus = {
    currentNumberScheduled: current,
    numberMisscheduled: misscheduled,
    desiredNumberScheduled: desired,
    numberReady: ready,
    updatedNumberScheduled: updated,
    ...(available !== 0 ? { numberAvailable: available } : {}),
    ...(desired - available !== 0 ? { numberUnavailable: desired - available } : {}),
    ...(stored.collisionCount !== undefined ? { collisionCount: stored.collisionCount } : {}),
    ...(conditions.length > 0 ? { conditions } : {}),
    ...(hash !== '' ? { updateRevision: hash } : {}),
  };
  const observed = observe ? (ds.metadata.generation ?? 0) : (stored.observedGeneration ?? 0);
  if (observed !== 0) status.observedGeneration = observed;
  return {
    status,
    ...(minReady > 0 && ready !== available ? { requeueAfterSeconds: minReady } : {}),
  };
}
