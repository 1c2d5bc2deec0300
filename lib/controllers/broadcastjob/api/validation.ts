/**
 * OpenKruise: pkg/webhook/broadcastjob/validating/broadcastjob_create_update_handler.go `validateBroadcastJob`,
 * `validateBroadcastJobSpec`, `validateBroadcastJobName` (v1.9.0), without Kubernetes' `ValidatePodTemplateSpec`
 * (the API server validates the pods it is given).
 *
 * What OpenKruise's validating webhook refuses. No BroadcastJob admission answers in Kruiseless yet, so the pass runs
 * these on the job it reads and reports an invalid one (a `FailedValidation` condition and Warning Event) instead of
 * acting on it.
 */
import type { FieldError } from '../../../api/errors.js';
import { invalid } from '../../../api/fieldValidation.js';
import { LABEL_CONTROLLER_UID, LABEL_JOB_NAME } from './keys.js';
import type { BroadcastJob } from './types.js';

/** Longest job name the webhook takes. */
const MAX_NAME = 63;
const NAME_FORMAT = /^[a-zA-Z0-9-]+$/;

/** A `map[string]string` as Go's `%#v` prints it in a field error (keys sorted). */
function goMap(m: Readonly<Record<string, string>>): string {
  const body = Object.keys(m)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`)
    .join(', ');
  return `map[string]string{${body}}`;
}

/**
 * The webhook's errors for `job` (defaults applied, ./defaults.ts), in its order: the name (letters, digits and
 * `-`, at most 63), `ttlSecondsAfterFinished` and `activeDeadlineSeconds` under completion policy `Never`, a
 * template `restartPolicy` other than Never/OnFailure (an empty one is the `Always` the webhook's template defaults
 * write first), and the two job labels preset in the template.
 * @returns the errors, empty for a valid job
 */
export function validateBroadcastJob(job: BroadcastJob): FieldError[] {
  const errors: FieldError[] = [];
  const name = job.metadata.name ?? '';
  if (!NAME_FORMAT.test(name))
    errors.push({
      path: 'metadata.name',
      message:
        `Invalid value: ${JSON.stringify(name)}: BroadcastJob name must consist of alphanumeric characters or '-' ` +
        `(e.g. 'example-com', regex used for validation is '^[a-zA-Z0-9\\-]+$')`,
    });
  if (name.length > MAX_NAME)
    errors.push({
      path: 'metadata.name',
      message: `Invalid value: ${JSON.stringify(name)}: must be no more than ${MAX_NAME} characters`,
    });
  const policy = job.spec.completionPolicy ?? {};
  if (policy.type === 'Never') {
    if (policy.ttlSecondsAfterFinished !== undefined && policy.ttlSecondsAfterFinished !== null)
      errors.push(
        invalid(
          'spec.completionPolicy.ttlSecondsAfterFinished',
          policy.ttlSecondsAfterFinished,
          'ttlSecondsAfterFinished can just work with Always CompletionPolicyType',
        ),
      );
    if (policy.activeDeadlineSeconds !== undefined && policy.activeDeadlineSeconds !== null)
      errors.push(
        invalid(
          'spec.completionPolicy.activeDeadlineSeconds',
          policy.activeDeadlineSeconds,
          'activeDeadlineSeconds can just work with Always CompletionPolicyType',
        ),
      );
  }
  const restartPolicy = job.spec.template.spec.restartPolicy || 'Always';
  if (restartPolicy !== 'Never' && restartPolicy !== 'OnFailure')
    errors.push(
      invalid(
        'spec.template.spec.restartPolicy',
        restartPolicy,
        'pod restartPolicy can only be Never or OnFailure',
      ),
    );
  const labels = job.spec.template.metadata?.labels;
  if (labels && (labels[LABEL_JOB_NAME] || labels[LABEL_CONTROLLER_UID]))
    errors.push({
      path: 'spec.template.metadata.labels',
      message:
        `Invalid value: ${goMap(labels)}: "${LABEL_JOB_NAME}" and "${LABEL_CONTROLLER_UID}" are not allowed to ` +
        'preset in pod labels',
    });
  return errors;
}
