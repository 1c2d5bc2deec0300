/**
 * Which matched pods get the new sidecar images in this round (OpenKruise: `spreadingStrategy.GetNextUpgradePods`,
 * `SortUpdateIndexes`, `calculateUpgradeCount` and `parseUpdateScatterTerms` in
 * `pkg/controller/sidecarset/sidecarset_strategy.go`). Pure.
 */
import { calculatePartitionReplicas, legacyScaledValue } from '../../../api/intOrPercent.js';
import { selectorMatches } from '../../../api/selector.js';
import type { Pod, UpdateScatterTerm } from '../../../api/types.js';
import { compareActivePodKeys, activePodKey, stableSortBy } from '../../../podset/podOrder.js';
import { sortByPriority, sortByScatter } from '../../../podset/updateSort.js';
import type { SidecarSet } from '../api/types.js';
import {
  isPodSidecarUpdated,
  isPodStateConsistent,
  isSidecarPodReady,
  sidecarSetUpgradable,
} from './podState.js';

/** The pods of one round: to update now, and those an in-place update cannot move (a non-image field changed). */
export interface NextUpgrade {
  /** In update order. */
  upgrade: Pod[];
  /** In the matched pods' order. */
  notUpgradable: Pod[];
}

/** A `*` value names every value the pods carry for that key (`parseUpdateScatterTerms`), duplicates dropped. */
function scatterTerms(terms: readonly UpdateScatterTerm[], pods: readonly Pod[]): UpdateScatterTerm[] {
  const out: UpdateScatterTerm[] = [];
  const add = (t: UpdateScatterTerm): void => {
    if (!out.some((o) => o.key === t.key && o.value === t.value)) out.push(t);
  };
  for (const term of terms) {
    if (term.value !== '*') add(term);
    else
      for (const pod of pods) {
        const value = pod.metadata.labels?.[term.key];
        if (value !== undefined) add({ key: term.key, value });
      }
  }
  return out;
}

/**
 * How many of the ordered candidates go now (`calculateUpgradeCount`): the last `partition` (int or percent of the
 * matched pods, rounded up) are held back; then each not-ready candidate goes, and each ready one only while the
 * updated-but-not-ready pods plus those already chosen stay below `maxUnavailable` (default 1; legacy percent
 * reading, rounded up).
 */
function upgradeCount(sidecarSet: SidecarSet, candidates: readonly Pod[], pods: readonly Pod[]): number {
  const strategy = sidecarSet.spec.updateStrategy ?? {};
  let partition: number;
  try {
    partition = calculatePartitionReplicas(strategy.partition, pods.length);
  } catch {
    partition = 0;
  }
  if (candidates.length - partition <= 0) return 0;
  const eligible = candidates.slice(0, candidates.length - partition);
  const maxUnavailable =
    strategy.maxUnavailable === undefined ? 1 : legacyScaledValue(strategy.maxUnavailable, pods.length, 'up');
  let unavailable = pods.filter(
    (p) =>
      isPodSidecarUpdated(sidecarSet, p) &&
      (!isPodStateConsistent(sidecarSet, p) || !isSidecarPodReady(sidecarSet, p)),
  ).length;
  let count = 0;
  for (const pod of eligible) {
    if (!isSidecarPodReady(sidecarSet, pod)) {
      count++;
      continue;
    }
    if (unavailable >= maxUnavailable) break;
    unavailable++;
    count++;
  }
  return count;
}

/**
 * The next round (see {@link NextUpgrade}): candidates are the pods not on the SidecarSet's hash that the strategy's
 * `selector` (if any) matches, whose only change is images and whose ready sidecars are not mid-update; ordered as
 * Kubernetes' `ActivePods` (least valuable first: unscheduled, pending, not ready, …), then by `priorityStrategy`,
 * then by `scatterStrategy`; cut by partition and maxUnavailable. A pod whose non-image sidecar fields changed is
 * not upgradable. An invalid strategy selector selects no pod, as upstream.
 */
export function nextUpgradePods(sidecarSet: SidecarSet, pods: readonly Pod[]): NextUpgrade {
  const strategy = sidecarSet.spec.updateStrategy ?? {};
  const selected = (pod: Pod): boolean => {
    if (!strategy.selector) return true;
    try {
      return selectorMatches(strategy.selector, pod.metadata.labels);
    } catch {
      return false;
    }
  };
  const waiting: number[] = [];
  const notUpgradable: Pod[] = [];
  pods.forEach((pod, i) => {
    if (isPodSidecarUpdated(sidecarSet, pod) || !selected(pod)) return;
    const { canUpgrade, consistent } = sidecarSetUpgradable(sidecarSet, pod);
    if (canUpgrade && consistent) waiting.push(i);
    else if (!canUpgrade) notUpgradable.push(pod);
  });
  const all = [...pods];
  let order = stableSortBy(
    waiting,
    (i) => activePodKey(all[i]),
    (a, b) => compareActivePodKeys(a, b),
  );
  if (strategy.priorityStrategy) order = sortByPriority(all, order, strategy.priorityStrategy);
  if (strategy.scatterStrategy)
    order = sortByScatter(all, order, scatterTerms(strategy.scatterStrategy, pods));
  const candidates = order.map((i) => all[i]);
  return { upgrade: candidates.slice(0, upgradeCount(sidecarSet, candidates, pods)), notUpgradable };
}
