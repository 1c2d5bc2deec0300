/**
 * OpenKruise: pkg/util/workloadspread/workloadspread.go `acquireSuitableSubset` (its StatefulSet case),
 * `getParentNameAndOrdinal` and `getSubsetCondition` (v1.9.0).
 *
 * The subset of a StatefulSet's (or Advanced StatefulSet's) pod, chosen by its ordinal and nothing else: subsets in
 * spec order, each taking the next `maxReplicas` ordinals (no maximum: all the rest), a subset whose `Schedulable`
 * condition is False skipped. No record is written to the status. `maxReplicas` is read as Go's
 * `IntOrString.IntValue`: a number as is, a string by its decimal value, so a percentage counts as 0. A pod name
 * without a trailing `-<digits>` has ordinal -1 and so falls in the first subset that is not skipped.
 */
import type { Pod } from '../../../api/types.js';
import { CONDITION_SUBSET_SCHEDULABLE } from '../api/keys.js';
import type { WorkloadSpread } from '../api/types.js';

/** Go's `math.MaxInt32`: the span of a subset without a maximum. */
const MAX_INT32 = 2_147_483_647;

/** The ordinal at the end of a StatefulSet pod's name (`<parent>-<ordinal>`), -1 when there is none. */
export function podOrdinal(name: string): number {
  const m = /^(.*)-([0-9]+)$/.exec(name);
  if (!m) return -1;
  const n = Number(m[2]);
  return n <= MAX_INT32 ? n : -1;
}

/** `IntOrString.IntValue`: a number as is; a string by `strconv.Atoi` (0 when it is not a decimal integer). */
function intValue(v: number | string): number {
  if (typeof v === 'number') return v;
  return /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

/** The subset `pod` goes to by its ordinal (see the module doc), or undefined when none takes it. */
export function subsetByOrdinal(ws: WorkloadSpread, pod: Pod): string | undefined {
  const ordinal = podOrdinal(pod.metadata.name ?? '');
  let threshold = 0;
  for (const subset of ws.spec.subsets) {
    const condition = ws.status?.subsetStatuses
      ?.find((s) => s.name === subset.name)
      ?.conditions?.find((c) => c.type === CONDITION_SUBSET_SCHEDULABLE);
    if (condition?.status === 'False') continue;
    threshold += subset.maxReplicas === undefined ? MAX_INT32 : intValue(subset.maxReplicas);
    if (ordinal < threshold) return subset.name;
  }
  return undefined;
}
