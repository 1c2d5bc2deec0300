/**
 * The container launch priority step of the pod mutating webhook (`/mutate-pod`, after SidecarSet injection as in
 * OpenKruise v1.9.0's `PodCreateHandler.Handle`, so injected sidecars get a barrier too): OpenKruise's
 * pkg/webhook/pod/mutating/container_launch_priority_initialization.go. A pod that asks for an order
 * (lib/podset/launchPriority.ts `requestedPriorities`) gets the barrier env on every container, and a name when it
 * was sent with `generateName` only (the barrier ConfigMap is named after the pod). A priority that is not an integer
 * refuses the pod with HTTP 500 and Go's `strconv.Atoi` message, as upstream's `admission.Errored`. The barrier itself
 * is the controller's (./pass.ts): without it the kubelet starts no container of the pod.
 */
import type { PodMutationStep } from '../../api/admission/podMutation.js';
import { generatedName } from '../../api/generatedName.js';
import type { Pod } from '../../api/types.js';
import { requestedPriorities, withBarrierEnv } from '../../podset/launchPriority.js';
import { randomSuffix } from '../../reconcile/pods/randomSuffix.js';

/**
 * The name upstream gives a pod without one (apiserver `SimpleNameGenerator`): `generateName` cut to 58 characters
 * and 5 random ones; the pod's own name when it has one.
 */
function podNameOf(pod: Pod, suffix: () => string): string {
  const { name, generateName } = pod.metadata;
  if (name) return name;
  return generateName ? generatedName(generateName, suffix()) : '';
}

/**
 * The launch priority step.
 * @param suffix the random part of a generated name (tests pin it)
 * @returns a step that never rejects: a refusal (500) for a priority that is not an integer
 */
export function launchPriorityPodStep(suffix: () => string = randomSuffix): PodMutationStep {
  return (pod) => {
    const priorities = requestedPriorities(pod);
    if (priorities === undefined) return Promise.resolve({ pod });
    if (!Array.isArray(priorities))
      return Promise.resolve({ refuse: { code: 500, message: priorities.message } });
    return Promise.resolve({ pod: withBarrierEnv(pod, priorities, podNameOf(pod, suffix)) });
  };
}
