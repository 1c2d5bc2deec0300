/**
 * The Events the executor records for the outcome of each action, with OpenKruise's reasons and messages
 * (`SuccessfulCreate` / `FailedCreate` in `createPods`, `SuccessfulDelete` / `FailedDelete` in `deletePods`,
 * `SuccessfulUpdatePodInPlace` / `SuccessfulUpdatePodReCreate` and their `Failed…` in `updatePod`, all in
 * pkg/controller/cloneset/sync).
 */
import { EventReason } from '../../api/keys.js';
import type { Action } from '../../podset/actions.js';
import type { KubeEvent } from '../../kube/types.js';
import { goErrorText } from '../../kube/errors.js';

/**
 * The Normal Event for an action that succeeded, if upstream records one.
 * @param updateRevision name of the plan's update revision, named by a pod update whose action carries no
 * `revision` (OpenKruise v1.9's messages name the revision the pod is updated to)
 */
export function successEvent(a: Action, updateRevision: string): KubeEvent | undefined {
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
          message: `successfully update pod ${a.pod.name} in-place(revision ${a.revision ?? updateRevision})`,
        };
      }
      if (a.reason === 'RecreateUpdate') {
        return {
          type: 'Normal',
          reason: EventReason.SuccessfulUpdatePodReCreate,
          message: `successfully patch pod ${a.pod.name} specified-delete for update(revision ${a.revision ?? updateRevision})`,
        };
      }
      return undefined;
    default:
      return undefined;
  }
}

/**
 * The Warning Event for an action that failed with `error`, with OpenKruise's reason and message for it. The error
 * is written as Go prints it (an API error's Status message alone, {@link goErrorText}); a failed pod create is
 * `failed to create pod: <error>, pod: <the pod sent, as JSON>` (OpenKruise's `createOnePod` dumps its Go pod
 * struct there: same values, Go's field order and zero values, and without the readiness gate its pod webhook adds).
 * @param updateRevision name of the plan's update revision, for a pod update whose action carries no `revision`
 */
export function failureEvent(a: Action, error: Error, updateRevision: string): KubeEvent {
  const warning = (reason: string, message: string): KubeEvent => ({ type: 'Warning', reason, message });
  const text = goErrorText(error);
  switch (a.type) {
    case 'CreatePod':
      return warning(
        EventReason.FailedCreate,
        `failed to create pod: ${text}, pod: ${JSON.stringify(a.pod)}`,
      );
    case 'DeletePod':
      return warning(EventReason.FailedDelete, `failed to delete pod ${a.pod.name}: ${text}`);
    case 'DeletePVC':
      return warning(EventReason.FailedDelete, `failed to delete pvc ${a.name}: ${text}`);
    case 'PatchPod':
      if (a.reason === 'InPlaceUpdate') {
        return warning(
          EventReason.FailedUpdatePodInPlace,
          `failed to update pod ${a.pod.name} in-place(revision ${a.revision ?? updateRevision}): ${text}`,
        );
      }
      if (a.reason === 'RecreateUpdate') {
        return warning(
          EventReason.FailedUpdatePodReCreate,
          `failed to patch pod specified-delete ${a.pod.name} for update(revision ${a.revision ?? updateRevision}): ${text}`,
        );
      }
      return warning(EventReason.FailedUpdate, text);
    default:
      return warning(EventReason.FailedUpdate, text);
  }
}
