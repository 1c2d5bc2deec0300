/**
 * OpenKruise: apis/apps/defaults/v1beta1.go `SetDefaultsBroadcastJob` (what the mutating webhook stores).
 *
 * Kruiseless's `/mutate` stores these defaults where it is registered (./mutation.ts); the controller applies them in
 * memory on every read as well, so it decides as OpenKruise's controller does on a job its webhook defaulted. The pod
 * template's defaults matter to the pods: `SetDefaultPodSpec` gives a container without a pull policy `Always`, where
 * the API server would give a tagged image `IfNotPresent`.
 */
import { defaultPodTemplate } from '../../../api/podTemplateDefaults.js';
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

/**
 * `job` with OpenKruise's `SetDefaultPodSpec` defaults in its pod template (lib/api/podTemplateDefaults.ts
 * `defaultPodTemplate`: `imagePullPolicy` `Always` for containers, `restartPolicy` `Always` when empty, …), as its
 * webhook stores them on a CREATE or a template change unless gate `TemplateNoDefaults` is on. Returns a new object.
 */
export function withPodTemplateDefaults(job: BroadcastJob): BroadcastJob {
  return { ...job, spec: { ...job.spec, template: defaultPodTemplate(job.spec.template) } };
}
