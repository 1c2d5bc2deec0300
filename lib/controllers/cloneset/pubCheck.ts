/**
 * OpenKruise: `realControl.Update` in pkg/controller/cloneset/sync/cloneset_update.go (step 6, gate
 * `PodUnavailableBudgetUpdateGate`) over pkg/control/pubcontrol `PodUnavailableBudgetValidatePod` (v1.9.0).
 *
 * Before a pod's update starts, the PodUnavailableBudget that covers it is asked, pod by pod in the plan's update
 * order, and an allowed update consumes its budget (recorded in `unavailablePods`); at the first refusal that pod and
 * every later one wait, and the CloneSet is looked at again in 1 s. Without this, the pod webhook alone does not hold
 * an in-place update: its first write is the `InPlaceUpdateReady=False` status patch, which makes the pod not Ready,
 * and the budget lets a pod that is not available go.
 */
import type { Pod } from '../../api/types.js';
import type { Action } from '../../podset/actions.js';

/** Seconds before a CloneSet whose update a budget refused is looked at again (upstream's `DurationStore.Push(key, 1s)`). */
export const PUB_REFUSED_RETRY_SECONDS = 1;

/** The reasons of the writes that start a pod's update (in place, or by recreation). */
const UPDATE_STARTS: ReadonlySet<string> = new Set(['StartInPlaceUpdate', 'InPlaceUpdate', 'RecreateUpdate']);

type PodWrite = Extract<Action, { type: 'PatchPod' | 'PatchPodStatus' | 'DeletePod' }>;

const startsUpdate = (a: Action): a is PodWrite =>
  (a.type === 'PatchPod' || a.type === 'PatchPodStatus' || a.type === 'DeletePod') &&
  UPDATE_STARTS.has(a.reason);

const podOf = (a: Action): string | undefined => (startsUpdate(a) ? a.pod.name : undefined);

/** The pods whose update the actions start, in the order of their first such write. */
export function podsUpdated(actions: readonly Action[]): string[] {
  const out: string[] = [];
  for (const a of actions) {
    const name = startsUpdate(a) ? podOf(a) : undefined;
    if (name !== undefined && !out.includes(name)) out.push(name);
  }
  return out;
}

/** What {@link withPubCheck} left of the plan. */
export interface PubChecked<P> {
  plan: P;
  /** The pod the budget refused, when one did (its update and the later ones were taken out). */
  refused?: string;
}

/**
 * `plan` with the updates a PodUnavailableBudget refuses taken out (see the module doc).
 * @param pods the pods as listed (the budget decides on the pod as it stands)
 * @param admit asks the pod's budget, consuming it when allowed; a pod not listed is not asked
 * @returns the plan unchanged when every update is allowed; else without the refused pod's and the later pods'
 *   update-start writes, with `requeueAfterSeconds` at most {@link PUB_REFUSED_RETRY_SECONDS}
 */
export async function withPubCheck<P extends { actions: Action[]; requeueAfterSeconds?: number }>(
  plan: P,
  pods: readonly Pod[],
  admit: (pod: Pod) => Promise<boolean>,
): Promise<PubChecked<P>> {
  const names = podsUpdated(plan.actions);
  for (const [i, name] of names.entries()) {
    const pod = pods.find((p) => p.metadata.name === name);
    if (!pod || (await admit(pod))) continue;
    const waiting = new Set(names.slice(i));
    const actions = plan.actions.filter((a) => !(startsUpdate(a) && waiting.has(podOf(a) ?? '')));
    const requeue = Math.min(
      plan.requeueAfterSeconds ?? PUB_REFUSED_RETRY_SECONDS,
      PUB_REFUSED_RETRY_SECONDS,
    );
    return { plan: { ...plan, actions, requeueAfterSeconds: requeue }, refused: name };
  }
  return { plan };
}
