/**
 * OpenKruise: pkg/controller/statefulset/stateful_pod_control.go `recordPodEvent`, `recordClaimEvent`;
 * stateful_set_control.go `deletePod` (its second FailedDelete), `updateStatefulSetPodsInPlace`
 * (SuccessfulUpdatePodInPlace / FailedUpdatePodInPlace); statefulset_resize_pvc.go `TryPatchPVC` (SuccessfulResize /
 * FailedResize).
 *
 * The Events an Advanced StatefulSet pass records for the outcome of each action, with upstream's reasons and
 * messages: `<Successful|Failed><Verb>` and `<verb> Pod <pod> in StatefulSet <set> successful` /
 * `… failed error: <error>`; for a claim `create Claim <claim> Pod <pod> in StatefulSet <set> success` /
 * `create Claim <claim> for Pod <pod> in StatefulSet <set> failed error: <error>`.
 */
import { EventReason } from '../../api/keys.js';
import type { KubeEvent } from '../../kube/types.js';
import type { Action } from '../../podset/actions.js';

type Verb = 'create' | 'update' | 'delete';

const title = (verb: Verb): string => verb[0].toUpperCase() + verb.slice(1);

/** Upstream `recordPodEvent`: the outcome of `verb` on pod `pod` of set `set` (`error` absent: success). */
export function podEvent(verb: Verb, set: string, pod: string, error?: string): KubeEvent {
  return error === undefined
    ? {
        type: 'Normal',
        reason: `Successful${title(verb)}`,
        message: `${verb} Pod ${pod} in StatefulSet ${set} successful`,
      }
    : {
        type: 'Warning',
        reason: `Failed${title(verb)}`,
        message: `${verb} Pod ${pod} in StatefulSet ${set} failed error: ${error}`,
      };
}

/** Upstream `recordClaimEvent` for a create: claim `claim` of pod `pod` of set `set` (`error` absent: success). */
export function claimEvent(set: string, pod: string, claim: string, error?: string): KubeEvent {
  return error === undefined
    ? {
        type: 'Normal',
        reason: EventReason.SuccessfulCreate,
        message: `create Claim ${claim} Pod ${pod} in StatefulSet ${set} success`,
      }
    : {
        type: 'Warning',
        reason: EventReason.FailedCreate,
        message: `create Claim ${claim} for Pod ${pod} in StatefulSet ${set} failed error: ${error}`,
      };
}

/** Upstream `recordClaimEvent` for a resize (`TryPatchPVC`): claim `claim` of pod `pod` (`error` absent: success). */
export function resizeEvent(set: string, pod: string, claim: string, error?: string): KubeEvent {
  return error === undefined
    ? {
        type: 'Normal',
        reason: 'SuccessfulResize',
        message: `resize Claim ${claim} Pod ${pod} in StatefulSet ${set} success`,
      }
    : {
        type: 'Warning',
        reason: 'FailedResize',
        message: `resize Claim ${claim} for Pod ${pod} in StatefulSet ${set} failed error: ${error}`,
      };
}

/**
 * The Events of an action that succeeded: a create or delete of a pod, an in-place update (message naming the
 * revision), an identity update (upstream `UpdateStatefulPod`); none for lifecycle, condition and PVC-owner
 * patches, which upstream makes without an Event.
 * @param set the StatefulSet's name
 * @param updateRevision the revision an in-place update without its own `revision` is made to
 */
export function actionSucceeded(a: Action, set: string, updateRevision: string): KubeEvent[] {
  switch (a.type) {
    case 'CreatePod':
      return [podEvent('create', set, a.pod.metadata.name ?? '')];
    case 'DeletePod':
      return [podEvent('delete', set, a.pod.name)];
    case 'PatchPod':
      if (a.reason === 'InPlaceUpdate')
        return [
          {
            type: 'Normal',
            reason: EventReason.SuccessfulUpdatePodInPlace,
            message: `successfully update pod ${a.pod.name} in-place(revision ${a.revision ?? updateRevision})`,
          },
        ];
      if (a.reason === 'UpdateIdentity') return [podEvent('update', set, a.pod.name)];
      return [];
    case 'ResizePVC':
      return [resizeEvent(set, a.pod.name, a.name)];
    default:
      return [];
  }
}

/**
 * The Events of an action that failed with `error` (the claim's own Event is the executor's, which knows which
 * claim failed).
 * @param set the StatefulSet's name
 */
export function actionFailed(a: Action, set: string, error: string, updateRevision: string): KubeEvent[] {
  switch (a.type) {
    case 'CreatePod':
      return [podEvent('create', set, a.pod.metadata.name ?? '', error)];
    case 'DeletePod':
      return [
        podEvent('delete', set, a.pod.name, error),
        {
          type: 'Warning',
          reason: EventReason.FailedDelete,
          message: `failed to delete pod ${a.pod.name}: ${error}`,
        },
      ];
    case 'PatchPod':
      if (a.reason === 'InPlaceUpdate')
        return [
          {
            type: 'Warning',
            reason: EventReason.FailedUpdatePodInPlace,
            message: `failed to update pod ${a.pod.name} in-place(revision ${a.revision ?? updateRevision}): ${error}`,
          },
        ];
      return [podEvent('update', set, a.pod.name, error)];
    case 'PatchPodStatus':
      return [podEvent('update', set, a.pod.name, error)];
    case 'CreatePVC':
      return [podEvent('create', set, a.podName, error)];
    case 'PatchPVCOwner':
      return [
        {
          type: 'Warning',
          reason: EventReason.FailedUpdate,
          message: `Could not update claim ${a.name} for delete policy ownerRefs: ${error}`,
        },
      ];
    case 'DeletePVC':
      return [];
    case 'ResizePVC':
      return [resizeEvent(set, a.pod.name, a.name, error)];
  }
}
