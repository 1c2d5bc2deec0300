/**
 * OpenKruise: pkg/webhook/advancedcronjob/validating/advancedcronjob_create_update_handler.go
 * `validateAdvancedCronJob`, `validateAdvancedCronJobSpec` and the functions under it (v1.9.0), on the object as its
 * mutating webhook defaults it.
 *
 * What OpenKruise's validating webhook refuses at create. No AdvancedCronJob validating webhook answers in
 * Kruiseless, so the pass runs these rules on the object it reads and reports an invalid one — a Warning Event
 * `FailedValidation` (the status has no conditions) — instead of scheduling anything. Kubernetes'
 * `ValidatePodTemplateSpec` of the templates is not repeated: the API server validates the Job or BroadcastJob
 * created from them, and the BroadcastJob controller its own template.
 */
import type { FieldError } from '../../../api/errors.js';
import { forbidden, invalid, nonNegative, regexError } from '../../../api/fieldValidation.js';
import { CronParseError, loadZone, parseSchedule } from '../plan/cron.js';
import type { AdvancedCronJob } from './types.js';

const NAME_FORMAT = '^[a-zA-Z0-9\\-]+$';
const NAME = new RegExp(NAME_FORMAT);
const MAX_NAME = 63;
const ONE_TEMPLATE = 'JobTemplate or BroadcastJobTemplate or ImageListPullJobTemplate should be provided';

/** robfig's `ParseStandard` error for `schedule`, or undefined when it parses. */
function scheduleError(schedule: string): string | undefined {
  if (schedule === '') return 'empty spec string';
  try {
    parseSchedule(schedule);
    return undefined;
  } catch (e) {
    if (e instanceof CronParseError) return e.message;
    throw e;
  }
}

/** Upstream `validateTimeZone`: non-empty, not `Local`, a zone Go's `time.LoadLocation` knows. */
function timeZoneErrors(timeZone: string | undefined): FieldError[] {
  const path = 'spec.timeZone';
  if (timeZone === undefined) return [];
  if (timeZone === '') return [invalid(path, timeZone, 'timeZone must be nil or non-empty string')];
  const out: FieldError[] = [];
  if (timeZone.toLowerCase() === 'local')
    out.push(
      invalid(
        path,
        timeZone,
        'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ),
    );
  // Go loads "Local" (any other spelling is an unknown zone); loadZone takes "Local" too
  if (timeZone !== 'Local' && !loadZone(timeZone))
    out.push(invalid(path, timeZone, `unknown time zone ${timeZone}`));
  return out;
}

/**
 * The webhook's errors for `acj` (defaults applied), in its order: the name (letters, digits and `-`, at most 63);
 * the schedule (not empty, parsed as robfig's `ParseStandard` parses it, no `TZ` prefix beside `timeZone`); exactly
 * one template, an ImageListPullJob one only with `concurrencyPolicy` Replace or Forbid (at upstream's path
 * `spec.spec.concurrencyPolicy`); `startingDeadlineSeconds` and the history limits ≥ 0; `timeZone`.
 * @returns the errors, empty for a valid object
 */
export function validateAdvancedCronJob(acj: AdvancedCronJob): FieldError[] {
  const name = acj.metadata.name ?? '';
  const spec = acj.spec;
  const out: FieldError[] = [];
  if (!NAME.test(name))
    out.push(
      invalid(
        'metadata.name',
        name,
        regexError(
          "AdvancedCronJob name must consist of alphanumeric characters or '-'",
          NAME_FORMAT,
          'example-com',
        ),
      ),
    );
  if (name.length > MAX_NAME)
    out.push(invalid('metadata.name', name, `must be no more than ${MAX_NAME} characters`));
  const schedule = spec.schedule ?? '';
  if (schedule === '')
    out.push(
      invalid('spec.schedule', schedule, 'schedule cannot be empty, please provide valid cron schedule.'),
    );
  const parseError = scheduleError(schedule);
  if (parseError !== undefined) out.push(invalid('spec.schedule', schedule, parseError));
  if (schedule.includes('TZ') && spec.timeZone !== undefined)
    out.push(
      invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'),
    );
  const template = spec.template ?? {};
  const count = [
    template.jobTemplate,
    template.broadcastJobTemplate,
    template.imageListPullJobTemplate,
  ].filter((t) => t !== undefined && t !== null).length;
  if (
    template.imageListPullJobTemplate &&
    spec.concurrencyPolicy !== 'Replace' &&
    spec.concurrencyPolicy !== 'Forbid'
  )
    out.push(
      invalid(
        'spec.spec.concurrencyPolicy',
        spec.concurrencyPolicy ?? '',
        `concurrencyPolicy should be Replace or Forbid, but current value is: ${spec.concurrencyPolicy ?? ''}`,
      ),
    );
  if (count === 0)
    out.push(forbidden('spec.template', `spec must have one template, either ${ONE_TEMPLATE}`));
  else if (count > 1)
    out.push(forbidden('spec.template', `spec can have only one template, either ${ONE_TEMPLATE}`));
  if (spec.startingDeadlineSeconds !== undefined)
    out.push(...nonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if (spec.successfulJobsHistoryLimit !== undefined)
    out.push(...nonNegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  if (spec.failedJobsHistoryLimit !== undefined)
    out.push(...nonNegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  out.push(...timeZoneErrors(spec.timeZone));
  return out;
}
