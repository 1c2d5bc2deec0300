/**
 * OpenKruise's validating webhook for AdvancedCronJobs (`pkg/webhook/advancedcronjob/validating`,
 * `vadvancedcronjob.kb.io`, handler `Handle`) as a {@link Validator} of v1beta1 (v1alpha1 has the same fields): a
 * CREATE refused with ./validation.ts `validateAdvancedCronJob`'s errors, an UPDATE with those and, when a spec field
 * other than the schedule settings changed, the webhook's Forbidden error (`validateAdvancedCronJobUpdate`), each as
 * `admission.Errored(422, errors.ToAggregate())`. The CRD's CEL transition rule refuses that template change before any
 * webhook is called; the rule is repeated here so the webhook decides alone where the CRD is an older one. The object
 * is defaulted in memory first (./defaults.ts), as `/mutate` stores it.
 */
import { frozenFieldsChanged } from '../../../api/admission/frozenSpec.js';
import { verdictOf, withSpecObject, type Validator } from '../../../api/admission/validation.js';
import type { FieldError } from '../../../api/errors.js';
import { forbidden } from '../../../api/fieldValidation.js';
import { withDefaults } from './defaults.js';
import { ACJ_RESOURCE } from './resource.js';
import type { AdvancedCronJob } from './types.js';
import { validateAdvancedCronJob } from './validation.js';

/** The spec fields an update may change (upstream `validateAdvancedCronJobUpdate`), besides a present ImageListPullJob template. */
export const ACJ_MUTABLE_SPEC_FIELDS = [
  'schedule',
  'concurrencyPolicy',
  'successfulJobsHistoryLimit',
  'failedJobsHistoryLimit',
  'startingDeadlineSeconds',
  'paused',
  'timeZone',
] as const;

const defaulted = (o: unknown): AdvancedCronJob => withDefaults(withSpecObject<AdvancedCronJob>(o));

/** The spec with an ImageListPullJob template the old spec had taken from `old` (it may change once present). */
function withOldImageListPullJob(spec: object, old: object): object {
  const oldTemplate = (old as { template?: Record<string, unknown> }).template;
  if (oldTemplate?.imageListPullJobTemplate === undefined) return spec;
  const template = (spec as { template?: Record<string, unknown> }).template ?? {};
  return {
    ...spec,
    template: { ...template, imageListPullJobTemplate: oldTemplate.imageListPullJobTemplate },
  };
}

/** The AdvancedCronJob validator (`vadvancedcronjob.kb.io`, CREATE and UPDATE of v1beta1 `advancedcronjobs`). */
export const advancedCronJobValidator: Validator = {
  webhookName: 'vadvancedcronjob.kb.io',
  group: ACJ_RESOURCE.group,
  resource: ACJ_RESOURCE.plural,
  version: ACJ_RESOURCE.version,
  operations: ['CREATE', 'UPDATE'],
  validate({ operation, object, oldObject }) {
    const acj = defaulted(object);
    const errors: FieldError[] = validateAdvancedCronJob(acj);
    if (operation === 'UPDATE' && oldObject) {
      const old = defaulted(oldObject);
      if (frozenFieldsChanged(withOldImageListPullJob(acj.spec, old.spec), old.spec, ACJ_MUTABLE_SPEC_FIELDS))
        errors.push(
          forbidden(
            'spec',
            "updates to advancedcronjob spec for fields other than 'imageListPullJobTemplate', 'schedule', 'concurrencyPolicy', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit', 'startingDeadlineSeconds', 'timeZone' and 'paused' are forbidden",
          ),
        );
    }
    return verdictOf(errors, 422);
  },
};
