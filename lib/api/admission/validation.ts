/**
 * The AdmissionReview exchange of a validating admission webhook (admission.k8s.io/v1): the API server POSTs
 * `{request: {uid, resource, operation, object, oldObject}}` and expects `{response: {uid, allowed, status}}`. OpenKruise
 * answers with controller-runtime's `admission.Errored(code, err)` or `admission.ValidationResponse(false, reason)`;
 * the API server shows the caller `admission webhook "<webhook name>" denied the request: <status.message>`, so the
 * webhook names below are OpenKruise's (`vcloneset.kb.io`, …) and a refusal reads as OpenKruise's does. Pure: the
 * transport (the admission function, the embedded runtime's HTTPS server) is elsewhere; the validators are listed once
 * in lib/controllers/validations.ts.
 */
import { errorMessage } from '../../core/errors.js';
import type { FieldError } from '../errors.js';
import { isJsonObject, type JsonObject } from '../types.js';
import {
  patchAnswer,
  readAdmissionReview,
  refusal,
  type AdmissionRequest,
  type MutationAnswer,
} from './mutation.js';

/** An operation a validator may be registered for. */
export type ValidatedOperation = 'CREATE' | 'UPDATE' | 'DELETE';

/** What a validator is given. */
export interface ValidationRequest {
  operation: ValidatedOperation;
  /** The object to store (CREATE, UPDATE), of the validator's version (the webhook's `matchPolicy: Equivalent`). */
  object?: JsonObject;
  /** The stored object (UPDATE; DELETE from Kubernetes 1.16). */
  oldObject?: JsonObject;
  /**
   * The version the caller wrote (`requestResource.version`; the object itself arrives converted to the validator's
   * version). CloneSet's webhook accepts `OnDelete` only when written through v1beta1.
   */
  requestVersion: string;
}

/**
 * A validator's answer: allowed, or refused with the HTTP code OpenKruise's handler answers with (422 for
 * `admission.Errored(http.StatusUnprocessableEntity, …)`, 403 for `ValidationResponse(false, …)`, 500 where the
 * handler turns the validation error into an internal one, as BroadcastJob's and DaemonSet's creates do) and the
 * message the API server appends to `denied the request: `.
 */
export type ValidationVerdict = { allowed: true } | { allowed: false; code: number; message: string };

/** The validation of one resource, as OpenKruise's validating webhook for it. */
export interface Validator {
  /** The webhook's name, OpenKruise's (`vcloneset.kb.io`): the API server names it in every refusal. */
  readonly webhookName: string;
  /** API group, e.g. `apps.kruise.io`. */
  readonly group: string;
  /** The resource's plural, e.g. `clonesets`. */
  readonly resource: string;
  /** The version it takes; writes through the resource's other versions reach it converted. */
  readonly version: string;
  /** The operations it is registered for. */
  readonly operations: readonly ValidatedOperation[];
  /** Whether the resource is namespaced (default true). */
  readonly namespaced?: boolean;
  /**
   * The verdict. A throw is answered as a refusal with code 500 (the webhook failed), which the configuration's
   * failure policy does not turn into an allow: it is the webhook's answer.
   */
  validate(request: ValidationRequest): ValidationVerdict | Promise<ValidationVerdict>;
}

/**
 * `object` read as a workload of type `T`, a missing or non-object `spec` read as `{}`, as Go decodes a body without
 * one into the zero spec (the rules then report what it lacks). The input is not modified.
 */
export function withSpecObject<T>(object: unknown): T {
  const o = (object ?? {}) as { spec?: unknown };
  return (isJsonObject(o.spec) ? o : { ...o, spec: {} }) as T;
}

/**
 * Field errors as Kubernetes' `field.ErrorList.ToAggregate().Error()` prints them: one error alone as
 * `<path>: <message>`, several in brackets joined by `, `, a message repeated only once
 * (k8s.io/apimachinery `util/errors.aggregate.Error`).
 */
export function aggregateMessage(errors: readonly FieldError[]): string {
  const seen: string[] = [];
  for (const e of errors) {
    const text = e.path ? `${e.path}: ${e.message}` : e.message;
    if (!seen.includes(text)) seen.push(text);
  }
  if (errors.length === 1 || seen.length === 1) return seen[0] ?? '';
  return `[${seen.join(', ')}]`;
}

/** Allowed when `errors` is empty, else refused with `code` and their {@link aggregateMessage}. */
export function verdictOf(errors: readonly FieldError[], code = 422): ValidationVerdict {
  return errors.length === 0
    ? { allowed: true }
    : { allowed: false, code, message: aggregateMessage(errors) };
}

const isValidated = (op: string): op is ValidatedOperation =>
  op === 'CREATE' || op === 'UPDATE' || op === 'DELETE';

/** The validator registered for the request's group/resource/version and operation, if any. */
export function validatorFor(
  req: Pick<AdmissionRequest, 'resource' | 'operation' | 'subResource'>,
  validators: readonly Validator[],
): Validator | undefined {
  if (req.subResource) return undefined;
  return validators.find(
    (v) =>
      v.group === req.resource.group &&
      v.resource === req.resource.resource &&
      v.version === req.resource.version &&
      (v.operations as readonly string[]).includes(req.operation),
  );
}

/**
 * Answers one AdmissionReview body with the validator of its group/resource/version. A request no validator takes
 * (another resource, a subresource, an operation it is not registered for, CONNECT) is allowed: the configuration
 * should not send those.
 * @returns 200 with the review (refused with the validator's code and message; 500 when it threw), 400 for a body
 *   that is not an AdmissionReview v1, 413 for one over lib/api/admission/mutation.ts `MAX_MUTATION_BODY_BYTES`
 */
export async function handleValidationReview(
  body: string,
  validators: readonly Validator[],
): Promise<MutationAnswer> {
  const read = readAdmissionReview(body);
  if ('answer' in read) return read.answer;
  const req = read.request;
  const validator = validatorFor(req, validators);
  if (!validator || !isValidated(req.operation)) return patchAnswer(req.uid, {}, {});
  const object = (req.object ?? undefined) as JsonObject | undefined;
  const oldObject = (req.oldObject ?? undefined) as JsonObject | undefined;
  if (req.operation !== 'DELETE' && !object)
    return refusal(req.uid, 400, `${req.operation} without an object`);
  let verdict: ValidationVerdict;
  try {
    verdict = await validator.validate({
      operation: req.operation,
      ...(object ? { object } : {}),
      ...(oldObject ? { oldObject } : {}),
      requestVersion: req.requestResource?.version ?? req.resource.version,
    });
  } catch (e) {
    return refusal(req.uid, 500, `validation failed: ${errorMessage(e)}`);
  }
  return verdict.allowed ? patchAnswer(req.uid, {}, {}) : refusal(req.uid, verdict.code, verdict.message);
}
