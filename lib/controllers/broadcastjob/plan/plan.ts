/**
 * OpenKruise: pkg/controller/broadcastjob/broadcastjob_controller.go `Reconcile` (after the expectations check),
 * `reconcilePods`, `isJobComplete`, `isJobFailed`; broadcastjob_utils.go `IsJobFinished`, `pastActiveDeadline`,
 * `pastTTLDeadline`.
 *
 * One decision over one BroadcastJob: delete it after its TTL, or the pods to delete and create, the Events, the
 * status and when to look again. Pure: time comes in as `now`, randomness as `newSuffix`.
 */
import { legacyScaledValueOrUndefined } from '../../../api/intOrPercent.js';
import { metaTime } from '../../../api/time.js';
import type { Pod } from '../../../api/types.js';
import { initKruisePodReady } from '../../../podset/podReadiness.js';
import { readinessOfCreated } from '../../../podset/createdReadiness.js';
import { isPodActive, podRef } from '../../../podset/pods.js';
import { withDefaults, withPodTemplateDefaults, DEFAULT_PARALLELISM } from '../api/defaults.js';
import { validateBroadcastJob } from '../api/validation.js';
import {
  BcjEventReason,
  CONDITION_FAILED_VALIDATION,
  FAIL_FAST_MESSAGE,
  JobConditionType,
  Phase,
} from '../api/keys.js';
import type { BroadcastJob, BroadcastJobStatus, JobCondition } from '../api/types.js';
import { buildJobPod } from './newPod.js';
import { nodesToRunPod } from './nodes.js';
import { podsByNode, podsByOutcome } from './pods.js';
import { allWritesMade, statusAfter, tally } from './status.js';
import type { BroadcastJobPlan, BroadcastJobPlanInput, Finish, PlanEvent, SyncPlan } from './types.js';

/** The stored conditions but a `FailedValidation` one (the job is valid now), or nothing when none is left. */
function conditionsKept(conditions: JobCondition[] | undefined): { conditions?: JobCondition[] } {
  const kept = (conditions ?? []).filter((c) => c.type !== CONDITION_FAILED_VALIDATION);
  return kept.length > 0 ? { conditions: kept } : {};
}

const ms = (t: string | undefined): number | undefined => (t ? Date.parse(t) : undefined);
const ceilSeconds = (millis: number): number => Math.max(1, Math.ceil(millis / 1000));

/**
 * Whether the job has finished (`IsJobFinished`): never under completion policy `Never`; otherwise a `Complete` or
 * `Failed` condition with status True.
 */
export function isJobFinished(job: BroadcastJob): boolean {
  if (job.spec.completionPolicy?.type === 'Never') return false;
  return (job.status?.conditions ?? []).some(
    (c) =>
      (c.type === JobConditionType.Complete || c.type === JobConditionType.Failed) && c.status === 'True',
  );
}

/**
 * Milliseconds left of `ttlSecondsAfterFinished` after `completionTime` (`pastTTLDeadline`): ≤ 0 when past;
 * undefined without a TTL or completion time.
 */
export function ttlLeftMs(job: BroadcastJob, now: Date): number | undefined {
  const ttl = job.spec.completionPolicy?.ttlSecondsAfterFinished;
  const done = ms(job.status?.completionTime);
  if (ttl === undefined || ttl === null || done === undefined) return undefined;
  return ttl * 1000 - (now.getTime() - done);
}

/**
 * Milliseconds left of `activeDeadlineSeconds` after `startTime` (`pastActiveDeadline`): ≤ 0 when past; undefined
 * without a deadline or start time.
 */
export function deadlineLeftMs(
  job: BroadcastJob,
  startTime: string | undefined,
  now: Date,
): number | undefined {
  const deadline = job.spec.completionPolicy?.activeDeadlineSeconds;
  const start = ms(startTime);
  if (deadline === undefined || deadline === null || start === undefined) return undefined;
  return deadline * 1000 - (now.getTime() - start);
}

/**
 * Whether every desired node has a pod that is no longer active (`isJobComplete`): never under `Never`, nor with no
 * desired node.
 */
export function isJobComplete(job: BroadcastJob, desired: ReadonlyMap<string, Pod | null>): boolean {
  if (job.spec.completionPolicy?.type === 'Never' || desired.size === 0) return false;
  return [...desired.values()].every((pod) => pod !== null && !isPodActive(pod));
}

/**
 * The plan for one pass over `input.job` (upstream's order, after its webhooks: defaults applied — the pod
 * template's too unless `templateNoDefaults` — and a job its validating webhook would refuse is `Invalid` and
 * nothing else is planned):
 * 1. a finished job ({@link isJobFinished}) is deleted once its TTL is past, else looked at again when it runs out;
 * 2. `startTime` set to now when absent, `phase` to `running` when empty; the counts from the listed pods
 *    (./pods.ts), `desired` from the nodes (./nodes.ts);
 * 3. phase `failed` (a `Never` job that failed): only the counts are written;
 * 4. `paused`: phase `paused`, only the counts; unpaused from phase `paused`: phase `running` and Normal `Continue`
 *    `continue to process job`;
 * 5. failed pods: `Pause` — Warning `Paused` `job is paused, due to failed pod`, phase `paused`, nothing else;
 *    `FailFast` — Warning `failed pod is found` with the counts, and the job fails; past the active deadline
 *    (`Always` only) it fails with `DeadlineExceeded`. A failing job deletes its active pods and is `failed`;
 * 6. otherwise the pods that no longer fit their node are deleted, then up to `parallelism` (an int, or a legacy
 *    percentage of `desired` rounded up) minus `active` pods created on the nodes still without one — Warning
 *    `TooManyActivePods` when `active` is above it — and the job completes when every desired node's pod finished;
 * 7. the `KruisePodReady` condition on the listed pods with its gate and without it (not those deleted), and on
 *    the pods this pass creates (`createdReadyPatches`, as OpenKruise's pod-readiness controller reacts to them).
 *
 * Requeue: a finishing job with a TTL after TTL+1 s (upstream); a running `Always` job with a deadline when it runs
 * out — upstream asks for that only on the pass that sets `startTime`; Kruiseless asks on every pass, since a pass
 * that asks for nothing must not lose the deadline's timer.
 */
export function planBroadcastJob(input: BroadcastJobPlanInput): BroadcastJobPlan {
  const job = input.templateNoDefaults
    ? withDefaults(input.job)
    : withPodTemplateDefaults(withDefaults(input.job));
  const errors = validateBroadcastJob(job);
  if (errors.length > 0) return { type: 'Invalid', errors };
  const { now } = input;
  if (isJobFinished(job)) {
    const left = ttlLeftMs(job, now);
    if (left === undefined) return { type: 'Finished' };
    if (left <= 0) return { type: 'DeleteJob' };
    return { type: 'Finished', requeueAfterSeconds: ceilSeconds(left) };
  }
  const stored = job.status ?? {};
  const startTime = stored.startTime ?? metaTime(now);
  const always = job.spec.completionPolicy?.type === 'Always';
  const deadlineLeft = always ? deadlineLeftMs(job, startTime, now) : undefined;
  const deadlineRequeue =
    deadlineLeft !== undefined && deadlineLeft > 0 ? ceilSeconds(deadlineLeft) : undefined;

  const restartLimit = job.spec.failurePolicy?.restartLimit ?? 0;
  const outcome = podsByOutcome(restartLimit, input.pods);
  const { byNode, events: duplicateEvents } = podsByNode(input.pods);
  const placement = nodesToRunPod(job, input.nodes, byNode);
  const base: BroadcastJobStatus = {
    ...conditionsKept(stored.conditions),
    startTime,
    ...(stored.completionTime ? { completionTime: stored.completionTime } : {}),
    active: outcome.active.length,
    succeeded: outcome.succeeded.length,
    failed: outcome.failed.length,
    desired: placement.desired.size,
    phase: stored.phase || Phase.Running,
  };
  const events: PlanEvent[] = [...duplicateEvents];
  const plan = (over: Partial<SyncPlan> & Pick<SyncPlan, 'base'>): SyncPlan => {
    const p: SyncPlan = {
      type: 'Sync',
      events,
      deletes: [],
      creates: [],
      readyPatches: [],
      createdReadyPatches: [],
      status: over.base,
      finalEvents: [],
      ...(deadlineRequeue !== undefined ? { requeueAfterSeconds: deadlineRequeue } : {}),
      ...over,
    };
    const after = statusAfter(
      p,
      allWritesMade(p),
      now,
      `${job.metadata.namespace ?? ''}/${job.metadata.name ?? ''}`,
    );
    return { ...p, status: after.status, finalEvents: after.events };
  };

  if (base.phase === Phase.Failed) return plan({ base });
  if (job.spec.paused && (base.phase === Phase.Running || base.phase === Phase.Paused))
    return plan({ base: { ...base, phase: Phase.Paused } });
  if (!job.spec.paused && base.phase === Phase.Paused) {
    base.phase = Phase.Running;
    events.push({ type: 'Normal', reason: BcjEventReason.Continue, message: 'continue to process job' });
  }

  let finish: Finish | undefined;
  if (base.failed > 0) {
    const policy = job.spec.failurePolicy?.type;
    if (policy === 'Pause') {
      events.push({
        type: 'Warning',
        reason: BcjEventReason.Paused,
        message: 'job is paused, due to failed pod',
      });
      return plan({ base: { ...base, phase: Phase.Paused } });
    }
    if (policy === 'FailFast') {
      finish = { type: 'Failed', reason: BcjEventReason.FailedPodFound, message: FAIL_FAST_MESSAGE };
      events.push({
        type: 'Warning',
        reason: finish.reason,
        message: `${FAIL_FAST_MESSAGE}: ${tally(base.succeeded, base.failed)}`,
      });
    }
  }
  if (!finish && always && deadlineLeft !== undefined && deadlineLeft <= 0) {
    const ref = `${job.metadata.namespace ?? ''}/${job.metadata.name ?? ''}`;
    finish = {
      type: 'Failed',
      reason: BcjEventReason.DeadlineExceeded,
      message: `Job ${ref} was active longer than specified deadline`,
    };
  }
  const ready = (pods: readonly Pod[], skip: ReadonlySet<string>) => initKruisePodReady(pods, skip, now);
  const ttl = job.spec.completionPolicy?.ttlSecondsAfterFinished;
  const finishRequeue = ttl !== undefined && ttl !== null ? { requeueAfterSeconds: ttl + 1 } : {};

  if (finish) {
    const deletes = outcome.active.map(podRef);
    const { requeueAfterSeconds: _r, ...rest } = plan({
      base: { ...base, phase: Phase.Failed },
      deletes,
      finish,
    });
    return { ...rest, ...finishRequeue };
  }

  const deletes = placement.unfit.map(podRef);
  const activeAfterDeletes = base.active - deletes.length;
  let creates: SyncPlan['creates'] = [];
  let error: string | undefined;
  if (!job.metadata.deletionTimestamp && placement.rest.length > 0) {
    const parallelism = legacyScaledValueOrUndefined(
      job.spec.parallelism ?? DEFAULT_PARALLELISM,
      base.desired,
      'up',
    );
    if (parallelism === undefined) {
      error = `invalid value for IntOrString: invalid value "${String(job.spec.parallelism)}"`;
    } else if (activeAfterDeletes > parallelism) {
      events.push({
        type: 'Warning',
        reason: BcjEventReason.TooManyActivePods,
        message: 'Number of active pods exceed parallelism limit',
      });
    } else if (activeAfterDeletes < parallelism) {
      const count = Math.min(parallelism - activeAfterDeletes, placement.rest.length);
      creates = placement.rest.slice(0, count).map((node, k) => ({
        type: 'CreatePod',
        pod: buildJobPod(job, node.metadata.name ?? '', input.newSuffix()),
        pvcs: [],
        revision: '',
        batch: Math.floor(Math.log2(k + 1)),
      }));
    }
  }
  const complete = isJobComplete(job, placement.desired);
  const skip = new Set(deletes.map((d) => d.name));
  const synced = plan({
    base: complete ? { ...base, phase: Phase.Completed } : base,
    deletes,
    creates,
    readyPatches: ready(input.pods, skip),
    createdReadyPatches: readinessOfCreated(
      creates.map((c) => c.pod),
      now,
    ),
    ...(complete ? { finish: { type: 'Complete' } } : {}),
    ...(error ? { error } : {}),
  });
  if (!complete) return synced;
  const { requeueAfterSeconds: _r, ...rest } = synced;
  return { ...rest, ...finishRequeue };
}
