/**
 * The SidecarSet resource as infra/crds/apps.kruise.io_sidecarsets.yaml serves it: `apps.kruise.io/v1alpha1`
 * sidecarsets, cluster-scoped, with the status subresource.
 */
import type { Resource } from '../../../kube/index.js';

/** apps.kruise.io/v1alpha1 SidecarSets. */
export const SIDECARSET_RESOURCE: Resource = {
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'sidecarsets',
  namespaced: false,
  kind: 'SidecarSet',
};

/** core/v1 Namespaces (cluster-scoped): a SidecarSet's `namespaceSelector` is matched against their labels. */
export const NAMESPACE_RESOURCE: Resource = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  namespaced: false,
  kind: 'Namespace',
};
