/**
 * OpenKruise: pkg/controller/cloneset/cloneset_controller.go `claimPods`, `cleanupPVCs`,
 * `updateClaimOwnerRefToPod` (Kubernetes' `PodControllerRefManager.ClaimPods` semantics).
 *
 * Ownership (docs/behaviour/cloneset.md#ownership): claiming active pods by controller reference and
 * selector, releasing pods that stopped matching, adopting pods without a controller reference, and — when
 * PVC reuse is disabled — cleaning up PVCs whose pods are gone. Pure: returns the pods/PVCs to work with plus
 * the writes to perform.
 */
import { KIND, LABEL_INSTANCE_ID, OWNER_API_VERSION } from '../api/keys.js';
import { selectorMatches } from '../api/selector.js';
import type { CloneSet, JsonObject, OwnerReference, PersistentVolumeClaim, Pod } from '../api/types.js';
import { isPodActive, podRef } from './pods.js';
import type { Action } from './types.js';

/** The controller owner reference of an object, if any. */
export function controllerRef(refs: OwnerReference[] | undefined): OwnerReference | undefined {
  return (refs ?? []).find((r) => r.controller === true);
}

/**
 * A controller owner reference (`controller` and `blockOwnerDeletion` true) to `owner`, of
 * `apiVersion`/`kind`.
 */
function controllerRefTo(
  apiVersion: string,
  kind: string,
  owner: { metadata: { name?: string; uid?: string } },
): OwnerReference {
  return {
    apiVersion,
    kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * The controller reference Kruiseless writes to pods, PVCs and revisions it creates for `cs`
 * (docs/behaviour/cloneset.md#new-pods, docs/behaviour/cloneset.md#pvcs).
 */
export function cloneSetControllerRef(cs: CloneSet): OwnerReference {
  return controllerRefTo(OWNER_API_VERSION, KIND, cs);
}

function byName<T extends { metadata: { name?: string } }>(a: T, b: T): number {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Claim the CloneSet's active pods (docs/behaviour/cloneset.md#ownership, OpenKruise's ref manager). For each
 * active pod:
 * - controller reference to another UID → ignored;
 * - controller reference to `cs` and selector matches → claimed;
 * - controller reference to `cs`, selector does not match → not claimed; unless `cs` is being deleted, a
 *   `PatchPod` (reason `ReleaseOwnership`) removes that reference with the strategic-merge directive
 *   `{"metadata":{"ownerReferences":[{"$patch":"delete","uid":<cs uid>}]}}` (ownerReferences merge by `uid`);
 * - no controller reference, selector matches, `cs` not being deleted → adopted and claimed: a `PatchPod`
 *   with
 *   {@link adoptPatch}. `PatchReason` has no adoption member, so the action carries `ReleaseOwnership` too
 * (an   ownership change); the patch body tells the two apart.
 * Inactive pods (finished or terminating) are never claimed. The caller lists only pods referencing the
 * CloneSet's UID, so orphans without any reference never reach here in practice
 * (docs/behaviour/cloneset.md#edge-foreign-pods).
 * @param cs the CloneSet (UID, selector, deletionTimestamp)
 * @param pods pods as listed (any order, active or not)
 * @returns claimed pods sorted by name, and the release/adopt patches in name order
 * @throws InvalidSelectorError when the selector is invalid (callers stop before this,
 * docs/behaviour/cloneset.md#reconcile-order)
 */
export function claimPods(cs: CloneSet, pods: Pod[]): { claimed: Pod[]; actions: Action[] } {
  const uid = cs.metadata.uid ?? '';
  const deleting = !!cs.metadata.deletionTimestamp;
  const claimed: Pod[] = [];
  const actions: Action[] = [];
  for (const pod of [...pods].filter(isPodActive).sort(byName)) {
    const matches = selectorMatches(cs.spec.selector, pod.metadata.labels);
    const ref = controllerRef(pod.metadata.ownerReferences);
    if (ref) {
      if (ref.uid !== uid) continue;
      if (matches) claimed.push(pod);
      else if (!deleting) {
        actions.push({
          type: 'PatchPod',
          pod: podRef(pod),
          reason: 'ReleaseOwnership',
          patch: { metadata: { ownerReferences: [{ $patch: 'delete', uid }] } },
        });
      }
      continue;
    }
    if (deleting || !matches) continue;
    actions.push({ type: 'PatchPod', pod: podRef(pod), reason: 'ReleaseOwnership', patch: adoptPatch(cs) });
    claimed.push(pod);
  }
  return { claimed, actions };
}

/**
 * Strategic-merge patch that makes `cs` the pod's controller (adoption,
 * docs/behaviour/cloneset.md#ownership): the owner reference list merges by `uid`, so an existing
 * non-controller reference to `cs` is turned into the controller reference.
 */
export function adoptPatch(cs: CloneSet): JsonObject {
  return { metadata: { ownerReferences: [{ ...cloneSetControllerRef(cs) }] } };
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
      const podOwner = controllerRefTo('v1', 'Pod', pod);
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
