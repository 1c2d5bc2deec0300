/**
 * The Advanced DaemonSet resource as the generic client addresses it (lib/kube/resource.ts): `apps.kruise.io/v1beta1`
 * daemonsets, namespaced, with the status subresource, as infra/crds/apps.kruise.io_daemonsets.yaml serves it
 * (v1beta1 is the storage version).
 */
import { GROUP } from '../../../api/keys.js';
import type { Resource } from '../../../kube/resource.js';
import type { DaemonSet } from './types.js';

/** The Kind of an Advanced DaemonSet. */
export const DAEMONSET_KIND_NAME = 'DaemonSet';

/**
 * `apps.kruise.io/v1beta1`: the apiVersion the controller reads and writes, and its pods' and revisions' owner
 * references name (OpenKruise v1.9.0's `controllerKind` is `appsv1beta1`'s).
 */
export const DAEMONSET_API_VERSION = `${GROUP}/v1beta1`;

/** `apps.kruise.io/DaemonSet`: the kind of a DaemonSet's `ObjectKey` and reconcile requests. */
export const DAEMONSET_KIND = `${GROUP}/${DAEMONSET_KIND_NAME}`;

/** OpenKruise DaemonSets, v1beta1 (namespaced; `status` subresource). */
export const DAEMONSET_RESOURCE = {
  group: GROUP,
  version: 'v1beta1',
  plural: 'daemonsets',
  namespaced: true,
  kind: DAEMONSET_KIND_NAME,
} as Resource<DaemonSet>;
