/**
 * The embedded runtime's registration of its `/mutate` and `/validate` endpoints (./conversionServer.ts) with the API
 * server: the MutatingWebhookConfiguration and ValidatingWebhookConfiguration of
 * lib/api/admission/webhookConfiguration.ts, created or replaced at start and deleted at stop, so a stopped
 * `kruiseless local` leaves no webhook behind.
 */
import type { KubeObject } from '../kube/resource.js';
import type { Mutator } from '../api/admission/mutation.js';
import type { Validator } from '../api/admission/validation.js';
import {
  mutatingWebhookConfiguration,
  validatingWebhookConfiguration,
  type MutatingWebhookTarget,
  type ValidatingWebhookTarget,
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

/** The configuration's name of `kruiseless local`'s validating webhook. */
export const LOCAL_VALIDATING_WEBHOOK = 'kruiseless-local-validation';

/** admissionregistration.k8s.io/v1 ValidatingWebhookConfigurations (cluster-scoped). */
export const VALIDATING_WEBHOOK_RESOURCE: Resource = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  plural: 'validatingwebhookconfigurations',
  namespaced: false,
  kind: 'ValidatingWebhookConfiguration',
};

/** Creates `wanted` of `resource`, or replaces the one of its name. */
async function createOrReplace(
  kube: Pick<KubeClient, 'get' | 'create' | 'replace'>,
  resource: Resource,
  wanted: KubeObject,
): Promise<void> {
  const current = await kube.get(resource, { name: wanted.metadata.name ?? '' });
  if (!current) {
    await kube.create(resource, wanted);
    return;
  }
  const resourceVersion = current.metadata.resourceVersion;
  await kube.replace(resource, {
    ...wanted,
    metadata: { ...wanted.metadata, ...(resourceVersion ? { resourceVersion } : {}) },
  });
}

/** Deletes the cluster-scoped object `name` of `resource`; one already gone is no error. */
async function deleteIfPresent(
  kube: Pick<KubeClient, 'delete'>,
  resource: Resource,
  name: string,
): Promise<void> {
  await kube.delete(resource, { name }).catch((e: unknown) => {
    if (!isNotFound(e)) throw e;
  });
}

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
  await createOrReplace(kube, MUTATING_WEBHOOK_RESOURCE, wanted);
}

/**
 * Creates the ValidatingWebhookConfiguration for `validators` at `target`, or replaces the one of that name.
 * @throws KubeApiError of the read or the write
 */
export async function registerValidatingWebhook(
  kube: Pick<KubeClient, 'get' | 'create' | 'replace'>,
  target: ValidatingWebhookTarget,
  validators: readonly Validator[],
): Promise<void> {
  const wanted = validatingWebhookConfiguration(target, validators) as unknown as KubeObject;
  await createOrReplace(kube, VALIDATING_WEBHOOK_RESOURCE, wanted);
}

/**
 * Deletes the ValidatingWebhookConfiguration `name`; one already gone is no error.
 * @throws KubeApiError of any other failed delete
 */
export async function unregisterValidatingWebhook(
  kube: Pick<KubeClient, 'delete'>,
  name: string,
): Promise<void> {
  await deleteIfPresent(kube, VALIDATING_WEBHOOK_RESOURCE, name);
}

/**
 * Deletes the configuration `name`; one already gone is no error.
 * @throws KubeApiError of any other failed delete
 */
export async function unregisterMutatingWebhook(
  kube: Pick<KubeClient, 'delete'>,
  name: string,
): Promise<void> {
  await deleteIfPresent(kube, MUTATING_WEBHOOK_RESOURCE, name);
}
