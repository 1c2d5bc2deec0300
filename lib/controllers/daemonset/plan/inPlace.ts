/**
 * OpenKruise: pkg/controller/daemonset/daemonset_update.go `inPlaceUpdatePods`, `canPodInPlaceUpdate`,
 * `getInPlaceUpdateOptions`; daemonset_controller.go `refreshUpdateStates`; pkg/util/inplaceupdate (through
 * lib/podset/inplace).
 *
 * `InPlaceIfPossible`: which old pods a rolling-update step updates in place instead of deleting, and the refresh of
 * pods mid-update.
 */
import { CONDITION_INPLACE_UPDATE_READY, LABEL_CONTROLLER_REVISION_HASH } from '../../../api/keys.js';
import type { ControllerRevision, Pod } from '../../../api/types.js';
import type { Action } from '../../../podset/actions.js';
import { calculateInPlaceUpdateSpec } from '../../../podset/inplace/spec.js';
import { refreshInPlace, startInPlaceUpdate } from '../../../podset/inplace/update.js';
import { revisionMatches } from '../../../podset/pods.js';
import { hasReadinessGate } from '../../../podset/readiness.js';
import type { DaemonSetPlannerOptions } from './types.js';

type PodAction = Extract<Action, { type: 'PatchPod' | 'PatchPodStatus' }>;

/** What {@link splitInPlace} decides for the old pods a step replaces. */
export interface InPlaceSplit {
  /** Pods that cannot be updated in place: deleted and recreated (those that can, beyond `burst`, wait). */
  deletes: Pod[];
  /** The actions that start the in-place updates, in pod order. */
  actions: PodAction[];
  /** The pods updated in place. */
  updated: string[];
}

const gatesOf = (o: DaemonSetPlannerOptions) => ({
  inPlaceUpdateEnvFromMetadata: o.inPlaceUpdateEnvFromMetadata,
  inPlaceWorkloadVerticalScaling: o.inPlaceWorkloadVerticalScaling,
  recreatePodWhenChangeVCTInCloneSet: false,
});

/**
 * `inPlaceUpdatePods`: each pod with the `InPlaceUpdateReady` gate whose old revision (the one whose hash its
 * `controller-revision-hash` names) differs from `current` only in what can change in place is updated in place —
 * up to `burst` of them — to the revision `hash` (its label and the in-place state's revision are the hash, as
 * upstream's `GetRevision`; no lifecycle change); the others are deleted, those that cannot first.
 */
export function splitInPlace(
  pods: readonly Pod[],
  current: ControllerRevision,
  old: readonly ControllerRevision[],
  hash: string,
  burst: number,
  options: DaemonSetPlannerOptions,
  now: Date,
): InPlaceSplit {
  const gates = gatesOf(options);
  const cannot: Pod[] = [];
  const can: { pod: Pod; spec: NonNullable<ReturnType<typeof calculateInPlaceUpdateSpec>> }[] = [];
  for (const pod of pods) {
    const label = pod.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? '';
    const from = hasReadinessGate(pod, CONDITION_INPLACE_UPDATE_READY)
      ? old.find((r) => revisionMatches(label, r.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH] ?? ''))
      : undefined;
    const spec = from
      ? calculateInPlaceUpdateSpec(from, current, {
          gracePeriodSeconds: 0,
          ignoreVolumeClaimTemplatesHashDiff: true,
          gates,
        })
      : undefined;
    if (spec) can.push({ pod, spec: { ...spec, revision: hash } });
    else cannot.push(pod);
  }
  const now_ = can.slice(0, Math.max(burst, 0));
  return {
    deletes: cannot,
    actions: now_.flatMap(({ pod, spec }) =>
      startInPlaceUpdate(pod, spec, now, {
        ...gates,
        revisionLabels: (revision) => ({ [LABEL_CONTROLLER_REVISION_HASH]: revision }),
        lifecycleUpdating: false,
      }).filter((a): a is PodAction => a.type === 'PatchPod' || a.type === 'PatchPodStatus'),
    ),
    updated: now_.map(({ pod }) => pod.metadata.name ?? ''),
  };
}

/**
 * `refreshUpdateStates`: the in-place refresh of every pod not being deleted (grace period, next batch,
 * `InPlaceUpdateReady` True once done or on a new pod with the gate), and the seconds until a grace period ends.
 */
export function refreshPods(
  pods: readonly Pod[],
  options: DaemonSetPlannerOptions,
  now: Date,
): { actions: PodAction[]; requeueAfterSeconds?: number } {
  const actions: PodAction[] = [];
  let requeue: number | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const r = refreshInPlace(pod, now, {
      inPlaceWorkloadVerticalScaling: options.inPlaceWorkloadVerticalScaling,
    });
    if (r.error) continue;
    actions.push(
      ...r.actions.filter((a): a is PodAction => a.type === 'PatchPod' || a.type === 'PatchPodStatus'),
    );
    if (r.requeueAfterSeconds !== undefined)
      requeue = requeue === undefined ? r.requeueAfterSeconds : Math.min(requeue, r.requeueAfterSeconds);
  }
  return { actions, ...(requeue !== undefined ? { requeueAfterSeconds: requeue } : {}) };
}
