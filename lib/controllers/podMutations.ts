/**
 * The steps of the pod mutating webhook (`/mutate-pod`, lib/api/admission/podMutation.ts), in the order OpenKruise
 * v1.9.0's `PodCreateHandler.Handle` (pkg/webhook/pod/mutating/pod_create_update_handler.go) runs them: the
 * `KruisePodReady` readiness gate (`injectPodReadinessGate`: pods of an `apps.kruise.io` controller, every pod under
 * gate `KruisePodReadinessGate`), WorkloadSpread (under its gate), SidecarSet injection, container launch priority
 * (which must follow the injection, so injected sidecars are ordered too), then the PodUnavailableBudget annotation
 * (under either PUB gate). PersistentPodState and the probe steps upstream runs after them are not served yet.
 */
import type { PodMutationStep } from '../api/admission/podMutation.js';
import type { KubeClient } from '../kube/types.js';
import { launchPriorityPodStep } from './containerlaunchpriority/podWebhook.js';
import { kubePubMutationReads, pubPodSteps } from './podunavailablebudget/podMutation.js';
import type { PubSettings } from './podunavailablebudget/settings.js';
import { podKind } from './podKind.js';
import { readinessGatePodStep } from './podreadiness/podWebhook.js';
import type { PodReadinessSettings } from './podreadiness/settings.js';
import { kubePodInjectionReads, sidecarSetPodSteps } from './sidecarset/podWebhook.js';
import type { SidecarSetSettings } from './sidecarset/settings.js';
import { kubeWorkloadSpreadWebhookDeps, workloadSpreadPodStep } from './workloadspread/podWebhook.js';
import type { WorkloadSpreadSettings } from './workloadspread/settings.js';

/**
 * The pod mutating steps over the cluster's client.
 * @param settings controller name → its parsed settings (the WorkloadSpread gate under `workloadspread`, the PUB gates
 *   under `podunavailablebudget`, the SidecarSet ones under `sidecarset`, `KruisePodReadinessGate` under `pod`)
 */
export function podMutationSteps(
  kube: Pick<KubeClient, 'get' | 'list' | 'replace' | 'serverResources' | 'getScale'>,
  settings: Readonly<Record<string, unknown>> = {},
): PodMutationStep[] {
  const ws = (settings.workloadspread ?? {}) as WorkloadSpreadSettings;
  const pub = (settings.podunavailablebudget ?? {}) as PubSettings;
  const sc = (settings.sidecarset ?? {}) as SidecarSetSettings;
  const pod = (settings[podKind.name] ?? {}) as PodReadinessSettings;
  const sidecarSet = sidecarSetPodSteps(kubePodInjectionReads(kube), undefined, Math.random, sc);
  const pubSteps = pubPodSteps(kubePubMutationReads(kube), pub);
  return [
    // before the prefetches, which read nothing of the pod's readiness gates
    readinessGatePodStep(pod),
    // the injection's and the PUB step's reads overlap WorkloadSpread's (round trips fewer per pod CREATE); each
    // step still runs in OpenKruise's place
    sidecarSet.prefetch,
    pubSteps.prefetch,
    workloadSpreadPodStep(kubeWorkloadSpreadWebhookDeps(kube, ws)),
    sidecarSet.inject,
    launchPriorityPodStep(),
    pubSteps.annotate,
  ];
}
