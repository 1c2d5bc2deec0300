/**
 * OpenKruise: pkg/controller/broadcastjob/broadcastjob_controller.go (labels, Event reasons and messages),
 * apis/apps/v1beta1/broadcastjob_types.go (phases, condition types).
 *
 * Every label, phase, condition and Event text of the BroadcastJob controller, in one place.
 */
import { CONDITION_FAILED_VALIDATION } from '../../../api/failedValidation.js';

/** Label on every pod of a job: the job's name (`JobNameLabelKey`). */
export const LABEL_JOB_NAME = 'broadcastjob-name';
/** Label on every pod of a job: the job's UID (`ControllerUIDLabelKey`). */
export const LABEL_CONTROLLER_UID = 'broadcastjob-controller-uid';

/** `status.phase` values. */
export const Phase = {
  Completed: 'completed',
  Running: 'running',
  Paused: 'paused',
  Failed: 'failed',
} as const;

/** `status.conditions[].type` values (`JobComplete`, `JobFailed`). */
export const JobConditionType = { Complete: 'Complete', Failed: 'Failed' } as const;

/** The Event reasons the controller records on a job (client-go's `SuccessfulCreate`… and its own). */
export const BcjEventReason = {
  SuccessfulCreate: 'SuccessfulCreate',
  FailedCreate: 'FailedCreate',
  SuccessfulDelete: 'SuccessfulDelete',
  Continue: 'Continue',
  Paused: 'Paused',
  TooManyActivePods: 'TooManyActivePods',
  DuplicatePodCreatedOnSameNode: 'DuplicatePodCreatedOnSameNode',
  JobComplete: 'JobComplete',
  DeadlineExceeded: 'DeadlineExceeded',
  /** FailFast's reason is this sentence, as upstream records it. */
  FailedPodFound: 'failed pod is found',
} as const;

/** FailFast's condition message. */
export const FAIL_FAST_MESSAGE = 'failure policy is FailurePolicyTypeFailFast and failed pod is found';

/**
 * Kruiseless's condition on a job OpenKruise's validating webhook would refuse (./validation.ts): no webhook answers
 * for BroadcastJobs, so the controller reports it (as Advanced StatefulSet's `FailedValidation`).
 */
export { CONDITION_FAILED_VALIDATION };
