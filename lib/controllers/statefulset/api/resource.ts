/**
 * The Advanced StatefulSet resource as the generic client addresses it (lib/kube/resource.ts):
 * `apps.kruise.io/v1beta1` statefulsets, namespaced, with the status and scale subresources, as
 * infra/crds/apps.kruise.io_statefulsets.yaml serves it (v1beta1 is the storage version).
 */
import { GROUP } from '../../../api/keys.js';
import type { Resource } from '../../../kube/resource.js';
import type { StatefulSet } from './types.js';

/** The Kind of an Advanced StatefulSet (`apps.kruise.io`'s `StatefulSet`, not apps/v1's). */
export const STATEFULSET_KIND_NAME = 'StatefulSet';

/** `apps.kruise.io/v1beta1`: the apiVersion the controller reads and writes, and its pods' owner references name. */
export const STATEFULSET_API_VERSION = `${GROUP}/v1beta1`;

/** `apps.kruise.io/StatefulSet`: the kind of an Advanced StatefulSet's `ObjectKey` and reconcile requests. */
export const STATEFULSET_KIND = `${GROUP}/${STATEFULSET_KIND_NAME}`;

/** OpenKruise Advanced StatefulSets, v1beta1 (namespaced; `status` and `scale` subresources). */
export const STATEFULSET_RESOURCE = {
  group: GROUP,
  version: 'v1beta1',
  plural: 'statefulsets',
  namespaced: true,
  kind: STATEFULSET_KIND_NAME,
} as Resource<StatefulSet>;
