/**
 * OpenKruise: pkg/controller/daemonset/daemonset_update.go `rollingUpdate`, `updatedDesiredNodeCounts`,
 * `filterDaemonPodsToUpdate`, `filterDaemonPodsNodeToUpdate`; daemonset_util.go `findUpdatedPodsOnNode`,
 * `surgeCount`, `unavailableCount`, `isPodNilOrPreDeleting`.
 *
 * Which old pods a `RollingUpdate` pass replaces: the nodes allowed to update (partition, node selector), then —
 * without surge — old pods deleted up to `maxUnavailable`, or — with surge — new pods created beside old ones up to
 * `maxSurge`, and old ones deleted once their new pod is available.
 */
import { LifecycleState } from '../../../api/keys.js';
import { scaledValueFromIntOrPercent } from '../../../api/intOrPercent.js';
import type { Node } from '../../../api/node.js';
import { selectorMatches } from '../../../api/selector.js';
import type { Pod } from '../../../api/types.js';
import { getPodCondition, isPodReady, lifecycleState } from '../../../podset/pods.js';
import type { DaemonSet } from '../api/types.js';
import { nodeShouldRunDaemonPod, daemonPodSpec } from './nodes.js';
import { isPodUpdated } from './status.js';

/** What a rolling-update step writes: old pods to delete, nodes to create a new pod on. */
export interface RollingUpdateStep {
  deletes: Pod[];
  createOn: string[];
  /** The step surged (`maxSurge` > 0): its old pods are never updated in place. */
  surge: boolean;
}

const scaled = (v: number | string | undefined, total: number, rounding: 'up' | 'down'): number => {
  if (v === undefined) return 0;
  try {
    return scaledValueFromIntOrPercent(v, total, rounding);
  } catch {
    return 0;
  }
};

const isPreDeleting = (pod: Pod | undefined) =>
  pod !== undefined && lifecycleState(pod) === LifecycleState.PreparingDelete;
const isNilOrPreDeleting = (pod: Pod | undefined) => pod === undefined || isPreDeleting(pod);

/** `podutil.IsPodAvailable`: Ready, for more than `minReadySeconds` (0: at once). */
function isAvailable(pod: Pod, minReadySeconds: number, now: Date): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const t = getPodCondition(pod, 'Ready')?.lastTransitionTime;
  return !!t && Date.parse(t) + minReadySeconds * 1000 < now.getTime();
}

/**
 * `findUpdatedPodsOnNode`: among the live pods of a node, the one of the current revision and the one of an old
 * revision; `ok` false when there are two of either (the manage step prunes those first).
 */
export function findUpdatedPodsOnNode(
  pods: readonly Pod[],
  hash: string,
  generation: string | undefined,
): { newPod?: Pod; oldPod?: Pod; ok: boolean } {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (newPod) return { ok: false };
      newPod = pod;
    } else {
      if (oldPod) return { ok: false };
      oldPod = pod;
    }
  }
  return { ...(newPod ? { newPod } : {}), ...(oldPod ? { oldPod } : {}), ok: true };
}

/**
 * `filterDaemonPodsNodeToUpdate`: the listed nodes with daemon pods or wanting one, by name descending, as
 * updated-or-excess first, then those whose old pod is gone or pre-deleting, then — with `rollingUpdate.selector` —
 * those the selector matches, else the rest; cut to the node count minus `partition` (of the stored
 * `desiredNumberScheduled`, rounded down). Nodes neither updated nor selected are left out under a selector.
 */
export function nodesToUpdate(
  ds: DaemonSet,
  nodes: ReadonlyMap<string, Node>,
  podsOf: ReadonlyMap<string, Pod[]>,
  hash: string,
  generation: string | undefined,
): string[] {
  const ru = ds.spec.updateStrategy?.rollingUpdate;
  const partition = scaled(ru?.partition, ds.status?.desiredNumberScheduled ?? 0, 'down');
  const selector = ru?.selector;
  const names = [...podsOf.keys()].sort().reverse();
  const updated: string[] = [];
  const updating: string[] = [];
  const selected: string[] = [];
  const rest: string[] = [];
  for (const name of names) {
    const { newPod, oldPod, ok } = findUpdatedPodsOnNode(podsOf.get(name) ?? [], hash, generation);
    if (!ok || newPod) updated.push(name);
    else if (isNilOrPreDeleting(oldPod)) updating.push(name);
    else if (selector && selectorMatches(selector, nodes.get(name)?.metadata.labels ?? {}))
      selected.push(name);
    else rest.push(name);
  }
  const sorted = [...updated, ...updating, ...(selector ? selected : rest)];
  const maxUpdate = names.length - partition;
  return maxUpdate <= 0 ? [] : sorted.slice(0, maxUpdate);
}

/**
 * The nodes a rolling update looks at (`getNodesToDaemonPods` as `rollingUpdate` reads it): the listed nodes with
 * daemon pods, and those that should run one without having any; `desired` counts the nodes that should run one.
 */
function updateScope(
  ds: DaemonSet,
  nodeList: readonly Node[],
  byNode: ReadonlyMap<string, Pod[]>,
): { nodes: Map<string, Node>; podsOf: Map<string, Pod[]>; desired: number } {
  const spec = daemonPodSpec(ds);
  const nodes = new Map(nodeList.map((n) => [n.metadata.name ?? '', n]));
  const podsOf = new Map<string, Pod[]>();
  for (const [name, pods] of byNode) if (nodes.has(name)) podsOf.set(name, pods);
  let desired = 0;
  for (const node of nodeList) {
    if (!nodeShouldRunDaemonPod(node, ds, spec).shouldRun) continue;
    desired++;
    const name = node.metadata.name ?? '';
    if (!podsOf.has(name)) podsOf.set(name, []);
  }
  return { nodes, podsOf, desired };
}

/**
 * The nodes a rolling-update step may update now, in its order ({@link nodesToUpdate} over the step's nodes): what
 * `partition` and `rollingUpdate.selector` leave to it (`kruiseless why` names whether a pod's node is among them).
 * @param byNode the DaemonSet's pods by node (./podsByNode.ts)
 */
export function nodesAllowedToUpdate(
  ds: DaemonSet,
  nodeList: readonly Node[],
  byNode: ReadonlyMap<string, Pod[]>,
  hash: string,
  generation: string | undefined,
): string[] {
  const { nodes, podsOf } = updateScope(ds, nodeList, byNode);
  return nodesToUpdate(ds, nodes, podsOf, hash, generation);
}

/**
 * One rolling-update step (`rollingUpdate`), over the nodes {@link nodesToUpdate} returns, in that order (upstream
 * walks a Go map, in random order; Kruiseless takes the filter's order so that a pass is reproducible).
 * `maxUnavailable` and `maxSurge` are of the nodes that should run the pod (rounded up); both 0 means
 * `maxUnavailable` 1.
 * - Without surge: a node with excess pods, with no pod, or with both an old and a new one counts unavailable, as
 *   does a new pod not available (or pre-deleting); an old pod that is not available is replaced at once; other old
 *   pods are candidates, taken while fewer than `maxUnavailable` are unavailable, up to what is left of it.
 * - With surge: a node whose old pod is not available gets a new pod at once; other nodes with only an old pod are
 *   candidates up to `maxSurge` minus the surges in progress (excess pods, new pods not yet available); an old pod
 *   whose node has an available new one is deleted.
 */
export function rollingUpdateStep(
  ds: DaemonSet,
  nodeList: readonly Node[],
  byNode: ReadonlyMap<string, Pod[]>,
  hash: string,
  generation: string | undefined,
  now: Date,
): RollingUpdateStep {
  const { nodes, podsOf, desired } = updateScope(ds, nodeList, byNode);
  const ru = ds.spec.updateStrategy?.rollingUpdate;
  const rolling = ds.spec.updateStrategy?.type === 'RollingUpdate' && ru !== undefined;
  let maxUnavailable = rolling ? scaled(ru.maxUnavailable, desired, 'up') : 0;
  const maxSurge = rolling ? scaled(ru.maxSurge, desired, 'up') : 0;
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  const minReady = ds.spec.minReadySeconds ?? 0;
  const order = nodesToUpdate(ds, nodes, podsOf, hash, generation);

  if (maxSurge === 0) {
    let unavailable = 0;
    const allowed: Pod[] = [];
    const candidates: Pod[] = [];
    for (const name of order) {
      const { newPod, oldPod, ok } = findUpdatedPodsOnNode(podsOf.get(name) ?? [], hash, generation);
      if (!ok) {
        unavailable++;
        continue;
      }
      const oldGone = isNilOrPreDeleting(oldPod);
      const newGone = isNilOrPreDeleting(newPod);
      if ((oldGone && newGone) || (!oldGone && !newGone)) {
        unavailable++;
      } else if (newPod) {
        if (!isAvailable(newPod, minReady, now)) unavailable++;
        if (isPreDeleting(newPod)) unavailable++;
      } else if (oldPod && !isAvailable(oldPod, minReady, now)) {
        allowed.push(oldPod);
      } else if (oldPod && unavailable < maxUnavailable) {
        candidates.push(oldPod);
      }
    }
    const remaining = Math.min(Math.max(maxUnavailable - unavailable, 0), candidates.length);
    return { deletes: [...allowed, ...candidates.slice(0, remaining)], createOn: [], surge: false };
  }

  let surging = 0;
  const deletes: Pod[] = [];
  const allowedNodes: string[] = [];
  const candidateNodes: string[] = [];
  for (const name of order) {
    const { newPod, oldPod, ok } = findUpdatedPodsOnNode(podsOf.get(name) ?? [], hash, generation);
    if (!ok) {
      surging++;
      continue;
    }
    if (isNilOrPreDeleting(oldPod) || !oldPod) continue;
    if (!newPod) {
      if (!isAvailable(oldPod, minReady, now)) allowedNodes.push(name);
      else if (surging < maxSurge) candidateNodes.push(name);
      continue;
    }
    if (!isAvailable(newPod, minReady, now) || isPreDeleting(newPod)) {
      surging++;
      continue;
    }
    deletes.push(oldPod);
  }
  const remaining = Math.min(Math.max(maxSurge - surging, 0), candidateNodes.length);
  return { deletes, createOn: [...allowedNodes, ...candidateNodes.slice(0, remaining)], surge: true };
}
