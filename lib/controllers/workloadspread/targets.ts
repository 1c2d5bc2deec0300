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
 * the `targetFilter` selector leaves out are not counted, and the replicas are the sum at the paths
 * {@link replicasPathList} gives (./plan/replicasPath.ts), as upstream's `filterWorkload`: `targetFilter`'s, else the
 * `kruise-configuration` whitelist's for the target's group, version and Kind — a built-in Kind too. A target of any
 * other Kind (a custom workload the whitelist lets a WorkloadSpread name, ./api/customWorkloads.ts) is read as
 * upstream's controller finder reads it: {@link readCustomTargets}.
 */
import { selectorMatches, selectorString } from '../../api/selector.js';
import type { Node } from '../../api/node.js';
import type { Pod } from '../../api/types.js';
import { UnresolvedReferenceError } from '../../kube/errors.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import {
  findScaledWorkload,
  findWorkloadObject,
  readWorkloadObject,
  REPLICAS_UNKNOWN,
  SCALED_NOT_FOUND,
  WORKLOAD_FORBIDDEN,
} from '../../kube/scaleFinder.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { controllerRef } from '../../podset/ownership.js';
import { kruiseConfigurationEntry } from '../kruiseConfiguration.js';
import {
  CUSTOM_WORKLOAD_WHITELIST_KEY,
  parseCustomWorkloadWhitelist,
  whitelistedReplicasPath,
} from './api/customWorkloads.js';
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

/**
 * The reads the resolution makes: discovery and scale reads, when the client has them, for a custom workload (none:
 * a custom target reads as gone).
 */
export type TargetReads = Pick<KubeClient, 'get' | 'list' | 'serverResources' | 'getScale'>;

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
   * Why the replicas could not be read at `targetFilter.replicasPathList` or a custom workload's whitelisted path
   * (./plan/replicasPath.ts, upstream's words): the pass then writes nothing, as upstream's sync fails.
   */
  replicasPathError?: string;
}

/**
 * The replicas the pod webhook counts of a built-in `workload` for `ws`: the sum at its
 * `targetFilter.replicasPathList` when that is set, else `replicas`; no whitelist is read (upstream's webhook
 * `getWorkloadReplicas`; the controller also reads the whitelist: {@link replicasPathList}).
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
  if (!spreadWorkloadOf(ref)) return readCustomTargets(kube, ws, ref);
  const found = await getSpreadWorkload(kube, namespace, ref);
  if (!found) {
    // upstream's `filterWorkload` reads the paths for a target that is gone too, so a bad whitelist fails the pass
    await replicasPathList(kube, ws, ref);
    return none;
  }
  const { kind, object } = found;
  // upstream's `getPodJob` reads a Job without the controller finder's deletion and zero-replica rules
  const isJob = kind === 'Job';
  const deleting = !isJob && !!object.metadata.deletionTimestamp;
  const replicas = specReplicas(kind, object);
  const paths = await replicasPathList(kube, ws, ref);
  const counted = paths.length > 0 ? replicasAtPaths(object, paths) : { replicas: deleting ? 0 : replicas };
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

/**
 * The paths the controller counts the target's replicas at, as upstream's `getReplicasPathList`:
 * `targetFilter.replicasPathList` when it has any (the ConfigMap is then not read), else the path of the
 * `kruise-configuration` whitelist's entry for the target's group, version and Kind, whatever the Kind (`['']`, which
 * counts 0, for an entry without one), else none (the Kind's own replicas count). The pod webhook does not use the
 * whitelist for a built-in Kind (upstream's `getWorkloadReplicas`): see ./podWebhook.ts.
 * @returns dotted paths (./plan/replicasPath.ts), in the order to sum them
 * @throws CustomWorkloadWhitelistError (the entry is not the JSON upstream decodes), KubeApiError when the ConfigMap's
 *   read fails other than NotFound: the pass fails and is backed off, as upstream's sync fails
 */
async function replicasPathList(
  kube: TargetReads,
  ws: WorkloadSpread,
  ref: { apiVersion?: string; kind?: string },
): Promise<readonly string[]> {
  const filterPaths = ws.spec.targetFilter?.replicasPathList ?? [];
  if (filterPaths.length > 0) return filterPaths;
  const whitelist = parseCustomWorkloadWhitelist(
    await kruiseConfigurationEntry(kube, CUSTOM_WORKLOAD_WHITELIST_KEY),
  );
  const listed = whitelistedReplicasPath(whitelist, ref);
  return listed === undefined ? [] : [listed];
}

/**
 * A custom workload's target (upstream's `GetPodsForRef` default branch, then `filterWorkload` with the whitelist's
 * replicas path): its scale subresource gives the replicas and a selector, else the object itself gives only its UID
 * (replicas unknown, -1). Gone, or a scale of a workload being deleted: no pods, 0. At 0 replicas: no pods. Else the
 * pods with an owner reference to it, or with none such, those the scale's selector matches. The replicas are the
 * sum at `targetFilter.replicasPathList`, else at the whitelist's path for its group, version and Kind (an entry
 * without a path: 0), else the scale's — read from the object also when it is being deleted or at 0 replicas, and
 * left as found (pods unfiltered) when the object is gone by then, as upstream's `filterWorkload`.
 * @throws CustomWorkloadWhitelistError, UnresolvedReferenceError (the kind is not served, its object's read is not
 *   granted), KubeApiError when a read fails: the pass fails and is backed off, as upstream's sync
 */
async function readCustomTargets(
  kube: TargetReads,
  ws: WorkloadSpread,
  ref: { apiVersion: string; kind: string; name: string },
): Promise<SpreadTargets> {
  const namespace = ws.metadata.namespace ?? '';
  const none: SpreadTargets = { pods: [], replicas: 0, latestVersion: VERSION_IGNORED };
  const found = await customWorkload(kube, namespace, ref);
  let pods: Pod[] = [];
  if (found && found.replicas !== 0) {
    pods = (await listAll(kube, RESOURCES.pods, { namespace, limit: LIST_PAGE_SIZE }, ownedBy(found.uid)))
      .items;
    if (pods.length === 0 && found.selector !== undefined)
      pods = (
        await listAll(kube, RESOURCES.pods, {
          namespace,
          limit: LIST_PAGE_SIZE,
          labelSelector: found.selector,
        })
      ).items;
  }
  const paths = await replicasPathList(kube, ws, ref);
  let replicas = found?.replicas ?? 0;
  if (paths.length > 0) {
    const object = await readWorkloadObject(kube, namespace, ref);
    // upstream leaves replicas and pods as found when the object is gone by then
    if (!object) return { ...none, pods, replicas };
    const counted = replicasAtPaths(object, paths);
    if ('error' in counted) return { ...none, replicasPathError: counted.error };
    replicas = counted.replicas;
  }
  const filter = ws.spec.targetFilter?.selector;
  if (filter) pods = pods.filter((p) => selectorMatches(filter, p.metadata.labels));
  const nodes = await nodesOfUnplaced(kube, ws, pods);
  return { pods, replicas, latestVersion: VERSION_IGNORED, nodes };
}

/**
 * A custom workload as upstream's controller finder reads it: through its scale subresource (replicas, UID,
 * selector) or, for a kind without one, the object itself (UID; replicas -1). Undefined when it is gone (or its
 * scale says it is being deleted).
 * @throws UnresolvedReferenceError (the kind is not served, or its object's read is not granted), KubeApiError
 */
async function customWorkload(
  kube: TargetReads,
  namespace: string,
  ref: { apiVersion: string; kind: string; name: string },
): Promise<{ uid: string; replicas: number; selector?: string } | undefined> {
  const scaled = await findScaledWorkload(kube, namespace, ref);
  if (scaled === SCALED_NOT_FOUND) return undefined;
  if (scaled)
    return scaled.deleting
      ? undefined
      : { uid: scaled.ref.uid, replicas: scaled.replicas, selector: scaled.selector };
  const object = await findWorkloadObject(kube, namespace, ref);
  if (object === SCALED_NOT_FOUND || object === undefined) return undefined;
  if (object === WORKLOAD_FORBIDDEN)
    throw new UnresolvedReferenceError(
      `reading ${ref.kind} ${namespace}/${ref.name} is not granted to Kruiseless's role (add a get rule for it, ` +
        'infra/rbac/README.md)',
    );
  return { uid: object.ref.uid, replicas: REPLICAS_UNKNOWN };
}
