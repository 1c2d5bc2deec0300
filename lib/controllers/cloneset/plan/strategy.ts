/**
 * OpenKruise: the opening of pkg/controller/cloneset/sync/cloneset_sync_utils.go
 * `calculateDiffsWithExpectation` (partition, maxSurge and maxUnavailable resolved to counts) and
 * `shouldScalingExcludePreparingDelete`.
 *
 * Resolves a CloneSet's strategies into the numbers the scale and update arithmetic use
 * (docs/behaviour/cloneset.md#diff).
 */
import { MAX_INT32 } from '../../../api/int32.js';
import { LABEL_SCALING_EXCLUDE_PREPARING_DELETE } from '../../../api/keys.js';
import { calculatePartitionReplicas, legacyScaledValue } from '../../../api/intOrPercent.js';
import type { V1beta1View } from '../api/conversion.js';
import { DEFAULT_MAX_UNAVAILABLE } from '../api/defaults.js';
import type { CloneSet } from '../../../api/types.js';
import type { PlannerOptions, StrategyNumbers } from './types.js';

/** `scaleStrategy.maxUnavailable` when unset: unlimited (docs/behaviour/cloneset.md#diff). */
const UNLIMITED = MAX_INT32;

/**
 * Resolve replicas, partition, maxSurge, maxUnavailable and scaleStrategy.maxUnavailable to pod counts
 * (docs/behaviour/cloneset.md#diff, docs/behaviour/cloneset.md#int-or-percent): maxSurge rounds up and is
 * forced to 0 while paused; maxUnavailable rounds up when the effective maxSurge is 0 and down otherwise;
 * OnDelete has no rolling-update block (P = 0, MS = 0, MU = floor(20% of R)) unless a v1beta1 write gave it one,
 * which counts as upstream reads it (`calculateDiffsWithExpectation` looks at the block, not the type). An invalid
 * partition counts as 0 and is reported in `partitionError`.
 * @param cs a CloneSet with defaults applied (docs/behaviour/cloneset.md#defaults)
 * @param options feature gates and flags (only `scalingExcludePreparingDelete` is read)
 * @param v1beta1 what the stored object has as v1beta1 beyond v1alpha1 (../api/conversion.ts `v1beta1View`): its
 *   `scaleStrategy.excludePreparingDelete` counts as the v1alpha1 label does, and an OnDelete's `rollingUpdate` block
 *   as the rolling fields of v1alpha1 (which the conversion copied there)
 * @returns counts in pods; never throws
 */
export function resolveStrategy(
  cs: CloneSet,
  options: PlannerOptions,
  v1beta1: V1beta1View = { excludePreparingDelete: false, onDeleteRollingUpdate: false },
): StrategyNumbers {
  const replicas = cs.spec.replicas ?? 1;
  const us = cs.spec.updateStrategy ?? {};
  const updateType = us.type ?? 'ReCreate';
  const rollingUpdate = updateType !== 'OnDelete' || v1beta1.onDeleteRollingUpdate;
  const paused = rollingUpdate && !!us.paused;

  let partition = 0;
  let partitionError: string | undefined;
  let maxSurge = 0;
  let maxUnavailable: number;
  if (rollingUpdate) {
    try {
      partition = calculatePartitionReplicas(us.partition, replicas);
    } catch (err) {
      partitionError = `CloneSet partition value was illegal: ${(err as Error).message}`;
    }
    maxSurge = paused ? 0 : legacyScaledValue(us.maxSurge, replicas, 'up');
    maxUnavailable = legacyScaledValue(
      us.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE,
      replicas,
      maxSurge === 0 ? 'up' : 'down',
    );
  } else {
    maxUnavailable = legacyScaledValue(DEFAULT_MAX_UNAVAILABLE, replicas, 'down');
  }
  const scaleMaxUnavailable = legacyScaledValue(
    cs.spec.scaleStrategy?.maxUnavailable ?? UNLIMITED,
    replicas,
    'up',
  );
  const excludePreparingDelete =
    options.scalingExcludePreparingDelete ||
    cs.metadata.labels?.[LABEL_SCALING_EXCLUDE_PREPARING_DELETE] === 'true' ||
    v1beta1.excludePreparingDelete;
  const expectedUpdatedReplicas = !rollingUpdate ? replicas : partitionError ? 0 : replicas - partition;

  return {
    replicas,
    partition,
    ...(partitionError ? { partitionError } : {}),
    maxSurge,
    maxUnavailable,
    scaleMaxUnavailable,
    minReadySeconds: cs.spec.minReadySeconds ?? 0,
    rollingUpdate,
    paused,
    updateType,
    excludePreparingDelete,
    expectedUpdatedReplicas,
  };
}
