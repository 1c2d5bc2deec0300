/**
 * The one error base of everything Kruiseless throws on purpose (api, podset, kube, state, requests, source,
 * reconcile, runtime, emulator, cli, and the test harnesses), the one `{path, message}` shape for "this input is
 * wrong at this field", like Kubernetes' `field.Error`, and the one way to read a caught value's message. Callers
 * branch on the subclass, never on message text.
 */
import type * as z from 'zod';

/** Base class of every error Kruiseless throws on purpose; `name` is the subclass's name. */
export class KruiselessError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KruiselessError';
  }
}

/**
 * The message of a caught value, for logs and wrapped errors: the `message` of an `Error` or of anything shaped
 * like one (errors from another realm, e.g. a test sandbox or a Lambda shim, are not `instanceof Error`), else
 * `String(e)` (a thrown string is its own message). Never throws.
 */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'object' && e !== null && 'message' in e && typeof e.message === 'string')
    return e.message;
  return String(e);
}

/** One offending field. */
export interface FieldError {
  /** Dotted path with `[i]` for list items, e.g. `detail.namespace` or `functions.reconcile.events[0]`. */
  path: string;
  /** What is wrong there, in one short clause. */
  message: string;
}

/** `path: message` items joined by `; `; an item with an empty path (the whole input) is its message alone. */
export function describeFieldErrors(errors: readonly FieldError[]): string {
  return errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
}

/** A zod issue path as a {@link FieldError} path: `a.b[0].c`, after `prefix` when one is given. */
export function fieldPath(path: readonly PropertyKey[], prefix = ''): string {
  return path.reduce<string>(
    (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
    prefix,
  );
}

/** Every issue of a failed zod parse as a {@link FieldError}, in zod's order. */
export function fieldErrorsFromZod(error: z.ZodError, prefix = ''): FieldError[] {
  return error.issues.map((issue) => ({ path: fieldPath(issue.path, prefix), message: issue.message }));
}

/**
 * Base class of every error that reports a list of {@link FieldError}s (an invalid event, serverless.yml, cluster
 * record). The message is `<subject>: <describeFieldErrors(errors)>`, or `<subject>: <fallback>` for an empty list.
 */
export class FieldErrorsError extends KruiselessError {
  /** Every failure found, in check order. */
  readonly errors: FieldError[];

  constructor(subject: string, errors: FieldError[], fallback = 'unknown error') {
    super(`${subject}: ${describeFieldErrors(errors) || fallback}`);
    this.name = 'FieldErrorsError';
    this.errors = errors;
  }
}
