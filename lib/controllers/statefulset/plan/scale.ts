/**
 * OpenKruise: pkg/controller/statefulset/stateful_set_control.go `processReplica`, `processCondemned`,
 * `runForAllWithBreak`, `runForAll` (the scale part of `updateStatefulSet`).
 *
 * Scaling an Advanced StatefulSet: the replicas walked in ordinal order (create missing pods, replace failed ones,
 * wait for predecessors under OrderedReady, respect `scaleStrategy.maxUnavailable` under Parallel), then the
 * condemned pods highest ordinal first.
 */
import type { PersistentVolumeClaim, Pod } from '../../../api/types.js';
import {
  isCreated,
  isFailed,
  isPending,
  isRunningAndReady,
  isSucceeded,
  isTerminating,
  minReadySecondsOf,
  runningAndAvailable,
} from './podState.js';
import { claimsFor } from './newPod.js';
import { podOrdinal } from './ordinals.js';
import { claimIsStale, missingClaims, retentionActions } from './retention.js';
import {
  deletePod,
  identityMatches,
  identityPatch,
  refreshPod,
  scaleMaxUnavailable,
  useScaleBudget,
  type PassState,
} from './pass.js';

/**
 * How the replicas walk ended: `exit` ends the pass (monotonic only, or on an error in either mode, as upstream's
 * `runForAllWithBreak` returns on an error), `done`/`break` go on to the condemned.
 */
export type WalkOutcome = { kind: 'done' } | { kind: 'exit'; why: string; error?: string };

type Step = { exit?: string; break?: boolean; error?: string };

function processReplica(
  pass: PassState,
  pod: Pod,
  monotonic: boolean,
  budget: { left: number } | undefined,
  updateRevision: string,
  pvcs: readonly PersistentVolumeClaim[],
): Step {
  const sts = pass.sts;
  const name = pod.metadata.name ?? '';
  if (isFailed(pod) || isSucceeded(pod)) {
    if (useScaleBudget(budget)) return { break: true };
    if (!isTerminating(pod)) deletePod(pass, pod, 'PodFailed');
    return { exit: `pod ${name} failed or succeeded: deleted to be recreated` };
  }
  if (!isCreated(pod)) {
    const claims = claimsFor(sts, podOrdinal(pod));
    const existing = new Map(pvcs.map((c) => [c.metadata.name ?? '', c]));
    if (pass.options.statefulSetAutoDeletePVC && claimIsStale(sts, pod, pvcs))
      return { exit: `a PVC of pod ${name} is stale (owned by a deleted pod of that name)` };
    if (
      pass.options.statefulSetAutoDeletePVC &&
      claims.some((c) => !!existing.get(c.metadata.name ?? '')?.metadata.deletionTimestamp)
    )
      return { exit: `a PVC of pod ${name} is being deleted` };
    pass.actions.push({
      type: 'CreatePod',
      pod,
      pvcs: claims.filter((c) => !existing.has(c.metadata.name ?? '')),
      revision: pod.metadata.labels?.['controller-revision-hash'] ?? '',
      batch: pass.creates++,
    });
    if (monotonic) return { exit: `pod ${name} created: OrderedReady creates one at a time` };
    if (useScaleBudget(budget)) return { break: true };
    return {};
  }
  if (isPending(pod)) {
    const missing = missingClaims(sts, pod, pvcs);
    pass.actions.push(...missing.create);
    if (pass.options.statefulSetAutoDeletePVC) pass.actions.push(...retentionActions(sts, pod, pvcs, false));
    if (missing.deleting.length > 0) {
      const error = missing.deleting.map((c) => `pvc ${c} is to be deleted`).join(', ');
      return { exit: `a PVC of pending pod ${name} is being deleted`, error };
    }
  }
  if (isTerminating(pod)) {
    if (monotonic) return { exit: `waiting for pod ${name} to terminate` };
    if (useScaleBudget(budget)) return { break: true };
  }
  refreshPod(pass, pod, updateRevision);
  if (monotonic || budget) {
    const { available, waitMs } = runningAndAvailable(pod, minReadySecondsOf(sts), pass.now);
    if (!available && monotonic) {
      if (waitMs > 0) pass.waitsMs.push(waitMs);
      return { exit: `waiting for pod ${name} to be running and available` };
    }
    if (!available && useScaleBudget(budget)) {
      if (waitMs > 0) pass.waitsMs.push(waitMs);
      return { break: true };
    }
  }
  if (!identityMatches(sts, pod)) pass.actions.push(identityPatch(pass, pod));
  // a Pending pod's PVCs were brought in line above (upstream `createMissingPersistentVolumeClaims`)
  if (pass.options.statefulSetAutoDeletePVC && !isPending(pod))
    pass.actions.push(...retentionActions(sts, pod, pvcs, false));
  return {};
}

/**
 * The replicas walk (upstream `runForAllWithBreak` over `processReplica`). Monotonic (OrderedReady): stops the
 * pass at the first pod created, failed, terminating or not yet available. Parallel: every slot is visited, until
 * `scaleStrategy.maxUnavailable` pods are unavailable (created, failed, terminating or not available count).
 * @param replicas the range's slots with the new pods planned in them
 */
export function walkReplicas(
  pass: PassState,
  replicas: readonly (Pod | undefined)[],
  monotonic: boolean,
  updateRevision: string,
  pvcs: readonly PersistentVolumeClaim[],
): WalkOutcome {
  const budget = scaleMaxUnavailable(pass.sts);
  for (const pod of replicas) {
    if (!pod) continue;
    const step = processReplica(pass, pod, monotonic, budget, updateRevision, pvcs);
    if (step.exit && step.error) return { kind: 'exit', why: step.exit, error: step.error };
    if (step.exit && monotonic) return { kind: 'exit', why: step.exit };
    if (step.break) break;
  }
  return { kind: 'done' };
}

/**
 * The condemned walk (upstream `processCondemned`), highest ordinal first. Monotonic: waits for a terminating pod,
 * and for a not running-and-ready or not available pod unless it is the first unhealthy one; stops after one
 * deletion. Parallel: all are deleted at once.
 * @param firstUnhealthy the unhealthy pod with the lowest ordinal among replicas and condemned
 */
export function walkCondemned(
  pass: PassState,
  condemned: readonly Pod[],
  monotonic: boolean,
  firstUnhealthy: Pod | undefined,
): WalkOutcome {
  for (const pod of condemned) {
    const name = pod.metadata.name ?? '';
    if (isTerminating(pod)) {
      if (monotonic) return { kind: 'exit', why: `waiting for pod ${name} to terminate before scaling down` };
      continue;
    }
    if (monotonic && pod !== firstUnhealthy) {
      if (!isRunningAndReady(pod))
        return {
          kind: 'exit',
          why: `waiting for pod ${firstUnhealthy?.metadata.name ?? name} to be running and ready before scaling down`,
        };
      const { available, waitMs } = runningAndAvailable(pod, minReadySecondsOf(pass.sts), pass.now);
      if (!available) {
        if (waitMs > 0) pass.waitsMs.push(waitMs);
        return {
          kind: 'exit',
          why: `waiting for pod ${firstUnhealthy?.metadata.name ?? name} to be available before scaling down`,
        };
      }
    }
    const { modified } = deletePod(pass, pod, 'ScaleDown');
    if (monotonic && modified)
      return { kind: 'exit', why: `pod ${name} deleted: OrderedReady scales down one at a time` };
  }
  return { kind: 'done' };
}
