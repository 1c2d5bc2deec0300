/**
 * OpenKruise: pkg/controller/statefulset/statefulset_controller.go `getPodsForStatefulSet`, stateful_set_utils.go
 * `isMemberOf`; Kubernetes pkg/controller/controller_ref_manager.go `ClaimPods`.
 *
 * The pods an Advanced StatefulSet works with: those it controls that still match its selector and are named
 * `<set>-<ordinal>`, plus the orphans (no controller reference) that match both, which it adopts; a pod it
 * controls that stopped matching is released. Pure: the claim itself is lib/podset/ownership.ts `claimPods`.
 */
import type { Pod } from '../../../api/types.js';
import type { Action } from '../../../podset/actions.js';
import { claimPods, controllerRef, newControllerRef, type PodClaimer } from '../../../podset/ownership.js';
import { STATEFULSET_API_VERSION, STATEFULSET_KIND_NAME } from '../api/resource.js';
import type { StatefulSet } from '../api/types.js';
import { parentAndOrdinal } from './ordinals.js';

/** Upstream `isMemberOf`: the pod's name is `<set name>-<ordinal>`. */
export function isMemberOf(sts: StatefulSet, pod: Pod): boolean {
  return parentAndOrdinal(pod.metadata.name ?? '').parent === (sts.metadata.name ?? '');
}

/**
 * The set as the claimer of its pods: its controller reference, selector, deletion state, the `isMemberOf` filter,
 * and inactive pods claimed too (a terminating pod holds its ordinal).
 */
export function statefulSetPodClaimer(sts: StatefulSet): PodClaimer {
  return {
    controllerRef: newControllerRef(STATEFULSET_API_VERSION, STATEFULSET_KIND_NAME, sts),
    selector: sts.spec.selector ?? {},
    deleting: !!sts.metadata.deletionTimestamp,
    isMember: (pod) => isMemberOf(sts, pod),
    includeInactive: true,
  };
}

/**
 * The set's pods of `listed` (its own and orphans, as the pass reads them) and the adopt/release patches, in name
 * order. A pod controlled by another owner is ignored.
 * @throws InvalidSelectorError for an invalid selector (validation stops the plan before this)
 */
export function claimStatefulSetPods(
  sts: StatefulSet,
  listed: readonly Pod[],
): { pods: Pod[]; actions: Action[] } {
  const uid = sts.metadata.uid ?? '';
  const { claimed, actions } = claimPods(
    statefulSetPodClaimer(sts),
    listed.filter((p) => {
      const ref = controllerRef(p.metadata.ownerReferences);
      return !ref || ref.uid === uid;
    }),
  );
  return { pods: claimed, actions };
}
