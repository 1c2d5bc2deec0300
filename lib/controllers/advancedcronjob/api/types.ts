/**
 * OpenKruise: apis/apps/v1beta1/advancedcronjob_types.go (v1.9.0, the storage version).
 *
 * The AdvancedCronJob as the controller reads and writes it, and the two kinds of child it makes: batch/v1 Jobs and
 * BroadcastJobs (only the fields it reads; the rest of a child passes through as written).
 */
import type { KnownOrOther, ObjectMeta, PodTemplateSpec } from '../../../api/types.js';

/** `spec.concurrencyPolicy` (webhook default `Allow`). */
export type ConcurrencyPolicy = KnownOrOther<'Allow' | 'Forbid' | 'Replace'>;

/** `status.type`: which template the children come from. */
export type TemplateKind = KnownOrOther<'Job' | 'BroadcastJob' | 'ImageListPullJob'>;

/** A child's template: its metadata (labels and annotations are copied) and spec (copied as written). */
export interface ChildTemplate {
  metadata?: ObjectMeta;
  spec?: Record<string, unknown> & { template?: PodTemplateSpec };
}

/** `spec.template`: one of the three templates. */
export interface CronJobTemplate {
  jobTemplate?: ChildTemplate;
  broadcastJobTemplate?: ChildTemplate;
  imageListPullJobTemplate?: ChildTemplate;
}

/** `spec`. */
export interface AdvancedCronJobSpec {
  schedule: string;
  /** IANA zone of the schedule (not with a `TZ=` prefix in `schedule`). */
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: ConcurrencyPolicy;
  paused?: boolean;
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
  template: CronJobTemplate;
}

/** `corev1.ObjectReference` as `ref.GetReference` fills it for a child. */
export interface ChildReference {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  resourceVersion: string;
}

/** `status`. */
export interface AdvancedCronJobStatus {
  type?: TemplateKind;
  active?: ChildReference[];
  /** RFC 3339. */
  lastScheduleTime?: string;
}

/** An AdvancedCronJob. */
export interface AdvancedCronJob {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: AdvancedCronJobSpec;
  status?: AdvancedCronJobStatus;
}

/** A child condition (batch/v1 `JobCondition`, BroadcastJob's `JobCondition`): only type and status are read. */
export interface ChildCondition {
  type: string;
  status: string;
}

/** A Job or BroadcastJob the AdvancedCronJob made: its metadata, spec, start time and finish conditions. */
export interface CronChild {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: Record<string, unknown>;
  status?: { startTime?: string; conditions?: ChildCondition[] } & Record<string, unknown>;
}
