/**
 * The embedded runtime's registration of its `/mutate` endpoint (./conversionServer.ts) with the API server: the
 * MutatingWebhookConfiguration of lib/api/admission/webhookConfiguration.ts, created or replaced at start and
 * deleted at stop, so a stopped `kruiseless local` leaves no webhook behind.
 */
import type { KubeObject } from '../kube/resource.js';
import type { Mutator } from '../api/admission/mutation.js';
import {
  mutatingWebhookConfiguration,
  type MutatingWebhookTarget,
} from '../api/admission/webhookConfiguration.js';
import { isNotFound, type KubeClient, type Resource } from '../kube/index.js';

/** The configuration's name for `kruiseless local`. */
export const LOCAL_MUTATING_WEBHOOK = 'kruiseless-local-defaults';

/** admissionregistration.k8s.io/v1 MutatingWebhookConfigurations (cluster-scoped). */
export const MUTATING_WEBHOOK_RESOURCE: Resource = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  plural: 'mutatingwebhookconfigurations',
  namespaced: false,
  kind: 'MutatingWebhookConfiguration',
};

/**
 * Creates the configuration for `mutators` at `target`, or replaces the one of that name.
 * @throws KubeApiError of the read or the write (e.g. 403 without the right to write webhook configurations)
 */
export async function registerMutatingWebhook(
  kube: Pick<KubeClient, 'get' | 'create' | 'replace'>,
  target: MutatingWebhookTarget,
  mutators: readonly Mutator[],
): Promise<void> {
  const wanted = mutatingWebhookConfiguration(target, mutators) as unknown as KubeObject;
  const current = await kube.get(MUTATING_WEBHOOK_RESOURCE, { name: target.name });
  if (!current) {
    await kube.create(MUTATING_WEBHOOK_RESOURCE, wanted);
    return;
  }
  const resourceVersion = current.metadata.resourceVersion;
  await kube.replace(MUTATING_WEBHOOK_RESOURCE, {
    ...wanted,
    metadata: { ...wanted.metadata, ...(resourceVersion ? { resourceVersion } : {}) },
  });
}

/**
 * Deletes the configuration `name`; one already gone is no error.
 * @throws KubeApiError of any other failed delete
 */
export async function unregisterMutatingWebhook(
  kube: Pick<KubeClient, 'delete'>,
  name: string,
): Promise<void> {
  await kube.delete(MUTATING_WEBHOOK_RESOURCE, { name }).catch((e: unknown) => {
    if (!isNotFound(e)) throw e;
  });
}
