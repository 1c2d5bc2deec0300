/**
 * OpenKruise: pkg/controller/statefulset/stateful_set_control.go `computeReplicaStatus`, `updateStatus`;
 * statefulset_resize_pvc.go `updatePVCStatus`; stateful_set_utils.go `completeRollingUpdate`, `inconsistentStatus`;
 * apis/apps/v1beta1 `StatefulSetStatus` (its JSON tags).
 *
 * The counts of an Advanced StatefulSet's status, its volume-claim counts, the fields it is written with, and when a
 * status write is due.
 */
import type { PersistentVolumeClaim, Pod } from '../../../api/types.js';
import { isPVCCompatibleAndReady } from '../../../podset/pvcCompare.js';
import type { StatefulSet, StatefulSetStatus, VolumeClaimStatus } from '../api/types.js';
import { claimName, podOrdinal } from './ordinals.js';
import {
  isCreated,
  isRunningAndReady,
  isTerminating,
  runningAndAvailable,
  statefulPodRevision,
} from './podState.js';

/** The pod counts of `status`. */
export type ReplicaCounts = Pick<
  StatefulSetStatus,
  | 'replicas'
  | 'readyReplicas'
  | 'availableReplicas'
  | 'currentReplicas'
  | 'updatedReplicas'
  | 'updatedReadyReplicas'
  | 'updatedAvailableReplicas'
>;

/**
 * Counts over `pods` (undefined entries and pods not yet created skipped): replicas = created; ready = running
 * and ready; available = also for minReadySeconds; current/updated = created, not terminating, at that revision;
 * updatedReady/updatedAvailable = ready/available at the update revision.
 */
export function replicaCounts(
  pods: readonly (Pod | undefined)[],
  minReadySeconds: number,
  currentRevision: string,
  updateRevision: string,
  now: Date,
): ReplicaCounts {
  const c: ReplicaCounts = {
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
    updatedReadyReplicas: 0,
    updatedAvailableReplicas: 0,
  };
  for (const pod of pods) {
    if (!pod) continue;
    const created = isCreated(pod);
    if (created) c.replicas++;
    const revision = statefulPodRevision(pod);
    if (isRunningAndReady(pod)) {
      c.readyReplicas++;
      const available = runningAndAvailable(pod, minReadySeconds, now).available;
      if (revision === updateRevision) {
        c.updatedReadyReplicas = (c.updatedReadyReplicas ?? 0) + 1;
        if (available) c.updatedAvailableReplicas = (c.updatedAvailableReplicas ?? 0) + 1;
      }
      if (available) c.availableReplicas++;
    }
    if (created && !isTerminating(pod)) {
      if (revision === currentRevision) c.currentReplicas++;
      if (revision === updateRevision) c.updatedReplicas++;
    }
  }
  return c;
}

/**
 * Upstream `updatePVCStatus`: one item per volumeClaimTemplate, in template order, named after it, counting the pods
 * of `pods` (undefined entries skipped; a pod not created yet counts too, as upstream's replica slots do) whose PVC
 * of that template (`<template>-<set>-<ordinal>`, looked up by name in `pvcs`) exists, is not terminating and is
 * compatible with the template (lib/podset/pvcCompare.ts `isPVCCompatibleAndReady`: class, access modes, request at
 * least the template's); `compatibleReadyReplicas` those whose capacity also reaches their request. Empty without
 * templates.
 * @param sts the set as defaulted (its templates are compared)
 * @param pods the replica slots after the pass (or, for a set being deleted, the listed pods)
 * @param pvcs the PVCs as listed at the start of the pass
 */
export function volumeClaimStatuses(
  sts: StatefulSet,
  pods: readonly (Pod | undefined)[],
  pvcs: readonly PersistentVolumeClaim[],
): VolumeClaimStatus[] {
  const templates = sts.spec.volumeClaimTemplates ?? [];
  const byName = new Map(pvcs.map((c) => [c.metadata.name ?? '', c]));
  const out: VolumeClaimStatus[] = templates.map((t) => ({
    volumeClaimName: t.metadata.name ?? '',
    compatibleReplicas: 0,
    compatibleReadyReplicas: 0,
  }));
  for (const pod of pods) {
    if (!pod) continue;
    const ordinal = podOrdinal(pod);
    templates.forEach((template, i) => {
      const claim = byName.get(claimName(template.metadata.name ?? '', sts, ordinal));
      if (!claim || claim.metadata.deletionTimestamp) return;
      const { compatible, ready } = isPVCCompatibleAndReady(claim, template);
      if (!compatible) return;
      out[i].compatibleReplicas++;
      if (ready) out[i].compatibleReadyReplicas++;
    });
  }
  return out;
}

/**
 * The status as OpenKruise's controller sends it (Go's `encoding/json` of `StatefulSetStatus`, whose `omitempty`
 * tags drop zero values): `observedGeneration`, `updatedReadyReplicas` and `updatedAvailableReplicas` left out when
 * 0; `currentRevision`, `updateRevision` and `labelSelector` when empty; `conditions` and `volumeClaims` when there
 * are none; `collisionCount` (a pointer upstream always sets) only when undefined. `replicas`, `readyReplicas`,
 * `availableReplicas`, `currentReplicas` and `updatedReplicas` are always written. Returns a new status.
 */
export function statusAsWritten(status: StatefulSetStatus): StatefulSetStatus {
  const out: StatefulSetStatus = { ...status };
  if (!out.observedGeneration) delete out.observedGeneration;
  if (!out.updatedReadyReplicas) delete out.updatedReadyReplicas;
  if (!out.updatedAvailableReplicas) delete out.updatedAvailableReplicas;
  if (!out.currentRevision) delete out.currentRevision;
  if (!out.updateRevision) delete out.updateRevision;
  if (out.collisionCount === undefined) delete out.collisionCount;
  if (!out.conditions?.length) delete out.conditions;
  if (!out.labelSelector) delete out.labelSelector;
  if (!out.volumeClaims?.length) delete out.volumeClaims;
  return out;
}

/**
 * A finished RollingUpdate (every replica updated and ready) makes the update revision current (upstream
 * `completeRollingUpdate`). Returns a new status.
 */
export function completeRollingUpdate(sts: StatefulSet, status: StatefulSetStatus): StatefulSetStatus {
  if (
    sts.spec.updateStrategy?.type === 'RollingUpdate' &&
    status.updatedReplicas === status.replicas &&
    status.readyReplicas === status.replicas
  ) {
    return { ...status, currentReplicas: status.updatedReplicas, currentRevision: status.updateRevision };
  }
  return status;
}

/**
 * Whether `status` must be written (upstream `inconsistentStatus`): a newer observedGeneration, or a different
 * replicas, currentReplicas, readyReplicas, availableReplicas, updatedReplicas, currentRevision, updateRevision,
 * labelSelector, or volume-claim counts. (updatedReady/updatedAvailable, collisionCount and conditions alone do
 * not trigger a write, as upstream.)
 */
export function inconsistentStatus(
  stored: StatefulSetStatus | undefined,
  status: StatefulSetStatus,
): boolean {
  const s = stored ?? {
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
  };
  if (
    (status.observedGeneration ?? 0) > (s.observedGeneration ?? 0) ||
    status.replicas !== (s.replicas ?? 0) ||
    status.currentReplicas !== (s.currentReplicas ?? 0) ||
    status.readyReplicas !== (s.readyReplicas ?? 0) ||
    status.availableReplicas !== (s.availableReplicas ?? 0) ||
    status.updatedReplicas !== (s.updatedReplicas ?? 0) ||
    (status.currentRevision ?? '') !== (s.currentRevision ?? '') ||
    (status.updateRevision ?? '') !== (s.updateRevision ?? '') ||
    (status.labelSelector ?? '') !== (s.labelSelector ?? '')
  )
    return true;
  const mine = new Map((status.volumeClaims ?? []).map((v) => [v.volumeClaimName, v]));
  return (s.volumeClaims ?? []).some((v) => {
    const m = mine.get(v.volumeClaimName);
    return (
      !m ||
      m.compatibleReplicas !== v.compatibleReplicas ||
      m.compatibleReadyReplicas !== v.compatibleReadyReplicas
    );
  });
}
