/**
 * OpenKruise: apis/apps/defaults/v1beta1.go `SetDefaultsBroadcastJob` (what the mutating webhook stores).
 *
 * Kruiseless answers no BroadcastJob admission yet, so the controller reads the job with these defaults applied in
 * memory: it then decides as OpenKruise's controller does on a job its webhook defaulted. The pod template's
 * defaults (`SetDefaultPodSpec`) are not applied: the API server defaults the pods it is given the same way.
 */
import type { BroadcastJob } from './types.js';

/** `parallelism` when absent: `1<<31 - 1`. */
export const DEFAULT_PARALLELISM = 2147483647;

/**
 * `job` with `completionPolicy.type` `Always`, `failurePolicy.type` `FailFast` and `parallelism` 2^31-1 where
 * unset (empty strings count as unset). Returns a new object; `job` is not modified.
 */
export function withDefaults(job: BroadcastJob): BroadcastJob {
  const spec = job.spec;
  return {
    ...job,
    spec: {
      ...spec,
      parallelism: spec.parallelism ?? DEFAULT_PARALLELISM,
      completionPolicy: { ...spec.completionPolicy, type: spec.completionPolicy?.type || 'Always' },
      failurePolicy: { ...spec.failurePolicy, type: spec.failurePolicy?.type || 'FailFast' },
    },
  };
}
