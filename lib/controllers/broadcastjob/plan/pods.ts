/**
 * OpenKruise: pkg/controller/broadcastjob/broadcastjob_utils.go `filterPods`, `isPodFailed`;
 * broadcastjob_controller.go `getNodeToPodMap`.
 *
 * A job's pods sorted into active, failed and succeeded, and mapped to the node each is pinned to.
 */
import type { Pod } from '../../../api/types.js';
import { assignedNode } from '../../../podset/nodePin.js';
import { BcjEventReason } from '../api/keys.js';
import type { PlanEvent } from './types.js';

/**
 * Whether a pod that is neither Succeeded nor Failed counts as failed (`isPodFailed`): only a `restartPolicy:
 * OnFailure` pod whose init and app containers restarted more than `restartLimit` times in total.
 */
export function isPodFailed(restartLimit: number, pod: Pod): boolean {
  if (pod.spec.restartPolicy !== 'OnFailure') return false;
  const statuses = [
    ...((pod.status?.initContainerStatuses as { restartCount?: number }[] | undefined) ?? []),
    ...(pod.status?.containerStatuses ?? []),
  ];
  return statuses.reduce((n, s) => n + (s.restartCount ?? 0), 0) > restartLimit;
}

/** The pods of a job by outcome (`filterPods`). */
export interface PodsByOutcome {
  /** Neither Succeeded nor Failed, not terminating, within the restart limit. */
  active: Pod[];
  /** Phase Failed, or over the restart limit ({@link isPodFailed}) and not terminating. */
  failed: Pod[];
  succeeded: Pod[];
}

/**
 * Sort `pods` by outcome (`filterPods`): Succeeded, Failed, then — unless terminating, which is counted nowhere —
 * failed by {@link isPodFailed} or active. Order is kept within each list.
 */
export function podsByOutcome(restartLimit: number, pods: readonly Pod[]): PodsByOutcome {
  const out: PodsByOutcome = { active: [], failed: [], succeeded: [] };
  for (const p of pods) {
    const phase = p.status?.phase;
    if (phase === 'Succeeded') out.succeeded.push(p);
    else if (phase === 'Failed') out.failed.push(p);
    else if (!p.metadata.deletionTimestamp) (isPodFailed(restartLimit, p) ? out.failed : out.active).push(p);
  }
  return out;
}

/**
 * Node name → the job's pod there (`getNodeToPodMap`, by ../../../podset/nodePin.ts `assignedNode`; a pod pinned
 * nowhere is under `''`). When two pods share a node the later one is kept and a Warning
 * `DuplicatePodCreatedOnSameNode` `Duplicated pod <pod> found on same node <node>` is recorded.
 */
export function podsByNode(pods: readonly Pod[]): { byNode: Map<string, Pod>; events: PlanEvent[] } {
  const byNode = new Map<string, Pod>();
  const events: PlanEvent[] = [];
  for (const pod of pods) {
    const node = assignedNode(pod);
    if (byNode.has(node))
      events.push({
        type: 'Warning',
        reason: BcjEventReason.DuplicatePodCreatedOnSameNode,
        message: `Duplicated pod ${pod.metadata.name ?? ''} found on same node ${node}`,
      });
    byNode.set(node, pod);
  }
  return { byNode, events };
}
