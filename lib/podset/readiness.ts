/**
 * OpenKruise: pkg/util/inplaceupdate/inplace_update.go `containsReadinessGate`; Kubernetes
 * pkg/kubelet/status/generate.go `GeneratePodReadyCondition`.
 *
 * Pod readiness gates (docs/behaviour/cloneset.md#readiness): whether a pod has a gate, and `Ready`
 * recomputed from the gates after one of their conditions changes (as the kubelet's
 * `GeneratePodReadyCondition` does). Pure; time comes in as `now`.
 */
import { REASON_READINESS_GATES_NOT_READY } from '../api/keys.js';
import type { Pod, PodCondition } from '../api/types.js';
import { metaTime } from '../api/time.js';

/** Whether the pod spec lists a readiness gate of condition `type`. */
export function hasReadinessGate(pod: Pod, type: string): boolean {
  return (pod.spec.readinessGates ?? []).some((g) => g.conditionType === type);
}

/**
 * `Ready` recomputed from the pod's readiness gates (docs/behaviour/cloneset.md#readiness), only when `Ready`
 * exists and `ContainersReady` is True in `conditions`.
 * @param conditions the pod's conditions as they are after the gate change
 * @returns `Ready=True` with `lastTransitionTime` now when every gate's condition is True; otherwise
 * `Ready=False`,   reason `ReadinessGatesNotReady`, the unsatisfied gates' messages joined by `, ` and no
 * `lastTransitionTime`   (callers that stamp one add it); undefined when `Ready` is absent or
 * `ContainersReady` is not True
 */
export function readinessFromGates(
  pod: Pod,
  conditions: PodCondition[],
  now: Date,
): PodCondition | undefined {
  const get = (type: string) => conditions.find((c) => c.type === type);
  if (!get('Ready') || get('ContainersReady')?.status !== 'True') return undefined;
  const unready: string[] = [];
  for (const gate of pod.spec.readinessGates ?? []) {
    const c = get(gate.conditionType);
    if (!c)
      unready.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (c.status !== 'True')
      unready.push(`the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`);
  }
  return unready.length === 0
    ? { type: 'Ready', status: 'True', lastTransitionTime: metaTime(now) }
    : {
        type: 'Ready',
        status: 'False',
        reason: REASON_READINESS_GATES_NOT_READY,
        message: unready.join(', '),
      };
}
