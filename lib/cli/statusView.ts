/**
 * The rollout-status message of a CloneSet or an Advanced StatefulSet (docs/cli.md#rollout-status). A CloneSet's as
 * `kubectl rollout status` words it for Deployments (k8s.io/kubectl `DeploymentStatusViewer.Status`) with the
 * CloneSet checks of kubectl-kruise (`CloneSetStatusViewer.Status`: observed generation, partition); an Advanced
 * StatefulSet's as kubectl-kruise's `AdvancedStatefulSetStatusViewer.Status`.
 */
import { calculatePartitionReplicas } from '../api/intOrPercent.js';
import type { CloneSet } from '../api/types.js';
import type { StatefulSet } from '../controllers/statefulset/api/types.js';
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

/**
 * The status line of an Advanced StatefulSet (without a trailing newline), as kubectl-kruise v1.2.2 words it
 * (`AdvancedStatefulSetStatusViewer.Status`, its spelling kept so that scripts matching it keep working). In order:
 * with a RollingUpdate strategy, fewer updated pods than `replicas − partition`; the spec change not observed yet;
 * fewer ready pods than `replicas`; else complete, naming the available pods and the update revision.
 * An unset strategy type, partition or replicas count as OpenKruise's webhook defaults them (RollingUpdate, 0, 1),
 * since Kruiseless stores the spec as written.
 */
export function statefulSetRolloutStatus(sts: StatefulSet): RolloutStatus {
  const replicas = sts.spec.replicas ?? 1;
  const status = sts.status;
  const updated = status?.updatedReplicas ?? 0;
  if ((sts.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
    const wanted = replicas - (sts.spec.updateStrategy?.rollingUpdate?.partition ?? 0);
    if (updated < wanted) {
      return {
        message: `Waiting for partitioned roll out to finish:${updated} out of ${wanted} new pods has been updated...`,
        done: false,
      };
    }
  }
  const observed = status?.observedGeneration ?? 0;
  if (observed === 0 || (sts.metadata.generation ?? 0) > observed) {
    return { message: 'Waiting for Advanced StatefulSet spec update to be observed...', done: false };
  }
  const ready = status?.readyReplicas ?? 0;
  if (ready < replicas)
    return { message: `Waiting for ${replicas - ready} pods to be ready...`, done: false };
  return {
    message: `Advanced StatefulSet rolling update complete ${status?.availableReplicas ?? 0} pods at revision ${status?.updateRevision ?? ''}...`,
    done: true,
  };
}
