/**
 * One SidecarSet reconcile, decided (OpenKruise: `Processor.UpdateSidecarSet` and `updatePods` in
 * `pkg/controller/sidecarset/sidecarset_processor.go`, and the pod filter of `getMatchingPods`). Pure: given the
 * SidecarSet and the pods its selector lists, the status to write and the pod writes of this round, in order.
 */
import type { Pod, PodCondition } from '../../../api/types.js';
import type { SidecarSet, SidecarSetStatus } from '../api/types.js';
import { upgradableCondition } from './condition.js';
import { isActivePod } from './match.js';
import { podsToResetHotUpgrade, resetHotUpgradeContainers } from './hotUpgradeFlip.js';
import { isPodConsistentWithSidecarSet, isPodInjected } from './podState.js';
import { calculateSidecarSetStatus, sidecarSetStatusChanged, type LatestRevision } from './status.js';
import { nextUpgradePods } from './strategy.js';
import { upgradePodSidecars } from './upgradePod.js';

/** Why a plan updates no pod. */
export type SidecarSetIdle = 'NotUpdate' | 'Paused' | 'AllUpdated' | 'NothingToUpdate';

/** One pod write of a round. */
export type SidecarSetPodWrite =
  /** PUT the pod (its read resourceVersion the precondition) with the new sidecar images and annotations. */
  | { type: 'UpdatePod'; pod: Pod; next: Pod }
  /** Strategic-merge `status.conditions` of pods/status with the `SidecarSetUpgradable` condition. */
  | { type: 'SetCondition'; pod: Pod; condition: PodCondition }
  /**
   * PUT the pod (its read resourceVersion the precondition) with the older container of each hot-upgrade pair
   * back on the empty image (./hotUpgradeFlip.ts); upstream records `ResetContainerSucceed` on the pod.
   */
  | { type: 'ResetHotUpgrade'; pod: Pod; next: Pod };

/** What one reconcile does. */
export interface SidecarSetPlan {
  /** The matched pods, as the status counts them. */
  matched: Pod[];
  status: SidecarSetStatus;
  /** Whether {@link status} differs from the stored one (`inconsistentStatus`): only then is it written. */
  writeStatus: boolean;
  /**
   * In upstream order: the hot-upgrade resets alone when any pod is due one; else first the not-upgradable pods'
   * False conditions, then per updated pod its update and its True condition.
   */
  writes: SidecarSetPodWrite[];
  /** Pods an in-place update cannot move this round; upstream records a `NotUpgradablePods` Event when any. */
  notUpgradable: number;
  /** Set when no pod is updated, with why. */
  idle?: SidecarSetIdle;
}

/**
 * The pods the SidecarSet manages (`getMatchingPods`' filter): active, listed in its `kruise.io/sidecarset-injected-list`
 * and carrying every one of its sidecar containers.
 * @param selected the pods its selector (and namespace selector) lists
 */
export function matchedPods(sidecarSet: SidecarSet, selected: readonly Pod[]): Pod[] {
  return selected.filter(
    (p) => isActivePod(p) && isPodInjected(p, sidecarSet) && isPodConsistentWithSidecarSet(p, sidecarSet),
  );
}

/**
 * The plan (see {@link SidecarSetPlan}): status always; unless the strategy is NotUpdate or paused, the hot-upgrade
 * resets of the pods due one (and nothing else this round), or else pod updates unless every matched pod is
 * updated. An updated pod's hash entry names the latest revision (upstream sets the status before it updates
 * pods).
 * @param selected the pods its selector (and namespace selector) lists, in list order
 * @param now the time for annotations and condition transitions
 * @param latest the latest ControllerRevision the pass registered (./history.ts); without it the stored status's
 *   `latestRevision` and `collisionCount` are kept
 * @throws SidecarInjectionError when a `MergePatchJson` metadata patch cannot be applied to a chosen pod
 */
export function planSidecarSet(
  sidecarSet: SidecarSet,
  selected: readonly Pod[],
  now: Date,
  latest?: LatestRevision,
): SidecarSetPlan {
  const matched = matchedPods(sidecarSet, selected);
  const status = calculateSidecarSetStatus(sidecarSet, matched, latest);
  const base = { matched, status, writeStatus: sidecarSetStatusChanged(sidecarSet, status) };
  const idle = (why: SidecarSetIdle): SidecarSetPlan => ({
    ...base,
    writes: [],
    notUpgradable: 0,
    idle: why,
  });
  const strategy = sidecarSet.spec.updateStrategy ?? {};
  if (strategy.type === 'NotUpdate') return idle('NotUpdate');
  if (strategy.paused === true) return idle('Paused');
  const resets = podsToResetHotUpgrade(sidecarSet, matched);
  if (resets.length > 0)
    return {
      ...base,
      writes: resets.map((pod) => ({
        type: 'ResetHotUpgrade' as const,
        pod,
        next: resetHotUpgradeContainers(sidecarSet, pod, now),
      })),
      notUpgradable: 0,
    };
  if ((status.updatedPods ?? 0) >= (status.matchedPods ?? 0)) return idle('AllUpdated');
  const name = sidecarSet.metadata.name ?? '';
  const next = nextUpgradePods(sidecarSet, matched);
  const writes: SidecarSetPodWrite[] = [];
  for (const pod of next.notUpgradable) {
    const condition = upgradableCondition(pod, name, false, now);
    if (condition) writes.push({ type: 'SetCondition', pod, condition });
  }
  for (const pod of next.upgrade) {
    writes.push({ type: 'UpdatePod', pod, next: upgradePodSidecars({ ...sidecarSet, status }, pod, now) });
    const condition = upgradableCondition(pod, name, true, now);
    if (condition) writes.push({ type: 'SetCondition', pod, condition });
  }
  return {
    ...base,
    writes,
    notUpgradable: next.notUpgradable.length,
    ...(next.upgrade.length === 0 ? { idle: 'NothingToUpdate' as const } : {}),
  };
}
