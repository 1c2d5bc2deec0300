/**
 * The BroadcastJob planner's input and output (./plan.ts `planBroadcastJob`): plain data, no I/O.
 */
import type { FieldError } from '../../../api/errors.js';
import type { Node } from '../../../api/node.js';
import type { Pod } from '../../../api/types.js';
import type { Action, PodRef } from '../../../podset/actions.js';
import type { BroadcastJob, BroadcastJobStatus } from '../api/types.js';

/** An Event the pass records on the job (a `KubeEvent`; declared here so the planner imports nothing of lib/kube). */
export interface PlanEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** What one pass read, and the time. */
export interface BroadcastJobPlanInput {
  /** The job as read (the planner applies the webhook's defaults itself, ../api/defaults.ts). */
  job: BroadcastJob;
  /** Pods whose controller reference names the job's UID (any phase, terminating included). */
  pods: readonly Pod[];
  /** Every Node of the cluster, in list order (pods are created in this order). */
  nodes: readonly Node[];
  now: Date;
  /**
   * Random 5-character suffixes of new pod names (`SAFE_ALPHABET`, as the API server's `generateName`); called once
   * per pod to create, in node order.
   */
  newSuffix: () => string;
  /** Gate `TemplateNoDefaults`: the pod template as stored, without `SetDefaultPodSpec`'s defaults (default false). */
  templateNoDefaults?: boolean;
}

/**
 * How the job finishes in this pass: `Complete` (every desired node's pod finished), or `Failed` with the reason and
 * message of its condition and Event (FailFast: `failed pod is found`; the active deadline: `DeadlineExceeded`).
 */
export type Finish = { type: 'Complete' } | { type: 'Failed'; reason: string; message: string };

/**
 * The counts before this pass's pod writes and what they change: upstream adds each created pod to `active` and
 * moves each deleted pod from `active` to `failed` (`reconcilePods`, `deleteJobPods`); ./status.ts `statusAfter`
 * applies the writes that were made.
 */
export interface Counts {
  active: number;
  succeeded: number;
  failed: number;
  desired: number;
}

/** A pass that syncs the job: pod writes, status, Events. */
export interface SyncPlan {
  type: 'Sync';
  /** The job's status before pod writes (startTime, phase set; counts as listed). */
  base: BroadcastJobStatus;
  /** Events recorded before any write, in order. */
  events: PlanEvent[];
  /** Pods to delete, in order (not fitting their node any more, or the active pods of a failed job). */
  deletes: PodRef[];
  /** Pods to create, in node order; slow-start batches of 1, 2, 4, … (`batch`). */
  creates: Extract<Action, { type: 'CreatePod' }>[];
  /** `KruisePodReady` condition patches of listed pods that have the gate and not the condition. */
  readyPatches: Extract<Action, { type: 'PatchPodStatus' }>[];
  /**
   * `KruisePodReady` True on the pods of `creates` (they get its gate), in create order: OpenKruise's pod-readiness
   * controller writes it as soon as the new pod appears; written with `readyPatches`, only for the pods whose create
   * made them (lib/podset/createdReadiness.ts).
   */
  createdReadyPatches: Extract<Action, { type: 'PatchPodStatus' }>[];
  /** The job finishes in this pass (its condition and Event come after the pod writes, with their counts). */
  finish?: Finish;
  /** The status to write when every planned write is made (./status.ts `statusAfter`). */
  status: BroadcastJobStatus;
  /** Events after the pod writes when every planned write is made (the finish's). */
  finalEvents: PlanEvent[];
  /** Seconds until the pass should run again (active deadline, TTL); absent: no timer. */
  requeueAfterSeconds?: number;
  /** Why no pod could be created (an unreadable `parallelism`); the status is still written. */
  error?: string;
}

/** What one pass does. */
export type BroadcastJobPlan =
  /** The job fails OpenKruise's validating webhook (../api/validation.ts): report it, act on nothing. */
  | { type: 'Invalid'; errors: FieldError[] }
  /** The job finished `ttlSecondsAfterFinished` ago or more: delete it. */
  | { type: 'DeleteJob' }
  /** The job finished: nothing to do, possibly look again when its TTL runs out. */
  | { type: 'Finished'; requeueAfterSeconds?: number }
  | SyncPlan;
