/**
 * The rollout-status line of an Advanced DaemonSet (docs/cli.md#rollout-status). kubectl-kruise v1.2.2 has no status
 * viewer for it, so the words are kubectl's for apps/v1 DaemonSets (k8s.io/kubectl `DaemonSetStatusViewer.Status`),
 * with two Advanced DaemonSet fields worded by Kruiseless: `rollingUpdate.partition` (the rollout is complete once
 * `desiredNumberScheduled − partition` pods are updated, the count OpenKruise's `filterDaemonPodsNodeToUpdate` stops
 * at) and `rollingUpdate.paused` (the waiting line says so; the rollout is not complete and status keeps waiting, as
 * kubectl does for a paused Deployment).
 */
import { scaledValueFromIntOrPercent } from '../api/intOrPercent.js';
import type { DaemonSet } from '../controllers/daemonset/api/types.js';
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

/**
 * The status line of `ds` (without a trailing newline). In order:
 * - `updateStrategy.type` OnDelete: an error (kubectl's words; an unset type counts as RollingUpdate, the webhook's
 *   default, since Kruiseless stores the spec as written);
 * - `metadata.generation` above `status.observedGeneration`: `Waiting for daemon set spec update to be observed...`;
 * - fewer than `desired − partition` pods updated (`updatedNumberScheduled`): kubectl's `… X out of Y new pods have
 *   been updated...`, with a partition `Waiting for daemon set "<name>" partitioned roll out to finish: …`, and
 *   ` (paused)` before the dots while `rollingUpdate.paused` holds the update back;
 * - fewer available pods than desired (`numberAvailable`, old and new pods alike, as kubectl counts):
 *   `… X of Y updated pods are available...`;
 * - else complete: `daemon set "<name>" successfully rolled out`, with a partition
 *   `daemon set "<name>" partitioned roll out complete: X new pods have been updated...`.
 * @throws CliError `rollout status is only available for RollingUpdate strategy type` for an OnDelete DaemonSet
 */
export function daemonSetRolloutStatus(ds: DaemonSet): RolloutStatus {
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
  const wanted = Math.max(0, desired - partition);
  const rollout = partition > 0 ? 'partitioned roll out' : 'rollout';
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
  if (partition > 0) {
    return {
      message: `daemon set "${name}" partitioned roll out complete: ${updated} new pods have been updated...`,
      done: true,
    };
  }
  return { message: `daemon set "${name}" successfully rolled out`, done: true };
}
