/**
 * Which changes of a workload (a CloneSet, Deployment, StatefulSet, …) a controller that follows it by a Map watch
 * acts on: a workload created or deleted, or one whose spec changed and its own controller has not yet observed
 * (`metadata.generation` ahead of `status.observedGeneration`). Upstream's update predicates compare the old and new
 * `spec.replicas` (PodUnavailableBudget, WorkloadSpread); a Map watch sees only the new object, so this is a superset
 * that still skips the status writes of a steady rollout. A relisted workload names nothing: the resync covers
 * the reconciled objects, so a relist costs no LIST per workload.
 */
import type { ChangeType } from './watchSpec.js';

/** The fields the predicate reads. */
export interface GenerationalObject {
  metadata?: { generation?: number };
  status?: { observedGeneration?: number };
}

/** Whether `change` of `w` may concern the controllers that follow it (see the module doc). */
export function workloadChangeConcerns(w: GenerationalObject, change: ChangeType): boolean {
  if (change === 'ADDED' || change === 'DELETED') return true;
  if (change === 'LISTED') return false;
  return (w.metadata?.generation ?? 0) !== (w.status?.observedGeneration ?? 0);
}
