/**
 * OpenKruise: pkg/controller/workloadspread/workloadspread_controller.go `getPodsForWorkloadSpread`, `getPodJob` and
 * `filterWorkload` over pkg/util/controllerfinder `GetPodsForRef`, update_pod_deletion_cost.go
 * `getWorkloadLatestVersion` and pkg/util/workloadspread/workloadspread.go `GetWorkloadVersion` (v1.9.0), with the
 * informer cache replaced by quorum reads.
 *
 * The target workload of a WorkloadSpread and its pods: a CloneSet's, StatefulSet's or Advanced StatefulSet's pods
 * are those its controller reference names (matching its selector); a Deployment's those of the ReplicaSets it
 * controls; a ReplicaSet's its own. A target being deleted has no pods and 0 replicas (the sum at its paths with
 * `targetFilter.replicasPathList`, as upstream reads them from any target it finds). A Job is read as upstream's
 * `getPodJob` reads it, not through the controller finder: its replicas are `spec.parallelism`, its pods those
 * matching its selector with an owner reference to it, also while it is being deleted or at parallelism 0. The pods
 * the `targetFilter` selector leaves out are not counted, and with `targetFilter.replicasPathList` the replicas are
 * the sum at those paths of the target (./plan/replicasPath.ts), as upstream's `filterWorkload`. Kruiseless gap: the
 * custom workloads upstream follows through `kruise-configuration`'s whitelist.
 */
import { selectorMatches, selectorString } from '../../api/selector.js';
import type { Node } from '../../api/node.js';
import type { Pod } from '../../api/types.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { controllerRef } from '../../podset/ownership.js';
import { LABEL_POD_TEMPLATE_HASH, VERSION_IGNORED } from './api/keys.js';
import {
  SPREAD_WORKLOAD_RESOURCES,
  specReplicas,
  spreadWorkloadOf,
  type SpreadWorkload,
  type SpreadWorkloadKind,
} from './api/resource.js';
import type { WorkloadSpread } from './api/types.js';
import { placedBy } from './plan/index.js';
import { replicasAtPaths, type ReplicasAtPaths } from './plan/replicasPath.js';

/** The reads the resolution makes. */
export type TargetReads = Pick<KubeClient, 'get' | 'list'>;

/** A WorkloadSpread's target as read: its pods, replicas and latest version. */
export interface SpreadTargets {
  /** The target's pods (terminating and finished ones included), minus those `targetFilter` leaves out. */
  pods: Pod[];
  /**
   * The target's `spec.replicas` (a Job's `spec.parallelism`; 1 when absent), or the sum at
   * `targetFilter.replicasPathList`; 0 when the target does not exist.
   */
  replicas: number;
  /** The version the target creates pods of now (`versionIgnored` but for a Deployment or ReplicaSet). */
  latestVersion: string;
  /** The nodes of the pods this WorkloadSpread did not place, by name (a node not found is left out). */
  nodes?: Map<string, Node>;
  /** The target's Kind, undefined when it is not one this cut follows or does not exist. */
  kind?: SpreadWorkloadKind;
  /**
   * Why the replicas could not be read at `targetFilter.replicasPathList` (./plan/replicasPath.ts, upstream's
   * words): the pass then writes nothing, as upstream's sync fails.
   */
  replicasPathError?: string;
}

/**
 * The replicas of `workload` for `ws`: the sum at its `targetFilter.replicasPathList` when that is set, else
 * `replicas` (upstream's `filterWorkload` and `getWorkloadReplicas`).
 */
export function filteredReplicas(
  ws: WorkloadSpread,
  workload: SpreadWorkload,
  replicas: number,
): ReplicasAtPaths {
  const paths = ws.spec.targetFilter?.replicasPathList ?? [];
  return paths.length > 0 ? replicasAtPaths(workload, paths) : { replicas };
}

/**
 * The workload `ref` names in `namespace`, undefined when it is not one this cut follows or does not exist.
 * @throws KubeApiError other than NotFound
 */
export async function getSpreadWorkload(
  kube: Pick<KubeClient, 'get'>,
  namespace: string,
  ref: { apiVersion?: string; kind?: string; name?: string },
): Promise<{ kind: SpreadWorkloadKind; object: SpreadWorkload } | undefined> {
  const kind = spreadWorkloadOf(ref);
  if (!kind || !ref.name) return undefined;
  const object = await kube.get(SPREAD_WORKLOAD_RESOURCES[kind], { namespace, name: ref.name });
  return object ? { kind, object } : undefined;
}

const uidOf = (o: { metadata: { uid?: string } }) => o.metadata.uid ?? '';

/**
 * The pods of `namespace` matching the workload's selector that `owned` keeps (none without a selector).
 * @throws KubeApiError when the LIST fails
 */
async function podsOf(
  kube: TargetReads,
  namespace: string,
  workload: SpreadWorkload,
  owned: (pod: Pod) => boolean,
): Promise<Pod[]> {
  const selector = workload.spec?.selector;
  if (!selector) return [];
  const listed = await listAll(
    kube,
    RESOURCES.pods,
    { namespace, labelSelector: selectorString(selector), limit: LIST_PAGE_SIZE },
    owned,
  );
  return listed.items;
}

/** The pods whose controller reference is one of `owners` (upstream's controller finder). */
const controlledBy =
  (owners: ReadonlySet<string>) =>
  (p: Pod): boolean =>
    owners.has(controllerRef(p.metadata.ownerReferences)?.uid ?? '');

/** The pods with any owner reference to `uid` (upstream's `IndexNameForOwnerRefUID` field index). */
const ownedBy =
  (uid: string) =>
  (p: Pod): boolean =>
    (p.metadata.ownerReferences ?? []).some((o) => o.uid === uid);

/** The nodes of the pods `ws` did not place (upstream reads each from its cache as it takes the pod in). */
async function nodesOfUnplaced(
  kube: TargetReads,
  ws: WorkloadSpread,
  pods: readonly Pod[],
): Promise<Map<string, Node>> {
  const names = new Set(
    pods
      .filter((p) => !placedBy(p, ws.metadata.name ?? '') && p.spec?.nodeName)
      .map((p) => p.spec?.nodeName ?? ''),
  );
  const nodes = new Map<string, Node>();
  for (const name of names) {
    const node = await kube.get(RESOURCES.nodes, { name });
    if (node) nodes.set(name, node);
  }
  return nodes;
}

/** The revision a Deployment and its ReplicaSets carry (`deployment.kubernetes.io/revision`). */
const ANNOTATION_DEPLOYMENT_REVISION = 'deployment.kubernetes.io/revision';

/**
 * The WorkloadSpread's target and its pods (see the module doc).
 * @throws KubeApiError other than NotFound
 */
export async function readTargets(kube: TargetReads, ws: WorkloadSpread): Promise<SpreadTargets> {
  const namespace = ws.metadata.namespace ?? '';
  const ref = ws.spec.targetRef;
  const none: SpreadTargets = { pods: [], replicas: 0, latestVersion: VERSION_IGNORED };
  if (!ref) return none;
  const found = await getSpreadWorkload(kube, namespace, ref);
  if (!found) return none;
  const { kind, object } = found;
  // upstream's `getPodJob` reads a Job without the controller finder's deletion and zero-replica rules
  const isJob = kind === 'Job';
  const deleting = !isJob && !!object.metadata.deletionTimestamp;
  const replicas = specReplicas(kind, object);
  const counted = filteredReplicas(ws, object, deleting ? 0 : replicas);
  if ('error' in counted) return { ...none, kind, replicasPathError: counted.error };
  if (deleting) return { ...none, replicas: counted.replicas, kind };
  let pods: Pod[];
  let latestVersion = VERSION_IGNORED;
  if (kind === 'Deployment') {
    const selector = object.spec?.selector;
    const sets = selector
      ? (
          await listAll(kube, SPREAD_WORKLOAD_RESOURCES.ReplicaSet, {
            namespace,
            labelSelector: selectorString(selector),
          })
        ).items.filter((rs) => controllerRef(rs.metadata.ownerReferences)?.uid === uidOf(object))
      : [];
    pods = await podsOf(kube, namespace, object, controlledBy(new Set(sets.map(uidOf))));
    const revision = object.metadata.annotations?.[ANNOTATION_DEPLOYMENT_REVISION];
    const latest = sets.find(
      (rs) =>
        !rs.metadata.deletionTimestamp &&
        revision !== undefined &&
        rs.metadata.annotations?.[ANNOTATION_DEPLOYMENT_REVISION] === revision,
    );
    // without a ReplicaSet of its revision (none created yet) OpenKruise v1.9.0 still writes the status: as versionIgnored
    if (latest) latestVersion = latest.metadata.labels?.[LABEL_POD_TEMPLATE_HASH] ?? '';
  } else if (isJob) {
    pods = await podsOf(kube, namespace, object, ownedBy(uidOf(object)));
  } else {
    pods = await podsOf(kube, namespace, object, controlledBy(new Set([uidOf(object)])));
    if (kind === 'ReplicaSet') latestVersion = object.metadata.labels?.[LABEL_POD_TEMPLATE_HASH] ?? '';
  }
  // upstream's `GetPodsForRef` returns no pod for a workload of 0 replicas
  if (replicas === 0 && !isJob) pods = [];
  const filter = ws.spec.targetFilter?.selector;
  if (filter) pods = pods.filter((p) => selectorMatches(filter, p.metadata.labels));
  const nodes = await nodesOfUnplaced(kube, ws, pods);
  return { pods, replicas: counted.replicas, latestVersion, kind, nodes };
}
