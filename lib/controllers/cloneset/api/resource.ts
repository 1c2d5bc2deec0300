/**
 * The CloneSet resource as the generic client addresses it (lib/kube/resource.ts): `apps.kruise.io/v1alpha1`
 * clonesets, namespaced, with the status subresource, the version infra/crds/apps.kruise.io_clonesets.yaml stores
 * (so the controller never needs the conversion webhook; v1beta1 is served beside it, README.md#cloneset-versions).
 */
import { GROUP, KIND } from '../../../api/keys.js';
import type { CloneSet } from '../../../api/types.js';
import type { Resource } from '../../../kube/resource.js';

/** OpenKruise CloneSets (namespaced; `status` subresource). */
export const CLONESET_RESOURCE = {
  group: GROUP,
  version: 'v1alpha1',
  plural: 'clonesets',
  namespaced: true,
  kind: KIND,
} as Resource<CloneSet>;
