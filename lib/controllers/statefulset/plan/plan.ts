/**
 * OpenKruise: pkg/controller/statefulset/stateful_set_control.go `UpdateStatefulSet`, `performUpdate`,
 * `updateStatefulSet`, `updateStatefulSetStatus`.
 *
 * One pass of the Advanced StatefulSet controller as a pure function: default and validate, choose revisions,
 * fill the ordinal range, scale, roll, and compute the status — every write returned as data, nothing performed.
 */
import { selectorString } from '../../../api/selector.js';
import type { Pod } from '../../../api/types.js';
import { initKruisePodReady, podsDeletedOrMarked } from '../../../podset/podReadiness.js';
import { checkStatefulSet } from '../api/check.js';
import type { StatefulSetStatus } from '../api/types.js';
import { isCurrentRevisionNeeded, newStatefulSetPod } from './newPod.js';
import { ordinalRange, podOrdinal, splitByOrdinal } from './ordinals.js';
import { claimStatefulSetPods } from './ownership.js';
import { refreshCreated, refreshPod, type PassState } from './pass.js';
import { allowsBurst, isHealthy, minReadySecondsOf } from './podState.js';
import { applyRevision, chooseRevisions, revisionsToDelete } from './revision.js';
import { retentionActions } from './retention.js';
import { walkCondemned, walkReplicas } from './scale.js';
import {
  completeRollingUpdate,
  inconsistentStatus,
  replicaCounts,
  statusAsWritten,
  volumeClaimStatuses,
} from './status.js';
import {
  DEFAULT_PLANNER_OPTIONS,
  type StatefulSetPlan,
  type StatefulSetPlanInput,
  type StatefulSetPlannerOptions,
} from './types.js';
import { RESIZE_RECHECK_MS, rollingUpdate } from './update.js';
import { claimStillGrowing, resizesClaims } from './resize.js';
import { planStatefulSetPreDownload } from './preDownload.js';

const EMPTY_STATUS: StatefulSetStatus = {
  replicas: 0,
  readyReplicas: 0,
  availableReplicas: 0,
  currentReplicas: 0,
  updatedReplicas: 0,
};

/**
 * Plans one pass (upstream `UpdateStatefulSet`). In order: the set is defaulted and validated (invalid: only
 * `errors`); the revisions chosen (./revision.ts); the pods split into the ordinal range's slots and the condemned
 * (./ordinals.ts), each empty slot given a new pod at the current revision (inside the partition) or the update
 * revision; a set being deleted plans only its status; then the replicas walk and the condemned walk (./scale.ts),
 * and for RollingUpdate the refresh of every pod and the rolling update (./update.ts), unless update expectations
 * are pending or a refresh changed a lifecycle state. The status counts the pods as listed (new ones are not created
 * yet), with currentReplicas/updatedReplicas lowered for the pods the update phase deletes or updates, and the
 * replicas' PVCs per volumeClaimTemplate (`volumeClaims`); a finished rolling update makes the update revision
 * current; it has the fields OpenKruise writes (./status.ts `statusAsWritten`); history beyond
 * `revisionHistoryLimit` is deleted. The pods the pass creates get their readiness conditions right after
 * (./pass.ts `refreshCreated`). However the pass ends, the listed pods with the `KruisePodReady` gate and no such condition get it True last (OpenKruise's
 * pod-readiness controller `Reconcile`, lib/podset/podReadiness.ts), except those the pass deletes or marks; and
 * while a PVC the set resized is still growing, the plan asks to look again (./resize.ts `claimStillGrowing`).
 */
export function planStatefulSet(input: StatefulSetPlanInput): StatefulSetPlan {
  const options: StatefulSetPlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, ...input.options };
  const { statefulSet: sts, errors } = checkStatefulSet(input.statefulSet, {
    templateNoDefaults: options.templateNoDefaults,
    statefulSetAutoDeletePVC: options.statefulSetAutoDeletePVC,
  });
  const revs = chooseRevisions(sts, input.revisions);
  const currentName = revs.current.metadata.name ?? '';
  const updateName = revs.update.metadata.name ?? '';
  const revisionPlan = {
    currentRevision: currentName,
    updateRevision: updateName,
    collisionCount: revs.collisionCount,
    ...(revs.create ? { create: revs.create } : {}),
    ...(revs.bump ? { bump: revs.bump } : {}),
    deleteNames: [] as string[],
  };
  if (errors.length > 0) {
    return {
      errors,
      revisions: { ...revisionPlan, deleteNames: [] },
      actions: [],
      status: sts.status ?? EMPTY_STATUS,
      statusChanged: false,
    };
  }
  // the pods it controls and still selects, plus the orphans it adopts (upstream getPodsForStatefulSet)
  const claim = claimStatefulSetPods(sts, input.pods);
  input = { ...input, pods: claim.pods };
  const now = input.now;
  const minReady = minReadySecondsOf(sts);
  const currentSet = applyRevision(sts, revs.current);
  const updateSet = applyRevision(sts, revs.update);
  const range = ordinalRange(sts, options.statefulSetStartOrdinal);
  const { replicas, condemned } = splitByOrdinal(input.pods, range);
  const listedCounts = replicaCounts(input.pods, minReady, currentName, updateName, now);
  for (let ord = range.start; ord < range.end; ord++) {
    const i = ord - range.start;
    if (range.reserved.has(ord) || replicas[i]) continue;
    const atCurrent = isCurrentRevisionNeeded(
      currentSet,
      updateName,
      ord,
      replicas,
      range.start,
      sts.status?.currentReplicas ?? 0,
    );
    replicas[i] = atCurrent
      ? newStatefulSetPod(currentSet, ord, currentName, options, now)
      : newStatefulSetPod(updateSet, ord, updateName, options, now);
  }
  const all: (Pod | undefined)[] = [...replicas, ...condemned];
  let firstUnhealthy: Pod | undefined;
  for (const pod of all) {
    if (pod && !isHealthy(pod) && (!firstUnhealthy || podOrdinal(pod) < podOrdinal(firstUnhealthy)))
      firstUnhealthy = pod;
  }
  const pass: PassState = {
    sts,
    now,
    options,
    actions: [...claim.actions],
    waitsMs: [],
    refreshed: new Set(),
    creates: 0,
    pvcs: input.pvcs ?? [],
    storageClasses: input.storageClasses ?? [],
    events: [],
  };
  const counters = { currentReplicas: 0, updatedReplicas: 0 };
  // upstream's doPreDownload runs in every pass once the revisions are chosen, however the pass goes on
  const preDownload = planStatefulSetPreDownload(
    sts,
    revs.current,
    revs.update,
    input.imagePullJobs,
    options,
  );
  const finish = (halt?: string, error?: string): StatefulSetPlan => {
    const counts = replicaCounts(all, minReady, currentName, updateName, now);
    let status: StatefulSetStatus = {
      observedGeneration: sts.metadata.generation,
      ...counts,
      currentReplicas: counts.currentReplicas + counters.currentReplicas,
      updatedReplicas: counts.updatedReplicas + counters.updatedReplicas,
      currentRevision: currentName,
      updateRevision: updateName,
      collisionCount: revs.collisionCount,
      labelSelector: selectorString(sts.spec.selector ?? {}),
      volumeClaims: volumeClaimStatuses(sts, replicas, input.pvcs ?? []),
    };
    status = statusAsWritten(completeRollingUpdate(sts, status));
    if (resizesClaims(sts, options.statefulSetAutoResizePVCGate) && claimStillGrowing(sts, input.pvcs ?? []))
      pass.waitsMs.push(RESIZE_RECHECK_MS);
    const waits = pass.waitsMs.filter((w) => w > 0);
    // OpenKruise's pod-readiness controller runs beside the StatefulSet controller, whatever this pass decided
    const actions = [
      ...pass.actions,
      ...refreshCreated(pass, updateName),
      ...initKruisePodReady(input.pods, podsDeletedOrMarked(pass.actions), now),
    ];
    return {
      errors: [],
      revisions: {
        ...revisionPlan,
        deleteNames: revisionsToDelete(sts, input.pods, revs.sorted, currentName, updateName),
      },
      actions,
      status,
      statusChanged: inconsistentStatus(sts.status, status),
      ...(waits.length > 0 ? { requeueAfterSeconds: Math.ceil(Math.min(...waits) / 1000) } : {}),
      ...(pass.events.length > 0 ? { events: pass.events } : {}),
      ...(preDownload ? { preDownload } : {}),
      ...(halt ? { halt } : {}),
      ...(error ? { error } : {}),
    };
  };
  if (sts.metadata.deletionTimestamp) {
    // only the status, counted from the listed pods
    const plan = finish('the StatefulSet is being deleted');
    const status = statusAsWritten(
      completeRollingUpdate(sts, {
        ...plan.status,
        ...listedCounts,
        volumeClaims: volumeClaimStatuses(sts, input.pods, input.pvcs ?? []),
      }),
    );
    return { ...plan, status, statusChanged: inconsistentStatus(sts.status, status) };
  }
  const monotonic = !allowsBurst(sts);
  const walked = walkReplicas(pass, replicas, monotonic, updateName, input.pvcs ?? []);
  if (walked.kind === 'exit') return finish(walked.why, walked.error);
  if (options.statefulSetAutoDeletePVC)
    for (const pod of condemned) pass.actions.push(...retentionActions(sts, pod, input.pvcs ?? [], true));
  const condemnedWalk = walkCondemned(pass, condemned, monotonic, firstUnhealthy);
  if (condemnedWalk.kind === 'exit') return finish(condemnedWalk.why);
  if (sts.spec.updateStrategy?.type === 'OnDelete') return finish();
  if (input.updateExpectationsSatisfied === false)
    return finish('waiting for in-place updates to be observed');
  let modified = false;
  for (const pod of input.pods) if (refreshPod(pass, pod, updateName)) modified = true;
  if (modified) return finish('lifecycle states refreshed');
  const rolled = rollingUpdate(pass, replicas, revs.current, revs.update, revs.sorted, counters);
  return finish(rolled.halt, rolled.error);
}
