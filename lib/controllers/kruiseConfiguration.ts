/**
 * OpenKruise's `kruise-system/kruise-configuration` ConfigMap (pkg/util/configuration, v1.9.0): the settings users
 * keep in the cluster beside the feature gates — the SidecarSet `patchPodMetadata` whitelist and the WorkloadSpread
 * custom-workload whitelist, each a JSON document under its own key. Kruiseless reads the same ConfigMap, so an
 * install configured for OpenKruise keeps its meaning. One reader for every controller that uses an entry.
 */
import type { PolicyRule, ResourceAccess } from '../kube/access.js';
import { isNotFound } from '../kube/errors.js';
import { RESOURCES } from '../kube/resources.js';
import type { KubeClient } from '../kube/types.js';

/** Where upstream's `getKruiseConfiguration` reads (the manager's namespace, `kruise-system` by default). */
export const KRUISE_CONFIGURATION = { namespace: 'kruise-system', name: 'kruise-configuration' } as const;

/**
 * The text under `key` in the `kruise-configuration` ConfigMap, undefined when the ConfigMap or the key is missing
 * (upstream reads a missing ConfigMap as an empty one).
 * @throws KubeApiError when the read fails otherwise (a 403 where the reader may not read it)
 */
export async function kruiseConfigurationEntry(
  kube: Pick<KubeClient, 'get'>,
  key: string,
): Promise<string | undefined> {
  let cm;
  try {
    cm = await kube.get(RESOURCES.configmaps, KRUISE_CONFIGURATION);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
  return cm?.data?.[key];
}

/** The one read of the ConfigMap (RBAC: `get` on it by name; a ConfigMap of any other name stays unreadable). */
export const KRUISE_CONFIGURATION_ACCESS: ResourceAccess = {
  verb: 'get',
  resource: 'configmaps',
  name: KRUISE_CONFIGURATION.name,
};

/** The ClusterRole rule of that read (a ClusterRole names no namespace: the name alone narrows it). */
export const KRUISE_CONFIGURATION_RULE: PolicyRule = {
  apiGroups: [''],
  resources: ['configmaps'],
  resourceNames: [KRUISE_CONFIGURATION.name],
  verbs: ['get'],
  comment: [
    "OpenKruise's kruise-system/kruise-configuration ConfigMap, by name: the WorkloadSpread custom-workload and",
    'SidecarSet patchPodMetadata whitelists. A ClusterRole names no namespace, so it allows a ConfigMap of that name',
    'in any namespace; Kruiseless reads only kruise-system. No ConfigMap of another name can be read.',
  ],
};
