/**
 * The readiness gate step of the pod mutating webhook (`/mutate-pod`, the first step as in OpenKruise v1.9.0's
 * `PodCreateHandler.Handle`, lib/controllers/podMutations.ts): OpenKruise's
 * pkg/webhook/pod/mutating/pod_readiness.go `injectPodReadinessGate`. A pod created under a controller of group
 * `apps.kruise.io`, or any pod with gate `KruisePodReadinessGate` on, gets the `KruisePodReady` readiness gate
 * (lib/podset/podReadiness.ts `withKruisePodReadyGate`); the condition is then the pod readiness concern's
 * (./pass.ts) or, for a Kruiseless workload's pod, its own pass's. Kruiseless's workloads create their pods with
 * the gate already, so for them the step changes nothing.
 */
import type { PodMutationStep } from '../../api/admission/podMutation.js';
import { withKruisePodReadyGate } from '../../podset/podReadiness.js';
import { kruisePodReadinessGateOn, type PodReadinessSettings } from './settings.js';

/**
 * The readiness gate step.
 * @param settings the pod registration's settings (gate `KruisePodReadinessGate`)
 * @returns a step that never refuses
 */
export function readinessGatePodStep(settings: PodReadinessSettings = {}): PodMutationStep {
  const everyPod = kruisePodReadinessGateOn(settings);
  return (pod) => Promise.resolve({ pod: withKruisePodReadyGate(pod, everyPod) });
}
