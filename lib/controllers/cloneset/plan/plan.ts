/**
 * OpenKruise: pkg/controller/cloneset/cloneset_controller.go `doReconcile`, `syncCloneSet`,
 * `truncatePodsToDelete`, without the I/O.
 *
 * The CloneSet planner: one pure function from what the API server holds to what the controller does next
 * (docs/behaviour/cloneset.md#reconcile-order, OpenKruise's reconcile, minus the I/O). Expectations and
 * leases are the caller's business (lib/reconcile, docs/behaviour/cloneset.md#expectations): call this only
 * when they allow acting.
 */
import { checkCloneSet } from '../api/check.js';
import { v1beta1View } from '../api/conversion.js';
import { describeFieldErrors, type FieldError } from '../../../api/errors.js';
import { EventReason, GROUP, KIND } from '../../../api/keys.js';
import type { CloneSet, CloneSetCondition, CloneSetStatus, JsonObject, Pod } from '../../../api/types.js';
import { emptyDiff } from './sync/diff.js';
import { calculateStatus } from './status.js';
import { metaTime } from '../../../api/time.js';
import { cleanupPVCs, cloneSetPodClaimer } from './ownership.js';
import { claimPods } from '../../../podset/ownership.js';
import { isPodActive } from '../../../podset/pods.js';
import { computeRevisions, truncateHistory } from './revision/revision.js';
import { initKruisePodReady, podsDeletedOrMarked } from '../../../podset/podReadiness.js';
import { planScale } from './sync/scale.js';
import { resolveStrategy } from './strategy.js';
import { DEFAULT_PLANNER_OPTIONS, type PhaseContext, type Plan, type PlanInput } from './types.js';
import type { Action } from '../../../podset/actions.js';
import { planUpdate } from './sync/update.js';
import { hasPreDownloadWrites, planImagePullJobs } from './predownload/jobs.js';
import { isPrePullPod, planPrePullPods } from './predownload/prePullPods.js';
import { CONDITION_FAILED_VALIDATION } from '../../../api/failedValidation.js';

/**
 * Condition type Kruiseless sets while the CloneSet fails validation (docs/behaviour/cloneset.md#validation);
 * removed once it is valid.
 */
export { CONDITION_FAILED_VALIDATION };

/** Whether `pod` has any owner reference with `uid` (docs/behaviour/cloneset.md#reconcile-order). */
function ownedBy(uid: string | undefined) {
  return (o: { metadata: { ownerReferences?: { uid: string }[] } }) =>
    !!uid && (o.metadata.ownerReferences ?? []).some((r) => r.uid === uid);
}

/**
 * Smallest positive of the given delays (seconds), else undefined
 * (docs/behaviour/cloneset.md#reconcile-order).
 */
export function smallestPositive(...delays: (number | undefined)[]): number | undefined {
  const positive = delays.filter((d): d is number => d !== undefined && d > 0);
  return positive.length ? Math.min(...positive) : undefined;
}

function byName(a: Pod, b: Pod): number {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The plan for a CloneSet that failed validation: no writes but a condition and a Warning event. */
function invalidPlan(cs: CloneSet, errors: FieldError[], now: Date): Plan {
  const message = describeFieldErrors(errors);
  // every printer column of docs/behaviour/cloneset.md#api-fields shows a number, even before the first valid
  // reconcile
  const old: CloneSetStatus = {
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    updatedReplicas: 0,
    updatedReadyReplicas: 0,
    ...(cs.status ?? {}),
  };
  const previous = (old.conditions ?? []).find((c) => c.type === CONDITION_FAILED_VALIDATION);
  const unchanged = previous?.status === 'True' && previous.message === message;
  const condition: CloneSetCondition = unchanged
    ? previous
    : {
        type: CONDITION_FAILED_VALIDATION,
        status: 'True',
        reason: 'InvalidSpec',
        message,
        lastUpdateTime: metaTime(now),
        lastTransitionTime:
          previous?.status === 'True' ? (previous.lastTransitionTime ?? metaTime(now)) : metaTime(now),
      };
  const status: CloneSetStatus = {
    ...old,
    conditions: [...(old.conditions ?? []).filter((c) => c.type !== CONDITION_FAILED_VALIDATION), condition],
  };
  return {
    validationErrors: errors,
    revisions: {
      updateRevision: old.updateRevision ?? '',
      currentRevision: old.currentRevision ?? '',
      collisionCount: old.collisionCount ?? 0,
      deleteNames: [],
    },
    phase: 'none',
    diff: emptyDiff(),
    actions: [],
    status,
    statusChanged: !unchanged,
    events: unchanged ? [] : [{ type: 'Warning', reason: EventReason.FailedValidation, message }],
  };
}

/**
 * Plan one reconcile of a CloneSet (docs/behaviour/cloneset.md#reconcile-order): default and validate the
 * CloneSet (docs/behaviour/cloneset.md#validation), keep the owned pods and PVCs, clean up PVCs when reuse is
 * disabled, claim/release pods (docs/behaviour/cloneset.md#ownership), choose the current and update
 * revisions (docs/behaviour/cloneset.md#revisions), run the scale phase and — only if it changed nothing —
 * the update phase (docs/behaviour/cloneset.md#one-phase, docs/behaviour/cloneset.md#scale-phase,
 * docs/behaviour/cloneset.md#update-phase), compute the status (docs/behaviour/cloneset.md#status), truncate
 * `podsToDelete` and revision history (docs/behaviour/cloneset.md#after-status), and pick the requeue delay.
 * Before the phases, the image pre-download step (docs/behaviour/cloneset.md#image-pre-download) decides its
 * ImagePullJob writes and, without a node agent, its pre-pull pods.
 * Last come the first `KruisePodReady` conditions of pods created with that gate
 * (docs/behaviour/cloneset.md#kruise-pod-ready), whatever the phase.
 *
 * Deterministic: the clock is `input.now`, new instance ids come from `input.newInstanceId`, and pods are
 * taken in name order. Never throws for bad cluster data: a CloneSet that fails validation yields a plan with
 * `validationErrors`, no actions, a `FailedValidation` condition and a Warning event.
 * @returns the plan (actions in the order they must be written)
 */
export function planCloneSet(input: PlanInput): Plan {
  const options = { ...DEFAULT_PLANNER_OPTIONS, ...(input.options ?? {}) };
  const { cloneSet: cs, errors } = checkCloneSet(input.cloneSet, {
    templateNoDefaults: options.templateNoDefaults,
    allowOnDelete: true,
    progressDeadlineRules: false,
  });
  if (errors.length > 0) return invalidPlan(cs, errors, input.now);

  const uid = cs.metadata.uid;
  const deleting = !!cs.metadata.deletionTimestamp;
  const ownedPods = input.pods
    .filter(ownedBy(uid))
    .filter((p) => !isPrePullPod(p))
    .sort(byName);
  const ownedPvcs = input.pvcs.filter(ownedBy(uid)).filter((p) => !p.metadata.deletionTimestamp);

  const actions: Action[] = [];
  const pvcCleanup = cleanupPVCs(cs, ownedPods, ownedPvcs);
  actions.push(...pvcCleanup.actions);
  const claim = deleting
    ? { claimed: ownedPods.filter(isPodActive).filter((p) => isControlledBy(p, uid)), actions: [] }
    : claimPods(cloneSetPodClaimer(cs), ownedPods);
  actions.push(...claim.actions);
  const pods = claim.claimed;

  const revisions = computeRevisions(cs, input.revisions);
  // OpenKruise's controller reads v1beta1, where a v1beta1 write's excludePreparingDelete and an OnDelete's
  // rollingUpdate block live on
  const strategy = resolveStrategy(cs, options, v1beta1View(input.cloneSet as unknown as JsonObject));
  const ctx: PhaseContext = {
    cloneSet: cs,
    strategy,
    currentRevision: revisions.current,
    updateRevision: revisions.update,
    revisions: revisions.plan.create ? [...revisions.sorted, revisions.plan.create] : revisions.sorted,
    pods,
    pvcs: pvcCleanup.keep,
    now: input.now,
    options,
    newInstanceId: input.newInstanceId,
    ...(input.nodeLabels ? { nodeLabels: input.nodeLabels } : {}),
  };

  const preDownload = planImagePullJobs(ctx, input.imagePullJobs);
  const prePull = planPrePullPods(ctx, input.prePullPods, input.nodeAgent ?? false);
  if (prePull.create.length > 0 || prePull.delete.length > 0) preDownload.prePull = prePull;

  let phase: Plan['phase'] = 'none';
  let diff = emptyDiff();
  const events: Plan['events'] = [];
  let scaleError: string | undefined;
  let updateError: string | undefined;
  let updateRan = false;
  let phaseRequeue: number | undefined;
  let ifNoneCreated: Action[] | undefined;
  if (!deleting) {
    const scale = planScale(ctx);
    diff = scale.diff;
    events.push(...scale.events);
    actions.push(...scale.actions);
    scaleError = scale.error;
    phaseRequeue = scale.requeueAfterSeconds;
    if (scale.changed) {
      phase = 'scale';
      if (scale.actions.every((a) => a.type === 'CreatePod')) {
        const update = planUpdate(ctx);
        const fallback = [
          ...update.actions,
          ...initKruisePodReady(pods, podsDeletedOrMarked(update.actions), input.now),
        ];
        if (fallback.length > 0) ifNoneCreated = fallback;
      }
    } else {
      const update = planUpdate(ctx);
      updateRan = true;
      events.push(...update.events);
      actions.push(...update.actions);
      updateError = update.error;
      phaseRequeue = smallestPositive(phaseRequeue, update.requeueAfterSeconds);
      if (update.actions.length > 0) phase = 'update';
    }
  }

  // OpenKruise's pod-readiness controller runs beside the CloneSet controller: its first KruisePodReady
  // condition does not count as a phase's change
  actions.push(...initKruisePodReady(pods, podsDeletedOrMarked(actions), input.now));

  // a phase error is also told as a Warning Event (the executor records a repeat once per invocation)
  if (scaleError) events.push({ type: 'Warning', reason: EventReason.FailedScale, message: scaleError });
  if (updateError) events.push({ type: 'Warning', reason: EventReason.FailedUpdate, message: updateError });
  const statusResult = calculateStatus({
    cloneSet: cs,
    pods,
    strategy,
    updateRevision: revisions.plan.updateRevision,
    currentRevision: revisions.plan.currentRevision,
    collisionCount: revisions.plan.collisionCount,
    now: input.now,
    scaleError,
    updateError,
    scaleRan: !deleting,
    updateRan,
  });
  const status = statusResult.status;
  const currentRevision = status.currentRevision ?? revisions.plan.currentRevision;

  const listed = cs.spec.scaleStrategy?.podsToDelete;
  const activeNames = new Set(pods.map((p) => p.metadata.name));
  const survivors = listed?.filter((n) => activeNames.has(n));
  const podsToDelete = listed && survivors && survivors.length !== listed.length ? survivors : undefined;

  const syncOk = !scaleError && !updateError;
  const minReady = strategy.minReadySeconds;
  const minReadyRequeue =
    syncOk && minReady > 0 && status.availableReplicas !== status.readyReplicas ? minReady : undefined;

  return {
    validationErrors: [],
    revisions: {
      ...revisions.plan,
      currentRevision,
      deleteNames: truncateHistory(
        cs,
        revisions.sorted,
        pods,
        currentRevision,
        revisions.plan.updateRevision,
      ),
    },
    phase,
    diff,
    actions,
    ...(ifNoneCreated ? { ifNoneCreated } : {}),
    status: stripFailedValidation(status),
    statusChanged: statusResult.statusChanged || hasFailedValidation(cs.status),
    ...(podsToDelete ? { podsToDelete } : {}),
    events,
    ...(hasPreDownloadWrites(preDownload) ? { preDownload } : {}),
    ...withRequeue(
      smallestPositive(
        phaseRequeue,
        statusResult.requeueAfterSeconds,
        minReadyRequeue,
        deleting ? undefined : prePull.requeueAfterSeconds,
      ),
    ),
  };
}

function withRequeue(seconds: number | undefined): { requeueAfterSeconds?: number } {
  return seconds === undefined ? {} : { requeueAfterSeconds: seconds };
}

function isControlledBy(pod: Pod, uid: string | undefined): boolean {
  const ref = (pod.metadata.ownerReferences ?? []).find((r) => r.controller);
  return !!ref && ref.uid === uid && ref.kind === KIND && ref.apiVersion.split('/')[0] === GROUP;
}

function hasFailedValidation(status: CloneSetStatus | undefined): boolean {
  return (status?.conditions ?? []).some((c) => c.type === CONDITION_FAILED_VALIDATION);
}

function stripFailedValidation(status: CloneSetStatus): CloneSetStatus {
  if (!hasFailedValidation(status)) return status;
  return {
    ...status,
    conditions: (status.conditions ?? []).filter((c) => c.type !== CONDITION_FAILED_VALIDATION),
  };
}
