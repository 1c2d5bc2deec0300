/**
 * OpenKruise: pkg/controller/daemonset/daemonset_controller.go `syncWithPreparingDelete`; pkg/util/lifecycle
 * `IsPodHooked`, `UpdatePodLifecycle` (through lib/podset/lifecycle).
 *
 * `lifecycle.preDelete`: a pod to delete that the hook holds (one of its labels or finalizers) is moved to lifecycle
 * state `PreparingDelete` — and, with `markPodNotReady`, its `KruisePodReady` condition turned False — instead of
 * being deleted; it is deleted once the hook lets it go.
 */
import { LifecycleState } from '../../../api/keys.js';
import type { Pod } from '../../../api/types.js';
import type { Action } from '../../../podset/actions.js';
import { transitionLifecycle } from '../../../podset/lifecycle/lifecycle.js';
import { isHookedBy } from '../../../podset/pods.js';
import type { DaemonSet } from '../api/types.js';

type PodAction = Extract<Action, { type: 'PatchPod' | 'PatchPodStatus' }>;

/**
 * The pods of `doomed` that may be deleted now, and the transitions of those the `preDelete` hook holds (a pod
 * already in `PreparingDelete` needs none but the not-ready mark, which is written only when missing). Without a
 * hook every pod may be deleted.
 */
export function withPreparingDelete(
  ds: DaemonSet,
  doomed: readonly Pod[],
  now: Date,
): { canDelete: Pod[]; actions: PodAction[] } {
  const hook = ds.spec.lifecycle?.preDelete;
  if (!hook) return { canDelete: [...doomed], actions: [] };
  const canDelete: Pod[] = [];
  const actions: PodAction[] = [];
  for (const pod of doomed) {
    if (!isHookedBy(pod, hook)) {
      canDelete.push(pod);
      continue;
    }
    const t = transitionLifecycle(pod, LifecycleState.PreparingDelete, hook.markPodNotReady === true, now);
    actions.push(
      ...t.actions.filter((a): a is PodAction => a.type === 'PatchPod' || a.type === 'PatchPodStatus'),
    );
  }
  return { canDelete, actions };
}
