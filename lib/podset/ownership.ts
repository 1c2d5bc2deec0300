/**
 * OpenKruise: Kubernetes pkg/controller/controller_ref_manager.go `PodControllerRefManager.ClaimPods` (which
 * pkg/controller/cloneset/cloneset_controller.go `claimPods` calls), apimachinery `metav1.GetControllerOf` and
 * `metav1.NewControllerRef`.
 *
 * Ownership of pods by a workload (docs/behaviour/cloneset.md#ownership): claiming active pods by controller
 * reference and selector, releasing pods that stopped matching, adopting pods without a controller reference. Pure:
 * returns the pods to work with plus the writes to perform.
 */
import { selectorMatches } from '../api/selector.js';
import type { JsonObject, LabelSelector, OwnerReference, Pod } from '../api/types.js';
import type { Action } from './actions.js';
import { isPodActive, podRef } from './pods.js';

/** The controller owner reference of an object, if any (`metav1.GetControllerOf`). */
export function controllerRef(refs: OwnerReference[] | undefined): OwnerReference | undefined {
  return (refs ?? []).find((r) => r.controller === true);
}

/**
 * A controller owner reference (`controller` and `blockOwnerDeletion` true) to `owner`, of `apiVersion`/`kind`
 * (`metav1.NewControllerRef`); a missing name or UID is written as `''`.
 */
export function newControllerRef(
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

/** The workload side of a claim: who claims (by the UID of its controller reference) and by which selector. */
export interface PodClaimer {
  /** The controller reference the workload writes on the pods it adopts; its `uid` names the workload. */
  controllerRef: OwnerReference;
  /** The workload's pod selector. */
  selector: LabelSelector;
  /** The workload is being deleted (`metadata.deletionTimestamp` set): nothing is released or adopted then. */
  deleting: boolean;
  /**
   * A filter beside the selector (Kubernetes' `ClaimPods` filters): a pod it refuses is treated as not matching —
   * released when the workload controls it, never adopted. An Advanced StatefulSet's is `isMemberOf` (the pod's
   * name is `<set>-<ordinal>`). Absent: the selector alone decides.
   */
  isMember?: (pod: Pod) => boolean;
  /**
   * Claim inactive pods (finished or terminating) too, as Kubernetes' `ClaimPods` does for a StatefulSet, whose
   * plan waits for a terminating pod at an ordinal; an inactive orphan is still never adopted. Default false:
   * OpenKruise's CloneSet claims active pods only.
   */
  includeInactive?: boolean;
}

function byName<T extends { metadata: { name?: string } }>(a: T, b: T): number {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Claim the workload's active pods (docs/behaviour/cloneset.md#ownership, Kubernetes' ref manager). For each
 * active pod:
 * - controller reference to another UID → ignored;
 * - controller reference to the workload and selector matches → claimed;
 * - controller reference to the workload, selector does not match → not claimed; unless the workload is being
 *   deleted, a `PatchPod` (reason `ReleaseOwnership`) removes that reference with the strategic-merge directive
 *   `{"metadata":{"ownerReferences":[{"$patch":"delete","uid":<uid>}]}}` (ownerReferences merge by `uid`);
 * - no controller reference, selector matches, the workload not being deleted → adopted and claimed: a `PatchPod`
 *   with {@link adoptPatch}. `PatchReason` has no adoption member, so the action carries `ReleaseOwnership` too
 *   (an ownership change); the patch body tells the two apart.
 * Inactive pods (finished or terminating) are claimed only with `includeInactive` and never adopted. Callers that
 * list only pods referencing the workload's UID never pass orphans without any reference
 * (docs/behaviour/cloneset.md#edge-foreign-pods).
 * @param owner the workload's controller reference, selector and deletion state
 * @param pods pods as listed (any order, active or not)
 * @returns claimed pods sorted by name, and the release/adopt patches in name order
 * @throws InvalidSelectorError when the selector is invalid (callers stop before this,
 * docs/behaviour/cloneset.md#reconcile-order)
 */
export function claimPods(owner: PodClaimer, pods: Pod[]): { claimed: Pod[]; actions: Action[] } {
  const uid = owner.controllerRef.uid;
  const claimed: Pod[] = [];
  const actions: Action[] = [];
  const candidates = owner.includeInactive ? [...pods] : pods.filter(isPodActive);
  for (const pod of candidates.sort(byName)) {
    const matches = selectorMatches(owner.selector, pod.metadata.labels) && (owner.isMember?.(pod) ?? true);
    const ref = controllerRef(pod.metadata.ownerReferences);
    if (ref) {
      if (ref.uid !== uid) continue;
      if (matches) claimed.push(pod);
      else if (!owner.deleting) {
        actions.push({
          type: 'PatchPod',
          pod: podRef(pod),
          reason: 'ReleaseOwnership',
          patch: { metadata: { ownerReferences: [{ $patch: 'delete', uid }] } },
        });
      }
      continue;
    }
    if (owner.deleting || !matches || !isPodActive(pod)) continue;
    actions.push({
      type: 'PatchPod',
      pod: podRef(pod),
      reason: 'ReleaseOwnership',
      patch: adoptPatch(owner.controllerRef),
    });
    claimed.push(pod);
  }
  return { claimed, actions };
}

/**
 * Whether `action` is an adoption of {@link claimPods}: a `PatchPod` whose patch adds a controller reference
 * ({@link adoptPatch}); a release carries the same reason with a `$patch: delete` instead.
 */
export function isAdoption(action: Action): boolean {
  if (action.type !== 'PatchPod' || action.reason !== 'ReleaseOwnership') return false;
  const metadata = action.patch.metadata;
  const refs =
    typeof metadata === 'object' && metadata !== null ? (metadata as JsonObject).ownerReferences : undefined;
  return (
    Array.isArray(refs) &&
    refs.some(
      (r) =>
        typeof r === 'object' && r !== null && !Array.isArray(r) && r.controller === true && !('$patch' in r),
    )
  );
}

/**
 * Strategic-merge patch that makes `ref`'s owner the pod's controller (adoption,
 * docs/behaviour/cloneset.md#ownership): the owner reference list merges by `uid`, so an existing non-controller
 * reference to the owner is turned into the controller reference.
 */
export function adoptPatch(ref: OwnerReference): JsonObject {
  return { metadata: { ownerReferences: [{ ...ref }] } };
}
