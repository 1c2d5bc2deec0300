/**
 * OpenKruise: apis/apps/defaults/v1beta1.go `SetDefaultsAdvancedCronJob` (what the mutating webhook stores).
 *
 * Kruiseless answers no AdvancedCronJob admission, so the controller reads the object with these defaults applied in
 * memory and decides as OpenKruise's controller does on an object its webhook defaulted. The templates' pod-spec
 * defaults (`SetDefaultPodSpec`) are not applied: the API server defaults the Job's pod template the same way, and
 * the BroadcastJob controller its pods'.
 */
import type { AdvancedCronJob } from './types.js';

/** `successfulJobsHistoryLimit` when absent. */
export const DEFAULT_SUCCESSFUL_HISTORY = 3;
/** `failedJobsHistoryLimit` when absent. */
export const DEFAULT_FAILED_HISTORY = 1;

/**
 * `acj` with `concurrencyPolicy` `Allow` (`Replace` for an ImageListPullJob template) where empty, `paused` false,
 * `successfulJobsHistoryLimit` 3 and `failedJobsHistoryLimit` 1 where absent. Returns a new object.
 */
export function withDefaults(acj: AdvancedCronJob): AdvancedCronJob {
  const spec = acj.spec;
  return {
    ...acj,
    spec: {
      ...spec,
      concurrencyPolicy:
        spec.concurrencyPolicy || (spec.template?.imageListPullJobTemplate ? 'Replace' : 'Allow'),
      paused: spec.paused ?? false,
      successfulJobsHistoryLimit: spec.successfulJobsHistoryLimit ?? DEFAULT_SUCCESSFUL_HISTORY,
      failedJobsHistoryLimit: spec.failedJobsHistoryLimit ?? DEFAULT_FAILED_HISTORY,
    },
  };
}
