/**
 * OpenKruise: pkg/controller/workloadspread/workloadspread_controller.go `syncWorkloadSpread` (v1.9.0): the whole
 * pass's decision as one record — the pods taken into subsets, the deletion costs to write, the status, whether it changed, the Events,
 * the unschedulable pods the Adaptive strategy deletes (upstream's `cleanupUnscheduledPods`, after the status), and
 * when to look again.
 */
import type { Node } from '../../../api/node.js';
import type { Pod } from '../../../api/types.js';
import type { WorkloadSpread, WorkloadSpreadStatus } from '../api/types.js';
import { planDeletionCosts, type DeletionCostPatch } from './deletionCost.js';
import { planStatus, type StatusEvent, type UnschedulablePods } from './status.js';
import type { PodAdoption } from './existingPods.js';
import { groupPods } from './subsetPods.js';
import { canonicalJson } from './canonical.js';

/** What the pass read of the target (lib/controllers/workloadspread/targets.ts `SpreadTargets`). */
export interface TargetsRead {
  pods: readonly Pod[];
  replicas: number;
  latestVersion: string;
  /** The nodes of the pods this WorkloadSpread did not place, by name (absent: none read). */
  nodes?: ReadonlyMap<string, Node>;
}

/** One pass's decision. */
export interface WorkloadSpreadPlan {
  /** Pods taken into a subset (created before the WorkloadSpread), patched first. */
  adoptions: PodAdoption[];
  deletionCosts: DeletionCostPatch[];
  status: WorkloadSpreadStatus;
  /** Whether `status` differs from the stored one. */
  changed: boolean;
  events: StatusEvent[];
  /** Pods to delete after the status write, by subset in spec order (the Adaptive strategy). */
  unschedulable: UnschedulablePods[];
  /** When the earliest pending record, unschedulable pod or unschedulable mark runs out, ms from now. */
  recheckAfterMs?: number;
}

/**
 * The pass's decision.
 * @param now ms since the epoch
 */
export function planWorkloadSpread(
  ws: WorkloadSpread,
  targets: TargetsRead,
  now: number,
): WorkloadSpreadPlan {
  const { byVersion, all, adoptions } = groupPods(ws, targets.pods, targets.replicas, targets.nodes);
  const deletionCosts = planDeletionCosts(ws, byVersion, targets.latestVersion, targets.replicas);
  const { status, events, unschedulable, recheckAfterMs } = planStatus(
    ws,
    all,
    byVersion,
    targets.replicas,
    now,
  );
  return {
    adoptions,
    deletionCosts,
    status,
    changed: canonicalJson(status) !== canonicalJson(ws.status ?? {}),
    events,
    unschedulable,
    ...(recheckAfterMs !== undefined ? { recheckAfterMs } : {}),
  };
}
