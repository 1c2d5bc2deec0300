/**
 * The `FailedValidation` condition of a workload OpenKruise's validating webhook would have refused, for the kinds
 * whose webhook Kruiseless does not serve: status True, reason `InvalidSpec`, message
 * `<Kind> is invalid: <path: message; …>` (lib/reconcile/failedValidation.ts writes it and its Event). Pure.
 */
import { describeFieldErrors, type FieldError } from './errors.js';
import { metaTime } from './time.js';

/** The condition type, as Kruiseless's kinds name it. */
export const CONDITION_FAILED_VALIDATION = 'FailedValidation';

/** A status condition as the workload kinds store them. */
export interface StatusCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** `<kind> is invalid: <errors>`, the condition's and Event's message. */
export function failedValidationMessage(kind: string, errors: readonly FieldError[]): string {
  return `${kind} is invalid: ${describeFieldErrors(errors)}`;
}

/**
 * `conditions` with the `FailedValidation` condition for `message` in place of any earlier one, or undefined when the
 * stored one is already True with that message (nothing to write).
 * @param nowMs epoch milliseconds, the condition's `lastTransitionTime`
 */
export function withFailedValidation(
  conditions: readonly StatusCondition[] | undefined,
  message: string,
  nowMs: number,
): StatusCondition[] | undefined {
  const previous = (conditions ?? []).find((c) => c.type === CONDITION_FAILED_VALIDATION);
  if (previous?.status === 'True' && previous.message === message) return undefined;
  return [
    ...(conditions ?? []).filter((c) => c.type !== CONDITION_FAILED_VALIDATION),
    {
      type: CONDITION_FAILED_VALIDATION,
      status: 'True',
      lastTransitionTime: metaTime(new Date(nowMs)),
      reason: 'InvalidSpec',
      message,
    },
  ];
}

/** `conditions` without a `FailedValidation` condition (a valid object drops one left from before). */
export function withoutFailedValidation(conditions: readonly StatusCondition[]): StatusCondition[] {
  return conditions.filter((c) => c.type !== CONDITION_FAILED_VALIDATION);
}
