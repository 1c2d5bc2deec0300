/**
 * OpenKruise: apis/apps/v1beta1/broadcastjob_types.go (v1.9.0; v1alpha1 has the same fields).
 *
 * The BroadcastJob as the controller reads and writes it.
 */
import type { IntOrString, KnownOrOther, ObjectMeta, PodTemplateSpec } from '../../../api/types.js';

/** `completionPolicy.type`: `Always` — the job finishes when every desired node's pod has; `Never` — it never does. */
export type CompletionPolicyType = KnownOrOther<'Always' | 'Never'>;

/** `failurePolicy.type` (webhook default `FailFast`). */
export type FailurePolicyType = KnownOrOther<'Continue' | 'FailFast' | 'Pause'>;

/** `status.phase`: lower-case, as OpenKruise writes it. */
export type BroadcastJobPhase = KnownOrOther<'completed' | 'running' | 'paused' | 'failed'>;

/** `spec.completionPolicy`. */
export interface CompletionPolicy {
  type?: CompletionPolicyType;
  /** Seconds after `status.startTime` the job fails (`Always` only). */
  activeDeadlineSeconds?: number;
  /** Seconds after `status.completionTime` the job is deleted. */
  ttlSecondsAfterFinished?: number;
}

/** `spec.failurePolicy`. */
export interface FailurePolicy {
  type?: FailurePolicyType;
  /** A `restartPolicy: OnFailure` pod whose containers restarted more often than this counts as failed. */
  restartLimit?: number;
}

/** `spec`. */
export interface BroadcastJobSpec {
  /** Pods active at most: an int, or a percentage of `status.desired` (webhook default 2^31-1). */
  parallelism?: IntOrString;
  template: PodTemplateSpec;
  completionPolicy?: CompletionPolicy;
  paused?: boolean;
  failurePolicy?: FailurePolicy;
}

/** `status.conditions[]` (`JobCondition`). */
export interface JobCondition {
  type: KnownOrOther<'Complete' | 'Failed' | 'FailedValidation'>;
  status: KnownOrOther<'True' | 'False' | 'Unknown'>;
  /** RFC 3339. */
  lastProbeTime?: string | null;
  /** RFC 3339. */
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

/** `status`: the counts and phase are always written (no `omitempty` upstream). */
export interface BroadcastJobStatus {
  conditions?: JobCondition[];
  /** RFC 3339. */
  startTime?: string;
  /** RFC 3339. */
  completionTime?: string;
  active: number;
  succeeded: number;
  failed: number;
  desired: number;
  phase: BroadcastJobPhase;
}

/** An `apps.kruise.io/v1beta1` BroadcastJob. */
export interface BroadcastJob {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: BroadcastJobSpec;
  status?: Partial<BroadcastJobStatus>;
}
