/**
 * OpenKruise: pkg/controller/advancedcronjob/advancedcronjob_controller.go `Reconcile` and its `reconcileJob` /
 * `reconcileBroadcastJob` (one algorithm over two child kinds), v1.9.0.
 *
 * One pass over an AdvancedCronJob (nothing but `Invalid` for one OpenKruise's validating webhook refuses; defaults applied, the templates' pod-spec defaults too unless
 * `templateNoDefaults`) and the children it controls, at `now`:
 * 1. the status from the children (`type`, active references, `lastScheduleTime`) — written when it changed;
 * 2. the finished children beyond `failedJobsHistoryLimit`, then `successfulJobsHistoryLimit`, deleted;
 * 3. paused: nothing more, and no wake-up;
 * 4. the latest missed scheduled time since `lastScheduleTime` (./schedule.ts); an unparsable schedule or more than
 *    100 missed times: nothing more, no wake-up;
 * 5. a wake-up at the next scheduled time (to the millisecond; a wake-up that comes early finds nothing missed and
 *    asks for the rest); nothing missed, a missed time older than `startingDeadlineSeconds`, or
 *    `Forbid` with an active child: nothing more;
 * 6. `Replace`: the active children deleted; then the child of the missed time created (./newChild.ts).
 * OpenKruise records no Event for any of it, and neither does this.
 */
import type { FieldError } from '../../../api/errors.js';
import { withChildTemplateDefaults, withDefaults } from '../api/defaults.js';
import { validateAdvancedCronJob } from '../api/validation.js';
import type { AdvancedCronJob, AdvancedCronJobStatus, ChildTemplate, CronChild } from '../api/types.js';
import { beyondHistoryLimit, lastScheduleOf, sortChildren, statusOf } from './children.js';
import { newChild } from './newChild.js';
import { nextSchedule } from './schedule.js';

/** The two child kinds Kruiseless runs: which template, and the child's apiVersion and Kind. */
export const CHILD_KINDS = {
  Job: { apiVersion: 'batch/v1', kind: 'Job' },
  BroadcastJob: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'BroadcastJob' },
} as const;

/** A child kind of {@link CHILD_KINDS}. */
export type ChildKind = keyof typeof CHILD_KINDS;

/**
 * Which template the object uses, as upstream's `FindTemplateKind`: `jobTemplate`, else `imageListPullJobTemplate`,
 * else `broadcastJobTemplate`; undefined when it has none (upstream would dereference a nil template).
 */
export function templateKindOf(
  acj: AdvancedCronJob,
): { kind: ChildKind | 'ImageListPullJob'; template: ChildTemplate } | undefined {
  const t = acj.spec.template ?? {};
  if (t.jobTemplate) return { kind: 'Job', template: t.jobTemplate };
  if (t.imageListPullJobTemplate) return { kind: 'ImageListPullJob', template: t.imageListPullJobTemplate };
  if (t.broadcastJobTemplate) return { kind: 'BroadcastJob', template: t.broadcastJobTemplate };
  return undefined;
}

/**
 * Whether `child` is one of `acj`'s, as upstream's field index `.metadata.controller` keeps it: its controller
 * reference is an AdvancedCronJob of that name (not uid) — `apps.kruise.io/v1alpha1` or `v1beta1` for a Job,
 * `v1beta1` only for a BroadcastJob.
 */
export function isChildOf(acjName: string, child: CronChild, kind: ChildKind): boolean {
  const ref = child.metadata.ownerReferences?.find((o) => o.controller);
  if (!ref || ref.kind !== 'AdvancedCronJob' || ref.name !== acjName) return false;
  return kind === 'Job'
    ? ref.apiVersion === 'apps.kruise.io/v1beta1' || ref.apiVersion === 'apps.kruise.io/v1alpha1'
    : ref.apiVersion === 'apps.kruise.io/v1beta1';
}

/** Why a pass creates nothing (undefined: it creates). */
export type SkipReason =
  'Paused' | 'UnparsableSchedule' | 'TooManyMissed' | 'NotDue' | 'TooLate' | 'ForbidConcurrent';

/** One pass's writes, in order: status, history deletes, replace deletes, create; then the wake-up. */
export interface AdvancedCronJobPlan {
  type: 'Reconcile';
  childKind: ChildKind;
  /** The status to write, when it differs from the stored one. */
  status?: AdvancedCronJobStatus;
  /** Finished children beyond the history limits: failed first, then successful, oldest first. */
  historyDeletes: CronChild[];
  /** `Replace`: the active children deleted before the new one is created. */
  replaceDeletes: CronChild[];
  create?: CronChild;
  skip?: SkipReason;
  /** The schedule's problem (Unparsable, TooManyMissed), as upstream logs it. */
  message?: string;
  /**
   * Seconds from the pass's `now` to the next scheduled time, to the millisecond (OpenKruise requeues after
   * `nextRun - now`, a Duration), when the pass asks for a wake-up.
   */
  requeueAfterSeconds?: number;
}

/** A template kind Kruiseless does not run (ImageListPullJob), or no template: nothing is written. */
export interface UnsupportedPlan {
  type: 'Unsupported';
  templateKind: string;
}

/** What OpenKruise's validating webhook refuses (../api/validation.ts): reported, nothing scheduled. */
export interface InvalidPlan {
  type: 'Invalid';
  errors: FieldError[];
}

/** What one pass reads. */
export interface AdvancedCronJobInput {
  acj: AdvancedCronJob;
  /** The namespace's children of the template's kind (filtered here by {@link isChildOf}). */
  children: readonly CronChild[];
  now: Date;
  /** Gate `TemplateNoDefaults`: the templates as stored, without `SetDefaultPodSpec`'s defaults (default false). */
  templateNoDefaults?: boolean;
}

/** The plan of one pass (see the module doc). Pure. */
export function planAdvancedCronJob(
  input: AdvancedCronJobInput,
): AdvancedCronJobPlan | UnsupportedPlan | InvalidPlan {
  const acj = input.templateNoDefaults
    ? withDefaults(input.acj)
    : withChildTemplateDefaults(withDefaults(input.acj));
  const errors = validateAdvancedCronJob(acj);
  if (errors.length > 0) return { type: 'Invalid', errors };
  const found = templateKindOf(acj);
  if (!found || found.kind === 'ImageListPullJob')
    return { type: 'Unsupported', templateKind: found?.kind ?? 'none' };
  const childKind = found.kind;
  const { apiVersion, kind } = CHILD_KINDS[childKind];
  const name = acj.metadata.name ?? '';
  const sorted = sortChildren(input.children.filter((c) => isChildOf(name, c, childKind)));
  const lastScheduleMs = lastScheduleOf([...sorted.active, ...sorted.successful, ...sorted.failed]);
  const status = statusOf(childKind, sorted, lastScheduleMs, apiVersion, kind);
  const plan: AdvancedCronJobPlan = {
    type: 'Reconcile',
    childKind,
    ...(sameStatus(input.acj.status, status) ? {} : { status }),
    historyDeletes: [
      ...beyondHistoryLimit(sorted.failed, acj.spec.failedJobsHistoryLimit ?? 0),
      ...beyondHistoryLimit(sorted.successful, acj.spec.successfulJobsHistoryLimit ?? 0),
    ],
    replaceDeletes: [],
  };
  if (acj.spec.paused) return { ...plan, skip: 'Paused' };

  const nowMs = input.now.getTime();
  const creationMs = Date.parse(acj.metadata.creationTimestamp ?? '') || 0;
  const due = nextSchedule(acj.spec, creationMs, lastScheduleMs, nowMs);
  if (due.type === 'Unparsable') return { ...plan, skip: 'UnparsableSchedule', message: due.message };
  if (due.type === 'TooManyMissed') return { ...plan, skip: 'TooManyMissed', message: due.message };
  const wake =
    due.nextMs !== undefined && due.nextMs > nowMs
      ? { requeueAfterSeconds: (due.nextMs - nowMs) / 1000 }
      : {};
  const missed = due.missedMs;
  if (missed === undefined) return { ...plan, ...wake, skip: 'NotDue' };
  const deadline = acj.spec.startingDeadlineSeconds;
  if (deadline !== undefined && missed + deadline * 1000 < nowMs)
    return { ...plan, ...wake, skip: 'TooLate' };
  if (acj.spec.concurrencyPolicy === 'Forbid' && sorted.active.length > 0)
    return { ...plan, ...wake, skip: 'ForbidConcurrent' };
  return {
    ...plan,
    ...wake,
    replaceDeletes: acj.spec.concurrencyPolicy === 'Replace' ? sorted.active : [],
    create: newChild(acj, found.template, missed, apiVersion, kind),
  };
}

/** Whether the stored status already says what `next` says (an equal status is not written again). */
function sameStatus(stored: AdvancedCronJobStatus | undefined, next: AdvancedCronJobStatus): boolean {
  const s = stored ?? {};
  const storedTime = s.lastScheduleTime ? Date.parse(s.lastScheduleTime) : undefined;
  const nextTime = next.lastScheduleTime ? Date.parse(next.lastScheduleTime) : undefined;
  return (
    (s.type ?? '') === (next.type ?? '') &&
    storedTime === nextTime &&
    refsText(s.active) === refsText(next.active)
  );
}

function refsText(refs: AdvancedCronJobStatus['active']): string {
  return (refs ?? [])
    .map((r) => [r.apiVersion, r.kind, r.namespace, r.name, r.uid, r.resourceVersion].join('|'))
    .join(',');
}
