/**
 * Typed errors of the API-server adapter (callers branch on the class and its `reason`, never on message
 * text). Every {@link KubeClient} method turns what `@kubernetes/client-node` throws into a {@link KubeApiError}.
 */
import { KruiselessError, errorMessage } from '../core/errors.js';
import { ApiException } from '@kubernetes/client-node/dist/gen/apis/exception.js';

/** Reason used for failures where no HTTP response arrived (connection refused/reset, DNS, TLS, timeout). */
export const REASON_NETWORK_ERROR = 'NetworkError';

/** Kubernetes `Status.reason` for the HTTP codes the API server uses, when the body carries no Status. */
const REASON_BY_CODE: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Expired',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/**
 * A reference the API server cannot resolve to a resource (an unserved kind, a malformed apiVersion: the subclasses
 * in ./scaleFinder.ts): like a failed read, the object names something that cannot be read now. A pass that throws
 * it is a failed pass, backed off (lib/reconcile/reconcile.ts), as OpenKruise's reconcile returns the RESTMapper's
 * error to its rate-limited queue; never left to Lambda's retries and the dead-letter queue.
 */
export class UnresolvedReferenceError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'UnresolvedReferenceError';
  }
}

/**
 * An API-server request failed.
 * - `statusCode`: HTTP status (409, 404, 422, 429, 5xx, ...); `0` when no response arrived (network error).
 * - `reason`: the Kubernetes `Status.reason` (`Conflict`, `AlreadyExists`, `NotFound`, `Invalid`, `Expired`,
 *   `TooManyRequests`, ...), derived from the status code when the body is not a `Status`, or
 *   {@link REASON_NETWORK_ERROR}.
 * - `operation`: what was attempted, e.g. `patch pod ns/name`.
 * - `apiMessage`: the API server's `Status.message` (or the network error's message).
 */
export class KubeApiError extends KruiselessError {
  readonly statusCode: number;
  readonly reason: string;
  readonly operation: string;
  readonly apiMessage: string;
  /** For a 429/503: the wait the server asked for (`Retry-After`), seconds, capped (./request.ts). */
  retryAfterSeconds?: number;
  /**
   * Which attempt of the request ended in this error (./request.ts), when it was a retry (2 or more): an earlier
   * attempt's write may then have been applied, its answer lost, so a 409 Conflict may be on the caller's own write.
   */
  attempt?: number;

  constructor(
    operation: string,
    statusCode: number,
    reason: string,
    apiMessage: string,
    options?: { cause?: unknown },
  ) {
    super(`${operation}: ${statusCode || 'no response'} ${reason}: ${apiMessage}`, options);
    this.name = 'KubeApiError';
    this.operation = operation;
    this.statusCode = statusCode;
    this.reason = reason;
    this.apiMessage = apiMessage;
  }
}

/**
 * The words a webhook answers or an Event quotes for `e`: the API server's own message of a {@link KubeApiError} (as
 * OpenKruise passes the client's error on), else the error's message.
 */
export function apiErrorMessage(e: unknown): string {
  return e instanceof KubeApiError ? e.apiMessage : errorMessage(e);
}

/** A Kubernetes `Status` object as far as this module reads it. */
interface StatusLike {
  reason?: unknown;
  message?: unknown;
}

/** Parses a response body (string or already-parsed object) into a `Status`-like object, if it is one. */
function parseStatus(body: unknown): StatusLike | undefined {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null ? value : undefined;
}

/** True for errors thrown by node-fetch (client-node 1.x) when no HTTP response arrived. */
function isNetworkFailure(e: unknown): e is Error {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  return (
    e.name === 'FetchError' ||
    (typeof code === 'string' && /^(E[A-Z_]+|UND_ERR_.*|ERR_TLS.*|CERT_.*)$/.test(code))
  );
}

/**
 * Builds the error for an HTTP response with a non-2xx status.
 * @param body the response body (JSON `Status` text or object; anything else is tolerated)
 */
export function kubeApiErrorFromResponse(
  operation: string,
  statusCode: number,
  body: unknown,
  cause?: unknown,
): KubeApiError {
  const status = parseStatus(body);
  const reason =
    typeof status?.reason === 'string' && status.reason !== ''
      ? status.reason
      : (REASON_BY_CODE[statusCode] ?? (statusCode >= 500 ? 'InternalError' : 'Unknown'));
  const message =
    typeof status?.message === 'string' ? status.message : typeof body === 'string' ? body.slice(0, 500) : '';
  return new KubeApiError(operation, statusCode, reason, message, { cause });
}

/**
 * Converts whatever client-node threw into a {@link KubeApiError}: `ApiException` (HTTP error; body is the
 * `Status` JSON as a string) and network failures. Other errors (programming errors) are returned unchanged.
 */
export function toKubeApiError(e: unknown, operation: string): unknown {
  if (e instanceof KubeApiError) return e;
  if (e instanceof ApiException) {
    return kubeApiErrorFromResponse(operation, (e as ApiException<unknown>).code, e.body, e);
  }
  if (isNetworkFailure(e)) {
    return new KubeApiError(operation, 0, REASON_NETWORK_ERROR, e.message, { cause: e });
  }
  return e;
}

/**
 * The text Go's `err.Error()` gives for the same failure, which OpenKruise writes into its Events and conditions
 * (`%v` of the error): for an API error client-go's `StatusError.Error()`, the Status `message` alone
 * (`pods "web-x" is forbidden: exceeded quota: …`), without the operation, code and reason this module's
 * {@link KubeApiError} message adds; for any other error its message.
 */
export function goErrorText(e: Error): string {
  return e instanceof KubeApiError ? e.apiMessage : e.message;
}

/** True when retrying the same request may succeed: 429, 5xx, or no response at all. Never 409/404/422. */
export function isRetryable(e: unknown): boolean {
  return e instanceof KubeApiError && (e.statusCode === 0 || e.statusCode === 429 || e.statusCode >= 500);
}

/** True for 409 with reason `Conflict`: a resourceVersion or UID precondition failed (re-read and re-plan). */
export function isConflict(e: unknown): e is KubeApiError {
  return e instanceof KubeApiError && e.statusCode === 409 && e.reason === 'Conflict';
}

/** True for 404 `NotFound`. */
export function isNotFound(e: unknown): e is KubeApiError {
  return e instanceof KubeApiError && e.statusCode === 404;
}

/** True for 403 `Forbidden`: the caller's role does not grant the request. */
export function isForbidden(e: unknown): e is KubeApiError {
  return e instanceof KubeApiError && e.statusCode === 403;
}

/** True for 409 with reason `AlreadyExists` (a create whose name is taken). */
export function isAlreadyExists(e: unknown): e is KubeApiError {
  return e instanceof KubeApiError && e.statusCode === 409 && e.reason === 'AlreadyExists';
}

/**
 * What a failed write means to the reconciler — the one classification of API errors (client-go's
 * `apierrors.IsConflict` / `IsAlreadyExists` / `IsNotFound`, as OpenKruise's CloneSet controller uses them):
 * - `conflict`: 409 `Conflict`, a resourceVersion or UID precondition failed: the object changed since it was read;
 *   not a failure — stop, re-read, re-plan;
 * - `alreadyExists`: 409 `AlreadyExists`, a create whose name is taken;
 * - `notFound`: 404, the object is gone (what a delete wanted);
 * - `failed`: any other API error (reported as a failure);
 * - `notApi`: not an API-server error at all (state store, fencing, a bug): never handled as a write failure.
 */
export type WriteErrorKind = 'conflict' | 'alreadyExists' | 'notFound' | 'failed' | 'notApi';

/** Classifies an error thrown by a {@link KubeClient} write; see {@link WriteErrorKind}. */
export function classifyWriteError(e: unknown): WriteErrorKind {
  if (!(e instanceof KubeApiError)) return 'notApi';
  if (isConflict(e)) return 'conflict';
  if (isAlreadyExists(e)) return 'alreadyExists';
  if (isNotFound(e)) return 'notFound';
  return 'failed';
}

/**
 * Awaits a delete, treating NotFound as success: deletes are idempotent, an object already gone is what the delete
 * wanted (as controller-runtime's `client.IgnoreNotFound`).
 * @throws whatever else the delete throws
 */
export async function ignoreNotFound(p: Promise<void>): Promise<void> {
  try {
    await p;
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
