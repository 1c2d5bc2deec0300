/**
 * The pod condition `SidecarSetUpgradable` (OpenKruise: `updatePodSidecarSetUpgradableCondition` in
 * `pkg/controller/sidecarset/sidecarset_processor.go`, with `GetMessageKvFromCondition` / `UpdateMessageKvCondition`
 * of `pkg/controller/util/pod_condition_utils.go` and Kubernetes' `UpdatePodCondition`). Pure.
 */
import { goJson } from '../../../api/goJson.js';
import type { JsonObject, Pod, PodCondition } from '../../../api/types.js';
import { getPodCondition } from '../../../podset/pods.js';
import { CONDITION_SIDECARSET_UPGRADABLE } from '../api/keys.js';
import { goTime } from './annotations.js';

/**
 * The condition after recording whether `sidecarSetName` can update the pod in place, or undefined when nothing
 * changes (upstream skips the patch then). The message is a JSON map of SidecarSet name → upgradable (Go's key
 * order); the status is True (reason `AllSidecarsetUpgradable`) when every entry is true, else False
 * (`UpdateImmutableField`); `lastTransitionTime` is `now` when the status changes, else kept. A message that is not
 * a JSON object yields undefined (upstream returns the parse error and writes nothing).
 */
export function upgradableCondition(
  pod: Pod,
  sidecarSetName: string,
  upgradable: boolean,
  now: Date,
): PodCondition | undefined {
  const old = getPodCondition(pod, CONDITION_SIDECARSET_UPGRADABLE);
  let kv: JsonObject = {};
  if (old?.message) {
    try {
      const parsed = JSON.parse(old.message) as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
      kv = parsed as JsonObject;
    } catch {
      return undefined;
    }
  }
  kv[sidecarSetName] = upgradable;
  const all = Object.values(kv).every((v) => v !== false);
  const status = all ? 'True' : 'False';
  const next: PodCondition = {
    type: CONDITION_SIDECARSET_UPGRADABLE,
    status,
    lastProbeTime: old?.lastProbeTime ?? null,
    lastTransitionTime: old && old.status === status ? (old.lastTransitionTime ?? null) : goTime(now),
    reason: all ? 'AllSidecarsetUpgradable' : 'UpdateImmutableField',
    message: goJson(kv),
  };
  const same =
    old !== undefined &&
    old.status === next.status &&
    old.reason === next.reason &&
    old.message === next.message &&
    (old.lastProbeTime ?? null) === next.lastProbeTime &&
    (old.lastTransitionTime ?? null) === next.lastTransitionTime;
  return same ? undefined : next;
}
