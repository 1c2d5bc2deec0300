/**
 * The BroadcastJob resource as the generic client addresses it (lib/kube/resource.ts): `apps.kruise.io/v1beta1`
 * broadcastjobs, namespaced, with the status subresource, as infra/crds/apps.kruise.io_broadcastjobs.yaml serves it
 * (v1beta1 is the storage version).
 */
import { GROUP } from '../../../api/keys.js';
import type { Resource } from '../../../kube/resource.js';
import type { BroadcastJob } from './types.js';

/** The Kind of a BroadcastJob. */
export const BROADCASTJOB_KIND_NAME = 'BroadcastJob';

/**
 * `apps.kruise.io/v1beta1`: the apiVersion the controller reads and writes, and its pods' owner references name
 * (OpenKruise v1.9.0's `controllerKind` is `appsv1beta1`'s).
 */
export const BROADCASTJOB_API_VERSION = `${GROUP}/v1beta1`;

/** `apps.kruise.io/BroadcastJob`: the kind of a BroadcastJob's `ObjectKey` and reconcile requests. */
export const BROADCASTJOB_KIND = `${GROUP}/${BROADCASTJOB_KIND_NAME}`;

/** OpenKruise BroadcastJobs, v1beta1 (namespaced; `status` subresource). */
export const BROADCASTJOB_RESOURCE = {
  group: GROUP,
  version: 'v1beta1',
  plural: 'broadcastjobs',
  namespaced: true,
  kind: BROADCASTJOB_KIND_NAME,
} as Resource<BroadcastJob>;
