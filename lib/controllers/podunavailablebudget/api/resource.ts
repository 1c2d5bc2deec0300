/**
 * The PodUnavailableBudget resource as the generic client addresses it (lib/kube/resource.ts):
 * `policy.kruise.io/v1beta1` podunavailablebudgets, namespaced, with the status subresource, as
 * infra/crds/policy.kruise.io_podunavailablebudgets.yaml serves it (v1beta1 is the storage version and the one
 * OpenKruise v1.9.0's controller and webhook read).
 */
import type { LabelSelector, ObjectMeta } from '../../../api/types.js';
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

/** A workload as the budget reads it: its identity, `spec.replicas` and `spec.selector`. */
export interface PubWorkload {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: { replicas?: number; selector?: LabelSelector };
}

const workload = (group: string, version: string, plural: string, kind: string) =>
  ({ group, version, plural, namespaced: true, kind }) as Resource<PubWorkload>;

/**
 * The workloads whose replicas the budget reads (OpenKruise's `controllerfinder` finders, in their order), each at
 * the version this cluster serves: the group and Kind of a reference decide, its version is ignored.
 */
export const PUB_WORKLOAD_RESOURCES = {
  ReplicationController: workload('', 'v1', 'replicationcontrollers', 'ReplicationController'),
  Deployment: workload('apps', 'v1', 'deployments', 'Deployment'),
  ReplicaSet: workload('apps', 'v1', 'replicasets', 'ReplicaSet'),
  StatefulSet: workload('apps', 'v1', 'statefulsets', 'StatefulSet'),
  CloneSet: workload('apps.kruise.io', 'v1alpha1', 'clonesets', 'CloneSet'),
  AdvancedStatefulSet: workload('apps.kruise.io', 'v1beta1', 'statefulsets', 'StatefulSet'),
} as const;

/** One of {@link PUB_WORKLOAD_RESOURCES}' keys. */
export type PubWorkloadKind = keyof typeof PUB_WORKLOAD_RESOURCES;
