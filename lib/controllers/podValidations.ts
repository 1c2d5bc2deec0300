/**
 * The pod validating webhook (`/validate-pod`: pods DELETE and `pods/eviction` CREATE, and UPDATE under the
 * PodUnavailableBudget's gate) in the order OpenKruise v1.9.0's `validatingPodFn`
 * (pkg/webhook/pod/validating/pod_create_update_handler.go) runs its checks: for a deletion or eviction the
 * WorkloadSpread's record first (a failure refuses), then the PodUnavailableBudget's decision, which answers.
 */
import type { MutationAnswer } from '../api/admission/mutation.js';
import type { KubeClient } from '../kube/types.js';
import { RESOURCES } from '../kube/resources.js';
import { answerPodValidation, kubePubWebhookDeps } from './podunavailablebudget/podWebhook.js';
import { recordPodDeletion } from './workloadspread/podDeletion.js';
import { kubeWorkloadSpreadWebhookDeps } from './workloadspread/podWebhook.js';

/**
 * The `/validate-pod` answer over the cluster's client.
 * @param settings controller name → its parsed settings (`workloadspread`, `podunavailablebudget`)
 * @returns a function that never throws: the WorkloadSpread's refusal, else the PUB's answer
 */
export function podValidation(
  kube: Pick<KubeClient, 'get' | 'list' | 'replace' | 'recordEvent'>,
  settings: Readonly<Record<string, unknown>> = {},
): (body: string) => Promise<MutationAnswer> {
  const pubDeps = kubePubWebhookDeps(kube, settings.podunavailablebudget ?? {});
  const wsDeps = {
    ...kubeWorkloadSpreadWebhookDeps(kube, settings.workloadspread ?? {}),
    getPod: (namespace: string, name: string) => kube.get(RESOURCES.pods, { namespace, name }),
  };
  return async (body) => (await recordPodDeletion(body, wsDeps)) ?? answerPodValidation(body, pubDeps);
}
