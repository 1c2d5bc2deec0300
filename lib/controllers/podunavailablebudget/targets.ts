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
 * - `targetRef` to a kind without a scale subresource (a DaemonSet, a Job): the object itself, as upstream's last
 *   finder `getRefUID` reads it (lib/kube/scaleFinder.ts `findWorkloadObject`): -1 replicas and the active pods it
 *   owns; gone: no pods, 0.
 * - else `selector`: absent or invalid: no pods, 0 (and `protectTotalReplicas` is not read). Else the namespace's
 *   active pods it matches, and the sum of `spec.replicas` over their distinct controllers (a ReplicaSet's pods count
 *   its Deployment; a controller of another kind counts its scale's replicas; a controller gone or terminating counts
 *   nothing; a controller without a scale subresource counts -1, as OpenKruise's `ReplicasUnknown`, when it exists).
 * - `spec.protectTotalReplicas`, when set, replaces the expected replicas.
 * Kruiseless's roles grant the object reads for DaemonSets and Jobs (./access.ts); OpenKruise's reads every resource,
 * secrets among them. A kind whose read is not granted is logged and counts as before the read: a `targetRef` to it
 * covers no pods, a controller of it -1 under its reference's UID.
 */
import type { Pod } from '../../api/types.js';
import { selectorString } from '../../api/selector.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import {
  findScaledWorkload,
  findWorkloadObject,
  REPLICAS_UNKNOWN,
  SCALED_NOT_FOUND,
  WORKLOAD_FORBIDDEN,
  type ScaleReads,
  type UnscaledWorkload,
} from '../../kube/scaleFinder.js';
import type { Logger } from '../../core/logger.js';
import { controllerRef } from '../../podset/ownership.js';
import { isPodActive } from '../../podset/pods.js';
import { PUB_WORKLOAD_RESOURCES, type PubWorkload, type PubWorkloadKind } from './api/resource.js';
import type { PodUnavailableBudget } from './api/types.js';
import { workloadKindOf } from './plan/targets.js';

/**
 * Where a read the roles do not grant is reported: the workload of a kind without a scale subresource whose object
 * Kruiseless may not read (lib/kube/scaleFinder.ts `WORKLOAD_FORBIDDEN`); the budget then goes on without it.
 */
export type TargetLog = Pick<Logger, 'warn'>;

/**
 * The object of a workload of a kind without a scale subresource (upstream's `getRefUID`): `gone` when there is none
 * of the name, `unknown` when the client cannot tell or its read is not granted (logged).
 * @throws UnservedKindError, InvalidApiVersionError, KubeApiError
 */
async function unscaledWorkload(
  kube: TargetReads,
  namespace: string,
  ref: { apiVersion?: string; kind?: string; name?: string },
  log: TargetLog | undefined,
): Promise<UnscaledWorkload | 'gone' | 'unknown'> {
  const found = await findWorkloadObject(kube, namespace, ref);
  if (found === SCALED_NOT_FOUND) return 'gone';
  if (found === WORKLOAD_FORBIDDEN && log && firstWarning(log, namespace, ref))
    log.warn('PodUnavailableBudget: reading the workload is not granted; counted as unknown', {
      namespace,
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      name: ref.name,
    });
  return found === undefined || found === WORKLOAD_FORBIDDEN ? 'unknown' : found;
}

/** The workloads each logger has warned of (a logger lives for an invocation: one line per workload, not per pass). */
const warnedOf = new WeakMap<TargetLog, Set<string>>();

/** Whether `log` has not yet warned of this workload (and notes that it now has). */
function firstWarning(
  log: TargetLog,
  namespace: string,
  ref: { apiVersion?: string; kind?: string; name?: string },
): boolean {
  const key = `${namespace}/${ref.apiVersion ?? ''}/${ref.kind ?? ''}/${ref.name ?? ''}`;
  const seen = warnedOf.get(log) ?? new Set<string>();
  warnedOf.set(log, seen);
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

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
  log: TargetLog | undefined,
): Promise<PubTargets> {
  const ref = pub.spec?.targetRef ?? {};
  if (!workloadKindOf(ref.apiVersion, ref.kind)) return scaledTargetPods(kube, namespace, ref, log);
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
  log: TargetLog | undefined,
): Promise<PubTargets> {
  const found = await findScaledWorkload(kube, namespace, ref);
  if (found === undefined) {
    // no scale subresource: the object itself, its replicas unknown (-1), its pods those it owns
    const object = await unscaledWorkload(kube, namespace, ref, log);
    if (typeof object === 'string') return { pods: [], expectedCount: 0 };
    const pods = (await activePods(kube, namespace)).filter((p) =>
      (p.metadata.ownerReferences ?? []).some((o) => o.uid === object.ref.uid),
    );
    return { pods, expectedCount: REPLICAS_UNKNOWN };
  }
  if (found === SCALED_NOT_FOUND || found.deleting || found.replicas === 0)
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
  log?: TargetLog,
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
      if (scaled) {
        scales.set(scaled.ref.uid, scaled.replicas);
        continue;
      }
      // no scale subresource (or another UID behind the name): the object itself, its replicas unknown; one that
      // cannot be read counts as unknown under the reference's UID
      const object = await unscaledWorkload(kube, namespace, ref, log);
      if (object === 'gone') continue;
      scales.set(object === 'unknown' ? ref.uid : object.ref.uid, REPLICAS_UNKNOWN);
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
export async function podsForPub(
  kube: TargetReads,
  pub: PodUnavailableBudget,
  log?: TargetLog,
): Promise<PubTargets> {
  const namespace = pub.metadata.namespace ?? 'default';
  const total = pub.spec?.protectTotalReplicas;
  if (pub.spec?.targetRef) {
    const found = await targetRefPods(kube, pub, namespace, log);
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
  return { pods, expectedCount: await expectedScaleForPods(kube, namespace, pods, log) };
}
