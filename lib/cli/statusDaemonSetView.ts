/**
 * The rollout-status line of an Advanced DaemonSet (docs/cli.md#rollout-status). kubectl-kruise v1.2.2 has no status
 * viewer for it (its `StatusViewerFor` knows apps/v1 DaemonSets only), so the words are kubectl's for apps/v1
 * DaemonSets (k8s.io/kubectl `DaemonSetStatusViewer.Status`), with three Advanced DaemonSet fields worded by
 * Kruiseless: `rollingUpdate.partition` and `rollingUpdate.selector` (the rollout is complete once as many pods are
 * updated as OpenKruise's `filterDaemonPodsNodeToUpdate` lets it update: `desiredNumberScheduled − partition`, and
 * under a selector only the nodes it matches, beside those already updated or without an old pod) and
 * `rollingUpdate.paused` (the waiting line says so; the rollout is not complete and status keeps waiting, as
 * kubectl does for a paused Deployment).
 */
import { scaledValueFromIntOrPercent } from '../api/intOrPercent.js';
import type { Node } from '../api/node.js';
import type { Pod } from '../api/types.js';
import type { DaemonSet } from '../controllers/daemonset/api/types.js';
import { templateGeneration } from '../controllers/daemonset/plan/newPod.js';
import { daemonPodSpec, nodeShouldRunDaemonPod } from '../controllers/daemonset/plan/nodes.js';
import { podsByNode } from '../controllers/daemonset/plan/podsByNode.js';
import { nodesToUpdate } from '../controllers/daemonset/plan/rollingUpdate.js';
import { CliError } from './io.js';
import type { RolloutStatus } from './statusView.js';

/**
 * The partition in pods: a percentage of `desired` rounded down (OpenKruise's `GetScaledValueFromIntOrPercent(…,
 * false)` in `filterDaemonPodsNodeToUpdate`); 0 when unset or unreadable (the controller then updates nothing and
 * logs the error; the status line has nothing better to count).
 */
function partitionOf(ds: DaemonSet, desired: number): number {
  const p = ds.spec.updateStrategy?.rollingUpdate?.partition;
  if (p === undefined) return 0;
  try {
    return Math.max(0, scaledValueFromIntOrPercent(p, desired, 'down'));
  } catch {
    return 0;
  }
}

/** What the status line needs beside the DaemonSet when `rollingUpdate.selector` is set. */
export interface DaemonSetNodeScope {
  /** every Node of the cluster */
  nodes: readonly Node[];
  /** the DaemonSet's pods (those it controls) */
  pods: readonly Pod[];
}

/** Whether {@link daemonSetRolloutStatus} needs a {@link DaemonSetNodeScope}: `rollingUpdate.selector` is set. */
export function needsNodeScope(ds: DaemonSet): boolean {
  return ds.spec.updateStrategy?.rollingUpdate?.selector !== undefined;
}

/**
 * How many pods the rollout updates in all: without a selector `desired − partition`; with one, the nodes that
 * should run the pod which the controller's own `nodesToUpdate` lets update — those already at `status.updateRevision`
 * (or with excess pods), those without an old pod, and those the selector matches — cut to the node count minus the
 * partition.
 */
function updateTarget(ds: DaemonSet, desired: number, partition: number, scope?: DaemonSetNodeScope): number {
  const all = Math.max(0, desired - partition);
  if (!needsNodeScope(ds) || !scope) return all;
  const spec = daemonPodSpec(ds);
  const byNode = podsByNode(scope.pods);
  const nodes = new Map<string, Node>();
  const podsOf = new Map<string, Pod[]>();
  for (const node of scope.nodes) {
    if (!nodeShouldRunDaemonPod(node, ds, spec).shouldRun) continue;
    const name = node.metadata.name ?? '';
    nodes.set(name, node);
    podsOf.set(name, byNode.get(name) ?? []);
  }
  const hash = ds.status?.updateRevision ?? '';
  return nodesToUpdate(ds, nodes, podsOf, hash, templateGeneration(ds)).length;
}

/**
 * The status line of `ds` (without a trailing newline). In order:
 * - `updateStrategy.type` OnDelete: an error (kubectl's words; an unset type counts as RollingUpdate, the webhook's
 *   default, since Kruiseless stores the spec as written);
 * - `metadata.generation` above `status.observedGeneration`: `Waiting for daemon set spec update to be observed...`;
 * - fewer than Y pods updated (`updatedNumberScheduled`), Y `desired − partition` or, under `rollingUpdate.selector`,
 *   the nodes the controller updates (above; read from `scope`): kubectl's `… X out of Y new pods have been
 *   updated...`, with a partition or when Y leaves some desired node out, `Waiting for daemon set "<name>"
 *   partitioned roll out to finish: …`, and ` (paused)` before the dots while `rollingUpdate.paused` holds the update
 *   back;
 * - fewer available pods than desired (`numberAvailable`, old and new pods alike, as kubectl counts):
 *   `… X of Y updated pods are available...`;
 * - else complete: `daemon set "<name>" successfully rolled out`, partitioned (as above)
 *   `daemon set "<name>" partitioned roll out complete: X new pods have been updated...`.
 * @param scope the nodes and pods, when {@link needsNodeScope}; without it a selector is not counted
 * @throws CliError `rollout status is only available for RollingUpdate strategy type` for an OnDelete DaemonSet
 */
export function daemonSetRolloutStatus(ds: DaemonSet, scope?: DaemonSetNodeScope): RolloutStatus {
  const name = ds.metadata.name ?? '';
  const strategy = ds.spec.updateStrategy;
  if ((strategy?.type || 'RollingUpdate') !== 'RollingUpdate') {
    throw new CliError('rollout status is only available for RollingUpdate strategy type');
  }
  const status = ds.status;
  const observed = status?.observedGeneration ?? 0;
  if ((ds.metadata.generation ?? 0) > observed) {
    return { message: 'Waiting for daemon set spec update to be observed...', done: false };
  }
  const desired = status?.desiredNumberScheduled ?? 0;
  const updated = status?.updatedNumberScheduled ?? 0;
  const partition = partitionOf(ds, desired);
  const wanted = updateTarget(ds, desired, partition, scope);
  const partitioned = partition > 0 || wanted < desired;
  const rollout = partitioned ? 'partitioned roll out' : 'rollout';
  if (updated < wanted) {
    const paused = strategy?.rollingUpdate?.paused === true ? ' (paused)' : '';
    return {
      message: `Waiting for daemon set "${name}" ${rollout} to finish: ${updated} out of ${wanted} new pods have been updated${paused}...`,
      done: false,
    };
  }
  const available = status?.numberAvailable ?? 0;
  if (available < desired) {
    return {
      message: `Waiting for daemon set "${name}" ${rollout} to finish: ${available} of ${desired} updated pods are available...`,
      done: false,
    };
  }
  if (partitioned) {
    return {
      message: `daemon set "${name}" partitioned roll out complete: ${updated} new pods have been updated...`,
      done: true,
    };
  }
  return { message: `daemon set "${name}" successfully rolled out`, done: true };
}
