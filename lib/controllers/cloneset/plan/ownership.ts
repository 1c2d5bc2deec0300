/**
 * OpenKruise: pkg/controller/cloneset/cloneset_controller.go `claimPods`, `cleanupPVCs`,
 * `updateClaimOwnerRefToPod`; pkg/controller/cloneset/utils `ControllerKind`.
 *
 * A CloneSet's ownership (docs/behaviour/cloneset.md#ownership): the controller reference it writes, the CloneSet
 * as the claimer of its pods (the claim itself is lib/podset/ownership.ts), and — when PVC reuse is disabled —
 * cleaning up PVCs whose pods are gone. Pure: returns the PVCs to work with plus the writes to perform.
 */
import { KIND, LABEL_INSTANCE_ID, OWNER_API_VERSION } from '../../../api/keys.js';
import type { CloneSet, OwnerReference, PersistentVolumeClaim, Pod } from '../../../api/types.js';
import type { Action } from '../../../podset/actions.js';
import { newControllerRef, type PodClaimer } from '../../../podset/ownership.js';
import { isPodActive } from '../../../podset/pods.js';

/**
 * The controller reference Kruiseless writes to pods, PVCs and revisions it creates for `cs`
 * (docs/behaviour/cloneset.md#new-pods, docs/behaviour/cloneset.md#pvcs).
 */
export function cloneSetControllerRef(cs: CloneSet): OwnerReference {
  return newControllerRef(OWNER_API_VERSION, KIND, cs);
}

/**
 * The CloneSet as the claimer of its pods (lib/podset/ownership.ts `claimPods`,
 * docs/behaviour/cloneset.md#ownership): its controller reference (UID), `spec.selector`, and whether it is being
 * deleted.
 */
export function cloneSetPodClaimer(cs: CloneSet): PodClaimer {
  return {
    controllerRef: cloneSetControllerRef(cs),
    selector: cs.spec.selector,
    deleting: !!cs.metadata.deletionTimestamp,
  };
}

/**
 * PVC cleanup when PVC reuse is disabled (`scaleStrategy.disablePVCReuse: true`,
 * docs/behaviour/cloneset.md#ownership, scenario 53). For each PVC (owned, without deletionTimestamp), by its
 * instance-id label:
 * - id of an active pod → kept;
 * - id of an inactive pod (finished or terminating) → `PatchPVCOwner`: the CloneSet reference is replaced by
 *   a
 *   controller reference `{apiVersion: v1, kind: Pod, name, uid, controller, blockOwnerDeletion}` to that
 * pod,   so the garbage collector removes the PVC with the pod;
 * - no pod at all → `DeletePVC`.
 * With reuse enabled (the default) everything is kept and no action is planned.
 * @param pods every listed pod of the CloneSet, active and inactive
 * @param pvcs owned PVCs without deletionTimestamp
 * @returns PVCs to keep (input order) and the actions (owner changes first, then deletions, each in input
 * order)
 */
export function cleanupPVCs(
  cs: CloneSet,
  pods: Pod[],
  pvcs: PersistentVolumeClaim[],
): { keep: PersistentVolumeClaim[]; actions: Action[] } {
  if (!cs.spec.scaleStrategy?.disablePVCReuse) return { keep: [...pvcs], actions: [] };
  const idOf = (o: { metadata: { labels?: Record<string, string> } }) =>
    o.metadata.labels?.[LABEL_INSTANCE_ID] ?? '';
  const activeIds = new Set<string>();
  const inactiveById = new Map<string, Pod>();
  for (const pod of pods) {
    const id = idOf(pod);
    if (!id) continue;
    if (isPodActive(pod)) activeIds.add(id);
    else inactiveById.set(id, pod);
  }
  const keep: PersistentVolumeClaim[] = [];
  const reown: Action[] = [];
  const deletes: Action[] = [];
  for (const pvc of pvcs) {
    const id = idOf(pvc);
    if (activeIds.has(id)) {
      keep.push(pvc);
      continue;
    }
    const pod = inactiveById.get(id);
    const name = pvc.metadata.name ?? '';
    const uid = pvc.metadata.uid ?? '';
    if (pod) {
      const others = (pvc.metadata.ownerReferences ?? []).filter((r) => r.uid !== cs.metadata.uid);
      const podOwner = newControllerRef('v1', 'Pod', pod);
      const already = others.some((r) => r.uid === podOwner.uid);
      reown.push({
        type: 'PatchPVCOwner',
        name,
        uid,
        ownerReferences: already ? others : [...others, podOwner],
      });
    } else {
      deletes.push({ type: 'DeletePVC', name, uid });
    }
  }
  return { keep, actions: [...reown, ...deletes] };
}
