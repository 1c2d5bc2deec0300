/**
 * OpenKruise: pkg/controller/cloneset/sync/cloneset_update.go `SortUpdateIndexes`.
 *
 * The order in which a CloneSet's update candidates are updated (docs/behaviour/cloneset.md#update-phase; scenario
 * 48): Kubernetes' active-pods order, then `priorityStrategy`, then `scatterStrategy` (lib/podset/updateSort.ts),
 * then `PreparingUpdate` pods first. Works on indexes into the pod list, like OpenKruise. Pure; inputs are not
 * modified.
 */
import { LifecycleState } from '../../../../api/keys.js';
import type { CloneSetUpdateStrategy, Pod } from '../../../../api/types.js';
import { activePodKey, compareActivePodKeys, stableSortBy } from '../../../../podset/podOrder.js';
import { lifecycleState } from '../../../../podset/pods.js';
import { sortByPriority, sortByScatter } from '../../../../podset/updateSort.js';

/**
 * Update order of candidates (docs/behaviour/cloneset.md#update-phase): active-pods order (a stable sort
 * here, so ties keep list order — upstream's sort is unstable), then priority, then scatter, then
 * `PreparingUpdate` pods first (stable).
 * @param indexes candidate indexes into `pods`
 * @returns a new array of the same indexes
 */
export function sortUpdateIndexes(
  pods: Pod[],
  indexes: number[],
  strategy: CloneSetUpdateStrategy | undefined,
): number[] {
  let out = stableSortBy(indexes, (i) => activePodKey(pods[i]), compareActivePodKeys);
  if (strategy?.priorityStrategy) out = sortByPriority(pods, out, strategy.priorityStrategy);
  if (strategy?.scatterStrategy) out = sortByScatter(pods, out, strategy.scatterStrategy);
  return stableSortBy(
    out,
    (i) => lifecycleState(pods[i]) === LifecycleState.PreparingUpdate,
    (preparingI, preparingJ) => Number(preparingJ) - Number(preparingI),
  );
}
