/**
 * OpenKruise: pkg/controller/daemonset/daemonset_controller.go `syncDaemonSet` (up to the rolling update), `manage`,
 * `podsShouldBeOnNode`, `syncNodes` (burst limit, slow-start batches, creates before deletes); daemonset_util.go
 * `GetNodesNeedingPods`, `getBurstReplicas`, `allowSurge`.
 *
 * One decision over one DaemonSet: the revision to create, the pods to create and delete, the Events and the
 * status. Pure: time comes in as `now`, randomness as `newSuffix`.
 */
import {
  failedPodBackoffDelay,
  failedPodBackoffKey,
  keptFailedPodBackoffs,
  raiseFailedPodBackoff,
} from './failedPodBackoff.js';
import { scaledValueFromIntOrPercent } from '../../../api/intOrPercent.js';
import { isEmptySelector } from '../../../api/selector.js';
import type { Pod } from '../../../api/types.js';
import { isPodReady, lifecycleState } from '../../../podset/pods.js';
import { podRef } from '../../../podset/pods.js';
import { initKruisePodReady } from '../../../podset/podReadiness.js';
import { readinessOfCreated } from '../../../podset/createdReadiness.js';
import { LABEL_CONTROLLER_REVISION_HASH, LifecycleState } from '../../../api/keys.js';
import { withDefaults } from '../api/defaults.js';
import { validateDaemonSet } from '../api/validation.js';
import { DaemonSetEventReason } from '../api/keys.js';
import type { DaemonSet } from '../api/types.js';
import { buildDaemonPod, templateGeneration } from './newPod.js';
import { daemonPodSpec, nodeShouldRunDaemonPod } from './nodes.js';
import { podsByNode, sortDaemonPods, unscheduledPodsWithoutNode } from './podsByNode.js';
import { revisionsToDelete } from './history.js';
import { planHistory, relabelPatches } from './revision.js';
import { planDaemonSetPreDownload } from './preDownload.js';
import { rollingUpdateStep } from './rollingUpdate.js';
import { refreshPods, splitInPlace } from './inPlace.js';
import { withPreparingDelete } from './preDelete.js';
import { availableWaitSeconds, daemonSetStatus, isDaemonPodAvailable, isPodUpdated } from './status.js';
import {
  DEFAULT_DAEMONSET_OPTIONS,
  type DaemonSetPlan,
  type DaemonSetPlanInput,
  type PlanEvent,
  type SyncPlan,
} from './types.js';

const scaled = (
  v: number | string | undefined,
  total: number,
  rounding: 'up' | 'down',
): number | undefined => {
  if (v === undefined) return undefined;
  try {
    return scaledValueFromIntOrPercent(v, total, rounding);
  } catch {
    return undefined;
  }
};

/** `allowSurge`: a `RollingUpdate` DaemonSet whose `maxSurge` (of 1, rounded up) is above 0. */
export function allowSurge(ds: DaemonSet): boolean {
  const s = ds.spec.updateStrategy;
  if (s?.type !== 'RollingUpdate') return false;
  return (scaled(s.rollingUpdate?.maxSurge, 1, 'up') ?? 0) > 0;
}

/**
 * `GetNodesNeedingPods`: without partitioned scaling every node, sorted by name; with it, the first
 * `desired − updated − partition` (at least 0) names in sorted order.
 */
export function nodesNeedingPods(
  updated: number,
  desired: number,
  partition: number,
  progressive: boolean,
  names: readonly string[],
): string[] {
  const sorted = [...names].sort();
  if (!progressive) return sorted;
  const p = Math.max(Math.min(partition, desired), 0);
  return sorted.slice(0, Math.min(Math.max(desired - updated - p, 0), sorted.length));
}

/**
 * The plan for one pass over `input.ds` (after its webhook's defaults, ../api/defaults.ts):
 * 1. a DaemonSet being deleted: nothing (`Skip`); one whose selector is empty: Warning `SelectingAll`
 *    `This DaemonSet is selecting all pods. A non-empty selector is required.` and nothing else; one OpenKruise's
 *    validating webhook refuses (../api/validation.ts): `Invalid`, nothing else;
 * 2. the history (./revision.ts): the current revision's hash, a revision to create or renumber; with several
 *    revisions recording the template, every pod not of the kept one's hash relabelled to it and the others deleted
 *    (`dedupCurHistories`), the rest of the pass seeing the pods relabelled (upstream's pass reads its cache, which
 *    may not have the patches yet; its next pass sees them); with image
 *    pre-download on (`input.imagePullJobs` listed), its ImagePullJobs and revision label (./preDownload.ts);
 * 3. per node, in list order (`podsShouldBeOnNode`): a node that should run the pod and has none needs one; on a
 *    node where a pod may stay, failed pods are deleted with Warning `FailedDaemonPod`
 *    `Found failed daemon pod <ns>/<pod> on node <node>, will try to kill it` — unless the node is still in its
 *    failed-pod delay (./failedPodBackoff.ts; the pass then comes back after the delay) — and of the other live pods all but the
 *    oldest (without surge), or — with surge — all but the oldest of the current and the oldest of an old revision,
 *    the old one deleted once it is not ready or the new one is available; on a node where no pod may stay, every
 *    live pod is deleted. Pods pinned to a node that no longer exists and not yet bound are deleted too;
 * 4. with a non-zero `partition` the nodes needing a pod are sorted by name (and cut by it under
 *    `scaleStrategy.partitionedScaling`); creates and deletes are each cut to `burstReplicas` (of the stored
 *    `desiredNumberScheduled`); creates go in slow-start batches of 1, 2, 4, …;
 * 5. when that step writes no pod: the in-place refresh of every pod (./inPlace.ts `refreshPods`); then a
 *    `RollingUpdate` DaemonSet that is not `paused` takes one rolling-update step (./rollingUpdate.ts: partition,
 *    node selector, `maxUnavailable`, `maxSurge`), cut to `burstReplicas` too; without surge, under
 *    `InPlaceIfPossible`, the old pods that can be are updated in place instead of deleted (./inPlace.ts
 *    `splitInPlace`);
 * 6. when step 3–4 wrote no pod, the old revisions beyond `revisionHistoryLimit` no pod carries (./history.ts);
 * 7. the `KruisePodReady` condition on pods that have its gate and not yet the condition (the pods not deleted), and
 *    on the pods this pass creates (`createdReadyPatches`: OpenKruise's pod-readiness controller reacts to the new
 *    pod at once, so the pass after the creates no longer has to; their `InPlaceUpdateReady` condition stays with
 *    the in-place refresh of a later pass that writes no pod, as upstream's `refreshUpdateStates`);
 * 8. the status (./status.ts), with `observedGeneration` only when step 3–4 wrote no pod (upstream writes the status
 *    of a pass with outstanding expectations without it, and after its rolling update with it).
 * Pods to delete that `lifecycle.preDelete` holds go to `PreparingDelete` instead (./preDelete.ts), and a pod in
 * `PreparingDelete` is deleted once the hook lets it go. The failed-pod delays kept, raised and expired are returned
 * in `backoffs`. Not planned yet: the in-place hook.
 */
export function planDaemonSet(input: DaemonSetPlanInput): DaemonSetPlan {
  const ds = withDefaults(input.ds);
  if (ds.metadata.deletionTimestamp) return { type: 'Skip' };
  if (!ds.spec.selector || isEmptySelector(ds.spec.selector))
    return {
      type: 'SelectingAll',
      events: [
        {
          type: 'Warning',
          reason: DaemonSetEventReason.SelectingAll,
          message: 'This DaemonSet is selecting all pods. A non-empty selector is required.',
        },
      ],
    };
  const errors = validateDaemonSet(ds);
  if (errors.length > 0) return { type: 'Invalid', errors };
  const history = planHistory(ds, input.revisions);
  const { hash } = history;
  const dedup =
    history.duplicates.length > 0
      ? relabelPatches(input.pods, hash)
      : { patches: [], relabelled: input.pods };
  const allPods = dedup.relabelled;
  const byNode = podsByNode(allPods);
  const spec = daemonPodSpec(ds);
  const generation = templateGeneration(ds);
  const minReady = ds.spec.minReadySeconds ?? 0;
  const surge = allowSurge(ds);
  const events: PlanEvent[] = [];
  const needing: string[] = [];
  const deletes: Pod[] = [];
  const nowMs = input.now.getTime();
  const backoffs = new Map((input.backoffs ?? []).map((e) => [e.key, e]));
  const observedGeneration = input.ds.status?.observedGeneration ?? 0;
  let backoffWait: number | undefined;
  let surgeWait: number | undefined;
  let desired = 0;
  let updated = 0;
  for (const node of input.nodes) {
    const name = node.metadata.name ?? '';
    const verdict = nodeShouldRunDaemonPod(node, ds, spec);
    const pods = byNode.get(name);
    if (verdict.shouldRun) desired++;
    const live = (pods ?? []).filter((p) => !p.metadata.deletionTimestamp);
    const news = live.filter((p) => isPodUpdated(p, hash, generation));
    if (news.length === 1 && live.length - news.length <= 1) updated++;
    if (verdict.shouldRun && !pods) {
      needing.push(name);
    } else if (verdict.shouldContinueRunning) {
      const running: Pod[] = [];
      for (const pod of live) {
        if (pod.status?.phase === 'Failed') {
          const key = failedPodBackoffKey(observedGeneration, name);
          const delayMs = failedPodBackoffDelay(backoffs, key, nowMs);
          if (delayMs !== undefined) {
            // deleting it waits out the node's delay; the pass comes back after it, as upstream's durationStore
            backoffWait = Math.min(backoffWait ?? Infinity, Math.ceil(delayMs / 1000));
            continue;
          }
          raiseFailedPodBackoff(backoffs, key, nowMs);
          events.push({
            type: 'Warning',
            reason: DaemonSetEventReason.FailedDaemonPod,
            message: `Found failed daemon pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} on node ${name}, will try to kill it`,
          });
          deletes.push(pod);
        } else if (lifecycleState(pod) === LifecycleState.PreparingDelete) {
          deletes.push(pod);
        } else running.push(pod);
      }
      const ordered = sortDaemonPods(running);
      if (!surge) {
        deletes.push(...ordered.slice(1));
      } else if (ordered.length === 0) {
        if (verdict.shouldRun) needing.push(name);
      } else if (ordered.length > 1) {
        let oldestNew: Pod | undefined;
        let oldestOld: Pod | undefined;
        for (const pod of ordered) {
          if (pod.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] === hash) {
            if (!oldestNew) {
              oldestNew = pod;
              continue;
            }
          } else if (!oldestOld) {
            oldestOld = pod;
            continue;
          }
          deletes.push(pod);
        }
        if (
          oldestNew &&
          oldestOld &&
          (!isPodReady(oldestOld) || isDaemonPodAvailable(oldestNew, minReady, input.now))
        )
          deletes.push(oldestOld);
        else if (oldestNew && oldestOld && isPodReady(oldestNew) && minReady > 0)
          // the old pod goes once the new one has been Ready for minReadySeconds: come back then, as upstream's
          // durationStore (no status field changes in between to bring a pass)
          surgeWait = Math.min(surgeWait ?? Infinity, availableWaitSeconds(oldestNew, minReady, input.now));
      }
    } else if (pods) {
      deletes.push(...live);
    }
  }
  deletes.push(...unscheduledPodsWithoutNode(byNode, new Set(input.nodes.map((n) => n.metadata.name ?? ''))));

  const storedDesired = ds.status?.desiredNumberScheduled ?? 0;
  let toCreate = needing;
  const ru = ds.spec.updateStrategy?.rollingUpdate;
  if (ds.spec.updateStrategy?.type === 'RollingUpdate' && ru?.partition !== undefined) {
    const partition = scaled(ru.partition, storedDesired, 'down');
    if (partition !== undefined && partition !== 0)
      toCreate = nodesNeedingPods(
        updated,
        desired,
        partition,
        ds.spec.scaleStrategy?.partitionedScaling === true,
        needing,
      );
  }
  const burst = scaled(ds.spec.burstReplicas, storedDesired, 'down') ?? 0;
  let createOn = toCreate.slice(0, burst);
  const manageHeld = withPreparingDelete(ds, deletes, input.now);
  let deleting = manageHeld.canDelete.slice(0, burst);
  let held = manageHeld.actions;
  const managed = createOn.length > 0 || deleting.length > 0 || held.length > 0;
  const options = { ...DEFAULT_DAEMONSET_OPTIONS, ...input.options };
  let inPlace: SyncPlan['inPlace'] = [];
  let updatedInPlace: string[] = [];
  let refreshRequeue: number | undefined;
  if (!managed) {
    const refresh = refreshPods(allPods, options, input.now);
    inPlace = refresh.actions;
    refreshRequeue = refresh.requeueAfterSeconds;
  }
  if (!managed && ds.spec.updateStrategy?.type === 'RollingUpdate' && ru?.paused !== true) {
    const step = rollingUpdateStep(ds, input.nodes, byNode, hash, generation, input.now);
    createOn = step.createOn.slice(0, burst);
    let replaced = step.deletes;
    if (!step.surge && ru?.rollingUpdateType === 'InPlaceIfPossible') {
      const split = splitInPlace(replaced, history.current, history.old, hash, burst, options, input.now);
      inPlace = [...inPlace, ...split.actions];
      updatedInPlace = split.updated;
      replaced = split.deletes;
    }
    const stepHeld = withPreparingDelete(ds, replaced, input.now);
    held = stepHeld.actions;
    deleting = stepHeld.canDelete.slice(0, burst);
  }
  const creates: SyncPlan['creates'] = createOn.map((node, k) => ({
    node,
    pod: buildDaemonPod(ds, node, hash, input.newSuffix()),
    batch: Math.floor(Math.log2(k + 1)),
  }));
  const podDeletes = deleting.map(podRef);
  const status = daemonSetStatus(ds, input.nodes, byNode, hash, !managed, input.now);
  const waits = [status.requeueAfterSeconds, refreshRequeue, backoffWait, surgeWait].filter(
    (w): w is number => w !== undefined,
  );
  const requeue = waits.length > 0 ? Math.min(...waits) : undefined;
  const preDownload = planDaemonSetPreDownload(ds, history.current, history.old, hash, input.imagePullJobs);
  return {
    type: 'Sync',
    hash,
    currentRevision: history.current.metadata.name ?? '',
    ...(history.create ? { createRevision: history.create } : {}),
    ...(history.duplicates.length > 0
      ? { dedup: { relabel: dedup.patches, deleteRevisions: history.duplicates } }
      : {}),
    ...(history.renumber ? { renumberRevision: history.renumber } : {}),
    ...(preDownload ? { preDownload } : {}),
    events,
    creates,
    deletes: podDeletes,
    deleteRevisions: managed ? [] : revisionsToDelete(ds, history.old, allPods),
    readyPatches: initKruisePodReady(allPods, new Set(podDeletes.map((d) => d.name)), input.now),
    createdReadyPatches: readinessOfCreated(
      creates.map((c) => c.pod),
      input.now,
    ),
    status: status.status,
    inPlace,
    updatedInPlace,
    preparingDelete: held,
    backoffs: keptFailedPodBackoffs(backoffs, nowMs),
    ...(requeue !== undefined ? { requeueAfterSeconds: requeue } : {}),
  };
}
