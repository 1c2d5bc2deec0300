/**
 * OpenKruise: pkg/controller/broadcastjob/broadcastjob_controller.go `getNodesToRunPod`, `NewMockPod`.
 *
 * Which nodes a job wants a pod on, which of them still need one, and which pods no longer fit their node.
 */
import type { Node } from '../../../api/node.js';
import type { Pod, PodSpec } from '../../../api/types.js';
import { whyPodDoesNotFit, type FitSpec } from '../../../podset/nodeFit.js';
import type { BroadcastJob } from '../api/types.js';

/** The outcome of {@link nodesToRunPod}. */
export interface NodePlacement {
  /** Node name → its pod, or null while it has none: every node the job wants a pod on (`desiredNodes`). */
  desired: Map<string, Pod | null>;
  /** Nodes the template fits that have no pod yet, in node order (`restNodesToRunPod`). */
  rest: Node[];
  /** Pods, not terminating, that no longer fit the node they are on (`podsToDelete`), in node order. */
  unfit: Pod[];
}

/** The scheduling spec of the job's pod as it would be on `nodeName` (`NewMockPod`: the template's spec, pinned). */
export function mockPodSpec(job: BroadcastJob, nodeName: string): FitSpec {
  return { ...(job.spec.template.spec as PodSpec & FitSpec), nodeName };
}

/**
 * For every node in order: a node with a pod of the job keeps it when the pod still fits it (its own spec, pinned
 * affinity included) or is terminating, else the pod is unfit and the node not desired; a node without one is
 * desired and in `rest` when the job's template, pinned to it, fits. Pods on nodes not listed are ignored.
 * @param byNode the job's pods by assigned node (./pods.ts `podsByNode`)
 */
export function nodesToRunPod(
  job: BroadcastJob,
  nodes: readonly Node[],
  byNode: ReadonlyMap<string, Pod>,
): NodePlacement {
  const out: NodePlacement = { desired: new Map(), rest: [], unfit: [] };
  for (const node of nodes) {
    const name = node.metadata.name ?? '';
    const pod = byNode.get(name);
    if (pod) {
      if (whyPodDoesNotFit(pod.spec, node) && !pod.metadata.deletionTimestamp) {
        out.unfit.push(pod);
        continue;
      }
      out.desired.set(name, pod);
      continue;
    }
    if (whyPodDoesNotFit(mockPodSpec(job, name), node)) continue;
    out.rest.push(node);
    out.desired.set(name, null);
  }
  return out;
}
