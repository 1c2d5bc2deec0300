/**
 * OpenKruise: pkg/control/pubcontrol/pub_control.go `GetPodsForPub` over pkg/util/controllerfinder (`GetPodsForRef`,
 * `GetExpectedScaleForPods`, the finders), v1.9.0, with the informer cache replaced by quorum reads.
 *
 * The pods a PUB covers and the replicas it expects:
 * - `targetRef`: the named workload (group and Kind; version ignored). Gone, terminating or at 0 replicas: no pods,
 *   0. Else its `spec.replicas`, and the namespace's active pods with an owner reference to it (a Deployment: to one
 *   of its live ReplicaSets, or to itself when it has none).
 * - `targetRef` to any other kind with a scale subresource (lib/kube/scaleFinder.ts): the scale's `spec.replicas`,
 *   and the active pods with an owner reference to it, or when none has, the pods its `status.selector` matches (a
 *   workload whose pods belong to an intermediate object, as a Deployment's).
 * - else `selector`: absent or invalid: no pods, 0 (and `protectTotalReplicas` is not read). Else the namespace's
 *   active pods it matches, and the sum of `spec.replicas` over their distinct controllers (a ReplicaSet's pods count
 *   its Deployment; a controller of another kind counts its scale's replicas; a controller gone or terminating counts
 *   nothing; a controller without a scale subresource counts -1, as OpenKruise's `ReplicasUnknown`).
 * - `spec.protectTotalReplicas`, when set, replaces the expected replicas.
 * Kruiseless gap: a `targetRef` to a kind without a scale subresource (a DaemonSet, a Job) covers no pods, and such a
 * controller counts -1 whether it exists or not: OpenKruise reads the object itself (`getRefUID`) under a `list`
 * grant on every resource, which Kruiseless's roles do not hold (secrets among them).
 */
import type { Pod } from '../../api/types.js';
import { selectorString } from '../../api/selector.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { findScaledWorkload, SCALED_NOT_FOUND, type ScaleReads } from '../../kube/scaleFinder.js';
import { controllerRef } from '../../podset/ownership.js';
import { isPodActive } from '../../podset/pods.js';
import { PUB_WORKLOAD_RESOURCES, type PubWorkload, type PubWorkloadKind } from './api/resource.js';
import type { PodUnavailableBudget } from './api/types.js';
import { workloadKindOf } from './plan/targets.js';

/** The reads the resolution makes (discovery and scale reads, when the client has them, for other kinds). */
export type TargetReads = Pick<KubeClient, 'get' | 'list'> & ScaleReads;

/** A resolved workload: its reference, UID and replicas. */
export interface FoundWorkload {
  kind: PubWorkloadKind;
  object: PubWorkload;
  /** `spec.replicas` (1 when absent, the workloads' defaults). */
  replicas: number;
}

/** The pods a PUB covers and the replicas it expects. */
export interface PubTargets {
  pods: Pod[];
  expectedCount: number;
}

const uidOf = (o: { metadata: { uid?: string } }) => o.metadata.uid ?? '';
const deleting = (o: { metadata: { deletionTimestamp?: string | null } }) => !!o.metadata.deletionTimestamp;

/**
 * The workload `apiVersion`/`kind`/`name` names in `namespace` (a ReplicaSet controlled by a Deployment resolves to
 * the Deployment when `followDeployment`), checked against `uid` when given.
 * @returns undefined when the kind is not one of {@link PUB_WORKLOAD_RESOURCES}, or it does not exist, or its UID
 *   differs
 * @throws KubeApiError when a read fails
 */
export async function findWorkload(
  kube: TargetReads,
  namespace: string,
  ref: { apiVersion?: string; kind?: string; name?: string; uid?: string },
  followDeployment = true,
): Promise<FoundWorkload | undefined> {
  const kind = workloadKindOf(ref.apiVersion, ref.kind);
  if (!kind || !ref.name) return undefined;
  const object = await kube.get(PUB_WORKLOAD_RESOURCES[kind], { namespace, name: ref.name });
  if (!object || (ref.uid && uidOf(object) !== ref.uid)) return undefined;
  if (kind === 'ReplicaSet' && followDeployment) {
    const owner = controllerRef(object.metadata.ownerReferences);
    if (owner?.kind === 'Deployment')
      return findWorkload(kube, namespace, {
        apiVersion: owner.apiVersion,
        kind: owner.kind,
        name: owner.name,
        uid: owner.uid,
      });
  }
  return { kind, object, replicas: object.spec?.replicas ?? 1 };
}

async function activePods(kube: TargetReads, namespace: string, labelSelector?: string): Promise<Pod[]> {
  const listed = await listAll(
    kube,
    RESOURCES.pods,
    { namespace, limit: LIST_PAGE_SIZE, ...(labelSelector ? { labelSelector } : {}) },
    isPodActive,
  );
  return listed.items;
}

/** The UIDs whose pods a Deployment's budget covers: its live ReplicaSets', or its own when it has none. */
async function deploymentOwnerUids(
  kube: TargetReads,
  namespace: string,
  deployment: PubWorkload,
): Promise<string[]> {
  const selector = deployment.spec?.selector;
  let labelSelector: string;
  try {
    labelSelector = selector ? selectorString(selector) : '';
  } catch {
    return [uidOf(deployment)];
  }
  const listed = await listAll(kube, PUB_WORKLOAD_RESOURCES.ReplicaSet, {
    namespace,
    limit: LIST_PAGE_SIZE,
    ...(labelSelector ? { labelSelector } : {}),
  });
  const uids = listed.items
    .filter((rs) => !deleting(rs) && controllerRef(rs.metadata.ownerReferences)?.uid === uidOf(deployment))
    .map(uidOf);
  return uids.length > 0 ? uids : [uidOf(deployment)];
}

async function targetRefPods(
  kube: TargetReads,
  pub: PodUnavailableBudget,
  namespace: string,
): Promise<PubTargets> {
  const ref = pub.spec?.targetRef ?? {};
  if (!workloadKindOf(ref.apiVersion, ref.kind)) return scaledTargetPods(kube, namespace, ref);
  const found = await findWorkload(kube, namespace, ref, false);
  if (!found || deleting(found.object) || found.replicas === 0) return { pods: [], expectedCount: 0 };
  const uids = new Set(
    found.kind === 'Deployment'
      ? await deploymentOwnerUids(kube, namespace, found.object)
      : [uidOf(found.object)],
  );
  const pods = (await activePods(kube, namespace)).filter((p) =>
    (p.metadata.ownerReferences ?? []).some((o) => uids.has(o.uid)),
  );
  return { pods, expectedCount: found.replicas };
}

/**
 * A `targetRef` to a kind of none of the finders, through its scale subresource (see the module doc).
 * @throws UnservedKindError, InvalidApiVersionError, KubeApiError
 */
async function scaledTargetPods(
  kube: TargetReads,
  namespace: string,
  ref: { apiVersion?: string; kind?: string; name?: string },
): Promise<PubTargets> {
  const found = await findScaledWorkload(kube, namespace, ref);
  if (!found || found === SCALED_NOT_FOUND || found.deleting || found.replicas === 0)
    return { pods: [], expectedCount: 0 };
  const owned = (await activePods(kube, namespace)).filter((p) =>
    (p.metadata.ownerReferences ?? []).some((o) => o.uid === found.ref.uid),
  );
  const pods = owned.length > 0 ? owned : await activePods(kube, namespace, found.selector);
  return { pods, expectedCount: found.replicas };
}

/**
 * The sum of `spec.replicas` of the pods' distinct controllers (see the module doc).
 * @throws KubeApiError when a read fails; UnservedKindError, InvalidApiVersionError for a controller reference the
 *   API server cannot resolve (lib/kube/scaleFinder.ts)
 */
export async function expectedScaleForPods(
  kube: TargetReads,
  namespace: string,
  pods: readonly Pod[],
): Promise<number> {
  const seenRefs = new Set<string>();
  const scales = new Map<string, number>();
  for (const pod of pods) {
    const ref = controllerRef(pod.metadata.ownerReferences);
    if (!ref || seenRefs.has(ref.uid)) continue;
    seenRefs.add(ref.uid);
    if (!workloadKindOf(ref.apiVersion, ref.kind)) {
      const scaled = await findScaledWorkload(kube, namespace, ref);
      if (scaled === SCALED_NOT_FOUND || scaled?.deleting) continue;
      scales.set(scaled?.ref.uid ?? ref.uid, scaled ? scaled.replicas : -1);
      continue;
    }
    const found = await findWorkload(kube, namespace, ref);
    if (!found || deleting(found.object)) continue;
    scales.set(uidOf(found.object), found.replicas);
  }
  let total = 0;
  for (const n of scales.values()) total += n;
  return total;
}

/**
 * The pods `pub` covers and the replicas it expects (see the module doc).
 * @throws KubeApiError when a read fails; UnservedKindError, InvalidApiVersionError for a reference the API server
 *   cannot resolve (lib/kube/scaleFinder.ts)
 */
export async function podsForPub(kube: TargetReads, pub: PodUnavailableBudget): Promise<PubTargets> {
  const namespace = pub.metadata.namespace ?? 'default';
  const total = pub.spec?.protectTotalReplicas;
  if (pub.spec?.targetRef) {
    const found = await targetRefPods(kube, pub, namespace);
    return total !== undefined ? { pods: found.pods, expectedCount: total } : found;
  }
  const selector = pub.spec?.selector;
  if (!selector) return { pods: [], expectedCount: 0 };
  let labelSelector: string;
  try {
    labelSelector = selectorString(selector);
  } catch {
    return { pods: [], expectedCount: 0 };
  }
  const pods = await activePods(kube, namespace, labelSelector);
  if (total !== undefined) return { pods, expectedCount: total };
  return { pods, expectedCount: await expectedScaleForPods(kube, namespace, pods) };
}
