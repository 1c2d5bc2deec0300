/**
 * OpenKruise: apis/apps/defaults/v1beta1.go `SetDefaultsAdvancedCronJob` (what the mutating webhook stores).
 *
 * Kruiseless's `/mutate` stores these defaults where it is registered (./mutation.ts); the controller applies them in
 * memory on every read as well, so it decides — and makes children — as OpenKruise's controller does on an object its
 * webhook defaulted. The templates' pod-spec defaults matter to the children: `SetDefaultPodSpec` gives a container
 * without a pull policy `Always`, where the API server would give a tagged image `IfNotPresent`.
 */
import { defaultPodTemplate } from '../../../api/podTemplateDefaults.js';
import type { AdvancedCronJob, ChildTemplate } from './types.js';

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

function withTemplateDefaults(child: ChildTemplate | undefined): ChildTemplate | undefined {
  if (!child?.spec?.template) return child;
  return { ...child, spec: { ...child.spec, template: defaultPodTemplate(child.spec.template) } };
}

/**
 * `acj` with OpenKruise's `SetDefaultPodSpec` defaults (lib/api/podTemplateDefaults.ts `defaultPodTemplate`) in the
 * pod template of its `jobTemplate` and of its `broadcastJobTemplate`, as its webhook stores them on a CREATE or a
 * template change unless gate `TemplateNoDefaults` is on. Returns a new object.
 */
export function withChildTemplateDefaults(acj: AdvancedCronJob): AdvancedCronJob {
  const template = acj.spec.template;
  if (!template) return acj;
  const jobTemplate = withTemplateDefaults(template.jobTemplate);
  const broadcastJobTemplate = withTemplateDefaults(template.broadcastJobTemplate);
  return {
    ...acj,
    spec: {
      ...acj.spec,
      template: {
        ...template,
        ...(jobTemplate ? { jobTemplate } : {}),
        ...(broadcastJobTemplate ? { broadcastJobTemplate } : {}),
      },
    },
  };
}
