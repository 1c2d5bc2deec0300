/**
 * The Events the executor records for the outcome of each action, with OpenKruise's reasons and messages
 * (`SuccessfulCreate` / `FailedCreate` in `createPods`, `SuccessfulDelete` / `FailedDelete` in `deletePods`,
 * `SuccessfulUpdatePodInPlace` / `SuccessfulUpdatePodReCreate` and their `Failed…` in `updatePod`, all in
 * pkg/controller/cloneset/sync).
 */
import { EventReason } from '../api/keys.js';
import type { Action } from '../cloneset/types.js';
import type { CloneSetEvent } from '../kube/types.js';

/** The Normal Event for an action that succeeded, if upstream records one. */
export function successEvent(a: Action): CloneSetEvent | undefined {
  switch (a.type) {
    case 'CreatePod':
      return {
        type: 'Normal',
        reason: EventReason.SuccessfulCreate,
        message: `succeed to create pod ${a.pod.metadata.name}`,
      };
    case 'DeletePod':
      return {
        type: 'Normal',
        reason: EventReason.SuccessfulDelete,
        message: `succeed to delete pod ${a.pod.name}`,
      };
    case 'PatchPod':
      if (a.reason === 'InPlaceUpdate') {
        return {
          type: 'Normal',
          reason: EventReason.SuccessfulUpdatePodInPlace,
          message: `successfully update pod ${a.pod.name} in-place`,
        };
      }
      if (a.reason === 'RecreateUpdate') {
        return {
          type: 'Normal',
          reason: EventReason.SuccessfulUpdatePodReCreate,
          message: `successfully update pod ${a.pod.name} recreate`,
        };
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The Warning Event for an action that failed with `error`. */
export function failureEvent(a: Action, error: Error): CloneSetEvent {
  const reason =
    a.type === 'CreatePod'
      ? EventReason.FailedCreate
      : a.type === 'DeletePod' || a.type === 'DeletePVC'
        ? EventReason.FailedDelete
        : a.type === 'PatchPod' && a.reason === 'InPlaceUpdate'
          ? EventReason.FailedUpdatePodInPlace
          : a.type === 'PatchPod' && a.reason === 'RecreateUpdate'
            ? EventReason.FailedUpdatePodReCreate
            : EventReason.FailedUpdate;
  return { type: 'Warning', reason, message: error.message };
}
