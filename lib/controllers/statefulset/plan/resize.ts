/**
 * OpenKruise: pkg/controller/statefulset/statefulset_resize_pvc.go (`IsOwnedPVCsReady`, `IsClaimsCompatible`,
 * `TryPatchPVC`, `IsOwnedPVCsCompleted`, `handlePVCWithCustomFn`, `resizeClaim`); the gate
 * `StatefulSetAutoResizePVCGate` as `rollingUpdateStatefulsetPods` reads it.
 *
 * `volumeClaimUpdateStrategy.type: OnPodRollingUpdate`: a pod's PVCs are grown to their template's storage request
 * as the rolling update reaches the pod, and the pod is updated only once they have grown. Pure: the PVC writes are
 * returned as `ResizePVC` actions.
 */
import type { JsonObject, PersistentVolumeClaim, Pod } from '../../../api/types.js';
import type { Action } from '../../../podset/actions.js';
import { podRef } from '../../../podset/pods.js';
import {
  capacityStorage,
  isClaimCompatibleWithoutSize,
  isPVCCompatibleAndReady,
  isPVCNeedExpand,
  requestedStorage,
} from '../../../podset/pvcCompare.js';
import type { StatefulSet } from '../api/types.js';
import { claimName, podOrdinal } from './ordinals.js';
import type { PlanEvent, StorageClassInfo } from './types.js';

/** OpenKruise's annotation naming the Advanced StatefulSet that resized a PVC (`PVCOwnedByStsAnnotationKey`). */
export const ANNOTATION_PVC_OWNED_BY_ASTS = 'apps.kruise.io/owned-by-asts';

/** Whether the rolling update resizes PVCs: the gate is on and the set asks for `OnPodRollingUpdate`. */
export function resizesClaims(sts: StatefulSet, gate: boolean): boolean {
  return gate && sts.spec.volumeClaimUpdateStrategy?.type === 'OnPodRollingUpdate';
}

/**
 * Upstream `handlePVCWithCustomFn` with terminating claims ignored: the pod's claim of each volumeClaimTemplate, in
 * template order, that exists in `pvcs` and is not being deleted, with its template.
 */
export function podClaims(
  sts: StatefulSet,
  pod: Pod,
  pvcs: readonly PersistentVolumeClaim[],
): { claim: PersistentVolumeClaim; template: PersistentVolumeClaim }[] {
  const ordinal = podOrdinal(pod);
  return (sts.spec.volumeClaimTemplates ?? []).flatMap((template) => {
    const name = claimName(template.metadata.name ?? '', sts, ordinal);
    const claim = pvcs.find((c) => c.metadata.name === name);
    return claim && !claim.metadata.deletionTimestamp ? [{ claim, template }] : [];
  });
}

/** Upstream `IsOwnedPVCsReady`: every claim of the pod has the capacity it requests (and fits its template). */
export function ownedClaimsReady(
  sts: StatefulSet,
  pod: Pod,
  pvcs: readonly PersistentVolumeClaim[],
): boolean {
  return podClaims(sts, pod, pvcs).every(
    ({ claim, template }) => isPVCCompatibleAndReady(claim, template).ready,
  );
}

/**
 * Upstream `IsClaimsCompatible`: every claim of the pod has its template's class and access modes and requests at
 * least the template's storage.
 */
export function claimsCompatible(
  sts: StatefulSet,
  pod: Pod,
  pvcs: readonly PersistentVolumeClaim[],
): boolean {
  return podClaims(sts, pod, pvcs).every(
    ({ claim, template }) =>
      isClaimCompatibleWithoutSize(claim, template) && !isPVCNeedExpand(claim, template),
  );
}

/**
 * Upstream `IsOwnedPVCsCompleted` (pkg/util/pvc `IsPatchPVCCompleted`): every claim of the pod is compatible and
 * either has its capacity or waits only for the node to grow the file system (condition
 * `FileSystemResizePending` True).
 */
export function ownedClaimsCompleted(
  sts: StatefulSet,
  pod: Pod,
  pvcs: readonly PersistentVolumeClaim[],
): boolean {
  return podClaims(sts, pod, pvcs).every(({ claim, template }) => {
    const { compatible, ready } = isPVCCompatibleAndReady(claim, template);
    if (!compatible) return false;
    if (ready) return true;
    const conditions = (claim.status as { conditions?: { type?: string; status?: string }[] } | undefined)
      ?.conditions;
    return (conditions ?? []).some((c) => c.type === 'FileSystemResizePending' && c.status === 'True');
  });
}

/**
 * The merge patch upstream's `resizeClaim` amounts to: the annotation naming the set, and `spec.resources` made the
 * template's (keys the template lacks removed).
 */
function resizePatch(set: string, claim: PersistentVolumeClaim, template: PersistentVolumeClaim): JsonObject {
  const want = (template.spec as { resources?: JsonObject } | undefined)?.resources ?? {};
  const have = (claim.spec as { resources?: JsonObject } | undefined)?.resources ?? {};
  const resources: JsonObject = structuredClone(want);
  for (const key of Object.keys(have)) if (!(key in want)) resources[key] = null;
  return { metadata: { annotations: { [ANNOTATION_PVC_OWNED_BY_ASTS]: set } }, spec: { resources } };
}

/**
 * Upstream `TryPatchPVC`, claim by claim in template order, stopping at the first error: a claim that already fits
 * is left alone; one that differs in more than its size gets a Warning Event `FailedUpdatePVC` and stops the update
 * (it waits to be deleted); one that is smaller than its template is resized — when it names a StorageClass, only if
 * that class (from `storageClasses`) allows volume expansion.
 * @returns the `ResizePVC` actions, the Events, and the error upstream's sync returns
 */
export function tryResizeClaims(
  sts: StatefulSet,
  pod: Pod,
  pvcs: readonly PersistentVolumeClaim[],
  storageClasses: readonly StorageClassInfo[],
): { actions: Action[]; events: PlanEvent[]; error?: string } {
  const actions: Action[] = [];
  const podName = pod.metadata.name ?? '';
  const set = sts.metadata.name ?? '';
  for (const { claim, template } of podClaims(sts, pod, pvcs)) {
    const name = claim.metadata.name ?? '';
    if (!isClaimCompatibleWithoutSize(claim, template)) {
      return {
        actions,
        events: [
          {
            type: 'Warning',
            reason: 'FailedUpdatePVC',
            message: `failed to update pvc ${name}: contains diff other than spec resource, wait pvc to be deleted`,
          },
        ],
        error: `can not patch pvc ${name}: contains diff other than spec resource, wait pvc to be deleted`,
      };
    }
    if (!isPVCNeedExpand(claim, template)) continue;
    const className = (claim.spec as { storageClassName?: unknown } | undefined)?.storageClassName;
    if (typeof className === 'string') {
      const sc = storageClasses.find((s) => s.name === className);
      if (!sc)
        return {
          actions,
          events: [],
          error: `could not get sc ${className} for ${podName} when checking PVC spec: storageclass.storage.k8s.io "${className}" not found`,
        };
      if (!sc.allowVolumeExpansion)
        return {
          actions,
          events: [],
          error: `storage class ${className} for ${podName} does not support volume expansion`,
        };
    }
    actions.push({
      type: 'ResizePVC',
      name,
      uid: claim.metadata.uid ?? '',
      ...(claim.metadata.resourceVersion ? { resourceVersion: claim.metadata.resourceVersion } : {}),
      pod: podRef(pod),
      patch: resizePatch(set, claim, template),
    });
  }
  return { actions, events: [] };
}

/**
 * Whether a claim this set resized is still growing (it carries {@link ANNOTATION_PVC_OWNED_BY_ASTS} naming the set
 * and its capacity is short of its request). OpenKruise's PVC watch (`pvc_event_handler.go`: an update of a claim
 * with that annotation enqueues the set) brings a pass when the resizer writes such a claim; Kruiseless watches no
 * PVCs, so a plan looks again while this holds.
 */
export function claimStillGrowing(sts: StatefulSet, pvcs: readonly PersistentVolumeClaim[]): boolean {
  return pvcs.some(
    (c) =>
      c.metadata.annotations?.[ANNOTATION_PVC_OWNED_BY_ASTS] === sts.metadata.name &&
      !c.metadata.deletionTimestamp &&
      capacityStorage(c) < requestedStorage(c),
  );
}
