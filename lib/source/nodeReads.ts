/**
 * What a Node's Map watch reads to decide, without the old Node, whether a change concerns a workload: the node as
 * it is now and the pods bound to it. Shared by the Node watches of Advanced DaemonSet and BroadcastJob.
 */
import type { Node } from '../api/node.js';
import type { Pod } from '../api/types.js';
import { listAll, LIST_PAGE_SIZE } from '../kube/list.js';
import { RESOURCES } from '../kube/resources.js';
import type { MapReads } from './watchSpec.js';

/** The node now (absent when it is gone) and the pods bound to it, in every namespace. */
export interface NodeNow {
  node?: Node;
  pods: Pod[];
}

/**
 * Read `name`'s node (a LIST by `metadata.name`: the watch role lists nodes, it does not get them) and, when it
 * exists, the pods whose `spec.nodeName` is it (a paged LIST over all namespaces).
 * @throws KubeApiError when a read fails
 */
export async function readNodeNow(reads: MapReads, name: string): Promise<NodeNow> {
  const [node] = (await reads.kube.list(RESOURCES.nodes, { fieldSelector: `metadata.name=${name}` })).items;
  if (!node) return { pods: [] };
  const pods = (
    await listAll(reads.kube, RESOURCES.pods, {
      fieldSelector: `spec.nodeName=${name}`,
      limit: LIST_PAGE_SIZE,
    })
  ).items;
  return { node: node, pods };
}
