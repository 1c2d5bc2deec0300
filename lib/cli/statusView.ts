/**
 * The rollout-status message of a CloneSet (docs/cli.md#rollout-status), as `kubectl rollout status` words it
 * for Deployments (k8s.io/kubectl `DeploymentStatusViewer.Status`) with the CloneSet checks of kubectl-kruise
 * (`CloneSetStatusViewer.Status`: observed generation, partition).
 */
import { calculatePartitionReplicas } from '../api/intOrPercent.js';
import type { CloneSet } from '../api/types.js';
import { ProgressingReason } from '../controllers/cloneset/plan/index.js';
import { CliError } from './io.js';

/** One look at a rollout: the line to print and whether the rollout is complete. */
export interface RolloutStatus {
  message: string;
  done: boolean;
}

/**
 * The status line of `cs` (without a trailing newline). In order: spec change not observed yet; progress deadline
 * exceeded (an error); with a partition, fewer updated pods than `replicas − partition`; fewer updated replicas
 * than desired; old replicas still present; updated replicas not yet available; else complete.
 * @throws CliError `cloneset "<name>" exceeded its progress deadline` when the Progressing condition says so
 */
export function rolloutStatus(cs: CloneSet): RolloutStatus {
  const name = cs.metadata.name ?? '';
  const status = cs.status;
  const observed = status?.observedGeneration ?? 0;
  if (!status || observed === 0 || (cs.metadata.generation ?? 0) > observed) {
    return { message: 'Waiting for CloneSet spec update to be observed...', done: false };
  }
  const progressing = (status.conditions ?? []).find((c) => c.type === 'Progressing');
  if (progressing?.reason === ProgressingReason.DeadlineExceeded) {
    throw new CliError(`cloneset "${name}" exceeded its progress deadline`);
  }
  const replicas = cs.spec.replicas ?? 1;
  const partition = partitionOf(cs, replicas);
  if (partition > 0) {
    const wanted = Math.max(0, replicas - partition);
    if (status.updatedReplicas < wanted) {
      return {
        message: `Waiting for partitioned roll out to finish: ${status.updatedReplicas} out of ${wanted} new pods have been updated...`,
        done: false,
      };
    }
    if (status.updatedReadyReplicas < wanted) {
      return {
        message: `Waiting for partitioned roll out to finish: ${status.updatedReadyReplicas} of ${wanted} updated pods are ready...`,
        done: false,
      };
    }
    return {
      message: `partitioned roll out complete: ${status.updatedReplicas} new pods have been updated...`,
      done: true,
    };
  }
  if (status.updatedReplicas < replicas) {
    return {
      message: `Waiting for rollout to finish: ${status.updatedReplicas} out of ${replicas} new replicas have been updated...`,
      done: false,
    };
  }
  if (status.replicas > status.updatedReplicas) {
    return {
      message: `Waiting for rollout to finish: ${status.replicas - status.updatedReplicas} old replicas are pending termination...`,
      done: false,
    };
  }
  const updatedAvailable =
    status.updatedAvailableReplicas ?? Math.min(status.availableReplicas, status.updatedReplicas);
  if (updatedAvailable < status.updatedReplicas) {
    return {
      message: `Waiting for rollout to finish: ${updatedAvailable} of ${status.updatedReplicas} updated replicas are available...`,
      done: false,
    };
  }
  return { message: `cloneset "${name}" successfully rolled out`, done: true };
}

/** The partition in pods (rounded up like OpenKruise), 0 when unset or invalid (the planner reports that). */
function partitionOf(cs: CloneSet, replicas: number): number {
  const p = cs.spec.updateStrategy?.partition;
  if (p === undefined) return 0;
  try {
    return calculatePartitionReplicas(p, replicas);
  } catch {
    return 0;
  }
}
