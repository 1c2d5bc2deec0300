/**
 * OpenKruise: pkg/controller/statefulset/stateful_set_utils.go `claimOwnerMatchesSetAndPod`,
 * `updateClaimOwnerRefForSetAndPod`, `hasOwnerRef`, `hasStaleOwnerRef`, `setOwnerRef`, `removeOwnerRef`,
 * `getPersistentVolumeClaimRetentionPolicy`; stateful_pod_control.go `ClaimsMatchRetentionPolicy`,
 * `UpdatePodClaimForRetentionPolicy`, `PodClaimIsStale`, `createMissingPersistentVolumeClaims` (gate
 * `StatefulSetAutoDeletePVC`, beta, on).
 *
 * `persistentVolumeClaimRetentionPolicy` as owner references on a pod's PVCs, so that Kubernetes' garbage collector
 * deletes them: `whenDeleted: Delete` — the set owns every PVC of a pod in range; `whenScaled: Delete` — a
 * condemned pod (outside the ordinal range) owns its PVCs. Returned as PatchPVCOwner / CreatePVC actions.
 */
import type { OwnerReference, PersistentVolumeClaim, Pod } from '../../../api/types.js';
import type { Action } from '../../../podset/actions.js';
import { STATEFULSET_API_VERSION, STATEFULSET_KIND_NAME } from '../api/resource.js';
import type { StatefulSet } from '../api/types.js';
import { claimsFor } from './newPod.js';
import { podOrdinal } from './ordinals.js';

/** The policy with Retain for what is unset (upstream `getPersistentVolumeClaimRetentionPolicy`). */
function policyOf(sts: StatefulSet): { whenDeleted: string; whenScaled: string } {
  const p = sts.spec.persistentVolumeClaimRetentionPolicy;
  return { whenDeleted: p?.whenDeleted ?? 'Retain', whenScaled: p?.whenScaled ?? 'Retain' };
}

const hasRef = (refs: readonly OwnerReference[], uid: string | undefined): boolean =>
  !!uid && refs.some((r) => r.uid === uid);

/**
 * The owner references `claim` must have under the set's policy (upstream `updateClaimOwnerRefForSetAndPod`: a
 * missing reference is appended as a non-controller reference, a superfluous one removed by UID, the others kept in
 * order), or undefined when it already has them (upstream `claimOwnerMatchesSetAndPod`). An unknown policy value
 * counts as Retain, as upstream.
 * @param scaledDown the pod's ordinal is outside the range (or reserved): upstream `!podInOrdinalRange`
 */
export function claimOwnerReferences(
  claim: PersistentVolumeClaim,
  sts: StatefulSet,
  pod: Pod,
  scaledDown: boolean,
): OwnerReference[] | undefined {
  const policy = policyOf(sts);
  const setDelete = policy.whenDeleted === 'Delete';
  const scaleDelete = policy.whenScaled === 'Delete';
  // which owner the claim must reference, after upstream's four cases
  const wantSet = setDelete && !(scaleDelete && scaledDown);
  const wantPod = scaleDelete && scaledDown;
  const setUid = sts.metadata.uid;
  const podUid = pod.metadata.uid;
  let refs = [...(claim.metadata.ownerReferences ?? [])];
  let changed = false;
  const want = (yes: boolean, uid: string | undefined, ref: () => OwnerReference) => {
    if (!uid) return;
    if (yes && !hasRef(refs, uid)) {
      refs = [...refs, ref()];
      changed = true;
    } else if (!yes && hasRef(refs, uid)) {
      refs = refs.filter((r) => r.uid !== uid);
      changed = true;
    }
  };
  want(wantSet, setUid, () => ({
    apiVersion: STATEFULSET_API_VERSION,
    kind: STATEFULSET_KIND_NAME,
    name: sts.metadata.name ?? '',
    uid: setUid ?? '',
  }));
  want(wantPod, podUid, () => ({
    apiVersion: 'v1',
    kind: 'Pod',
    name: pod.metadata.name ?? '',
    uid: podUid ?? '',
  }));
  return changed ? refs : undefined;
}

/**
 * PatchPVCOwner for each listed PVC of `pod` whose owner references do not match the policy (upstream
 * `ClaimsMatchRetentionPolicy` then `UpdatePodClaimForRetentionPolicy`); a PVC not listed is skipped, as upstream
 * skips a claim it cannot find ("continuing to pick up in next iteration").
 */
export function retentionActions(
  sts: StatefulSet,
  pod: Pod,
  pvcs: readonly PersistentVolumeClaim[],
  scaledDown: boolean,
): Action[] {
  const byName = new Map(pvcs.map((c) => [c.metadata.name ?? '', c]));
  const out: Action[] = [];
  for (const template of claimsFor(sts, podOrdinal(pod))) {
    const claim = byName.get(template.metadata.name ?? '');
    if (!claim) continue;
    const refs = claimOwnerReferences(claim, sts, pod, scaledDown);
    if (refs)
      out.push({
        type: 'PatchPVCOwner',
        name: claim.metadata.name ?? '',
        uid: claim.metadata.uid ?? '',
        ownerReferences: refs,
      });
  }
  return out;
}

/**
 * Whether a PVC of the pod about to be created is stale (upstream `PodClaimIsStale`): with `whenScaled: Delete`, a
 * listed PVC that references an owner of the pod's name with another UID (the pod to be created has none yet, so
 * any such reference) belonged to a deleted predecessor and is about to be garbage-collected; the pod waits.
 */
export function claimIsStale(sts: StatefulSet, pod: Pod, pvcs: readonly PersistentVolumeClaim[]): boolean {
  if (policyOf(sts).whenScaled !== 'Delete') return false;
  const names = new Set(claimsFor(sts, podOrdinal(pod)).map((c) => c.metadata.name ?? ''));
  return pvcs.some(
    (c) =>
      names.has(c.metadata.name ?? '') &&
      (c.metadata.ownerReferences ?? []).some(
        (r) => r.name === pod.metadata.name && r.uid !== (pod.metadata.uid ?? ''),
      ),
  );
}

/**
 * The PVCs of a created pod that are not listed, as CreatePVC actions, and the names of its PVCs being deleted
 * (upstream `createMissingPersistentVolumeClaims` for a Pending pod: a PVC deleted under a pod that has not started
 * is made again; one still terminating is an error "pvc <name> is to be deleted").
 */
export function missingClaims(
  sts: StatefulSet,
  pod: Pod,
  pvcs: readonly PersistentVolumeClaim[],
): { create: Action[]; deleting: string[] } {
  const byName = new Map(pvcs.map((c) => [c.metadata.name ?? '', c]));
  const create: Action[] = [];
  const deleting: string[] = [];
  for (const claim of claimsFor(sts, podOrdinal(pod))) {
    const name = claim.metadata.name ?? '';
    const listed = byName.get(name);
    if (!listed) create.push({ type: 'CreatePVC', pvc: claim, podName: pod.metadata.name ?? '' });
    else if (listed.metadata.deletionTimestamp) deleting.push(name);
  }
  return { create, deleting };
}
