/**
 * The PodUnavailableBudget resource as the generic client addresses it (lib/kube/resource.ts):
 * `policy.kruise.io/v1beta1` podunavailablebudgets, namespaced, with the status subresource, as
 * infra/crds/policy.kruise.io_podunavailablebudgets.yaml serves it (v1beta1 is the storage version and the one
 * OpenKruise v1.9.0's controller and webhook read).
 */
import type { Resource } from '../../../kube/resource.js';
import type { PodUnavailableBudget } from './types.js';

/** The API group of PodUnavailableBudgets. */
export const POLICY_GROUP = 'policy.kruise.io';

/** The Kind of a PodUnavailableBudget. */
export const PUB_KIND_NAME = 'PodUnavailableBudget';

/** `policy.kruise.io/PodUnavailableBudget`: the kind of a PUB's `ObjectKey` and reconcile requests. */
export const PUB_KIND = `${POLICY_GROUP}/${PUB_KIND_NAME}`;

/** OpenKruise PodUnavailableBudgets, v1beta1 (namespaced; `status` subresource). */
export const PUB_RESOURCE = {
  group: POLICY_GROUP,
  version: 'v1beta1',
  plural: 'podunavailablebudgets',
  namespaced: true,
  kind: PUB_KIND_NAME,
} as Resource<PodUnavailableBudget>;
