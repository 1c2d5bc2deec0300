/**
 * The WorkloadSpread resource as the generic client addresses it (lib/kube/resource.ts): `apps.kruise.io/v1beta1`
 * workloadspreads, namespaced, with the status subresource, as infra/crds/apps.kruise.io_workloadspreads.yaml serves
 * it (v1beta1 is the storage version and the one OpenKruise v1.9.0's controller and webhook read); and the target
 * workloads it reads.
 */
import type { LabelSelector, ObjectMeta, OwnerReference } from '../../../api/types.js';
import type { Resource } from '../../../kube/resource.js';
import type { WorkloadSpread } from './types.js';

/** The API group of WorkloadSpreads. */
export const APPS_KRUISE_GROUP = 'apps.kruise.io';

/** The Kind of a WorkloadSpread. */
export const WORKLOADSPREAD_KIND_NAME = 'WorkloadSpread';

/** `apps.kruise.io/WorkloadSpread`: the kind of a WorkloadSpread's `ObjectKey` and reconcile requests. */
export const WORKLOADSPREAD_KIND = `${APPS_KRUISE_GROUP}/${WORKLOADSPREAD_KIND_NAME}`;

/** OpenKruise WorkloadSpreads, v1beta1 (namespaced; `status` subresource). */
export const WORKLOADSPREAD_RESOURCE = {
  group: APPS_KRUISE_GROUP,
  version: 'v1beta1',
  plural: 'workloadspreads',
  namespaced: true,
  kind: WORKLOADSPREAD_KIND_NAME,
} as Resource<WorkloadSpread>;

/** A target workload as the WorkloadSpread reads it: identity, owners, replicas, selector, template, status. */
export interface SpreadWorkload {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta & { ownerReferences?: OwnerReference[] };
  spec?: { replicas?: number; parallelism?: number; selector?: LabelSelector; [key: string]: unknown };
  status?: { updateRevision?: string; observedGeneration?: number; [key: string]: unknown };
}

const workload = (group: string, version: string, plural: string, kind: string) =>
  ({ group, version, plural, namespaced: true, kind }) as Resource<SpreadWorkload>;

/**
 * The workloads a WorkloadSpread targets in this cut, by key: CloneSet, Deployment, the ReplicaSet between a
 * Deployment and its pods, StatefulSet (`apps`), Advanced StatefulSet (`apps.kruise.io`, Kind `StatefulSet`) and Job
 * (`batch`).
 */
export const SPREAD_WORKLOAD_RESOURCES = {
  CloneSet: workload(APPS_KRUISE_GROUP, 'v1alpha1', 'clonesets', 'CloneSet'),
  Deployment: workload('apps', 'v1', 'deployments', 'Deployment'),
  ReplicaSet: workload('apps', 'v1', 'replicasets', 'ReplicaSet'),
  StatefulSet: workload('apps', 'v1', 'statefulsets', 'StatefulSet'),
  AdvancedStatefulSet: workload(APPS_KRUISE_GROUP, 'v1beta1', 'statefulsets', 'StatefulSet'),
  Job: workload('batch', 'v1', 'jobs', 'Job'),
} as const;

/** One of {@link SPREAD_WORKLOAD_RESOURCES}' keys. */
export type SpreadWorkloadKind = keyof typeof SPREAD_WORKLOAD_RESOURCES;

/** The group of an `apiVersion` (`apps/v1` → `apps`, `v1` → ``). */
export function groupOf(apiVersion: string | undefined): string {
  const v = apiVersion ?? '';
  const slash = v.indexOf('/');
  return slash < 0 ? '' : v.slice(0, slash);
}

/**
 * The workload key of a reference this cut follows (group and Kind compared, version ignored: an Advanced
 * StatefulSet named through v1alpha1 or v1beta1 alike), or undefined for any other (a custom workload, read through
 * discovery: ../targets.ts `readCustomTargets`).
 */
export function spreadWorkloadOf(ref: {
  apiVersion?: string;
  kind?: string;
}): SpreadWorkloadKind | undefined {
  const group = groupOf(ref.apiVersion);
  for (const [key, resource] of Object.entries(SPREAD_WORKLOAD_RESOURCES))
    if (ref.kind === resource.kind && resource.group === group) return key as SpreadWorkloadKind;
  return undefined;
}

/**
 * The replicas a workload of `kind` asks for: a Job's `spec.parallelism`, any other's `spec.replicas`, 1 when absent
 * (the API server defaults both to 1). As upstream's `getPodJob` and `getWorkloadReplicas`.
 */
export function specReplicas(kind: SpreadWorkloadKind, workload: SpreadWorkload): number {
  return (kind === 'Job' ? workload.spec?.parallelism : workload.spec?.replicas) ?? 1;
}

/**
 * Whether the target is a StatefulSet of either group (upstream compares the Kind alone): its pods go to subsets by
 * ordinal, without the status ledger, and get no deletion cost.
 */
export function isStatefulTarget(ref: { kind?: string } | undefined): boolean {
  return ref?.kind === 'StatefulSet';
}
