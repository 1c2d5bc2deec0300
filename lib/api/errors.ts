/**
 * Typed errors of the API layer (callers branch on the class, never on message text).
 */

/** One validation failure, as Kubernetes' `field.Error` reports it. */
export interface FieldError {
  /** Dotted field path, e.g. `spec.updateStrategy.partition` or `spec.template.spec.containers[0].name`. */
  path: string;
  /** Human-readable reason in the wording of Kruise's validating webhook. */
  message: string;
}

/**
 * Joins field errors into one clause: `path: message` items separated by `; ` (an item with an empty path is
 * its message alone). Every error class that carries {@link FieldError}s renders them with this.
 */
export function describeFieldErrors(errors: readonly FieldError[]): string {
  return errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
}

/**
 * Base class of every error that reports a list of {@link FieldError}s; the message is
 * `<subject>: <describeFieldErrors(errors)>`, or `<subject>: <fallback>` when the list is empty.
 */
export class FieldErrorsError extends Error {
  /** Every failure found, in check order. */
  readonly errors: FieldError[];

  constructor(subject: string, errors: FieldError[], fallback = 'unknown error') {
    super(`${subject}: ${describeFieldErrors(errors) || fallback}`);
    this.name = 'FieldErrorsError';
    this.errors = errors;
  }
}

/**
 * The CloneSet failed validation (the checks of OpenKruise's CloneSet validating webhook, see
 * docs/behaviour/cloneset.md#validation). The reconciler reports it as a condition and an Event and changes
 * nothing in the cluster.
 */
export class InvalidCloneSetError extends FieldErrorsError {
  constructor(errors: FieldError[]) {
    super('CloneSet is invalid', errors, 'unknown validation error');
    this.name = 'InvalidCloneSetError';
  }
}

/**
 * A ControllerRevision's `data` is not the `{"spec":{"template":…}}` object the CloneSet controller writes
 * (docs/behaviour/cloneset.md#revisions); upstream fails the sync with an error in that case.
 */
export class InvalidRevisionDataError extends Error {
  /** Name of the offending ControllerRevision. */
  readonly revisionName: string;

  constructor(revisionName: string, detail: string) {
    super(`ControllerRevision ${revisionName} has invalid data: ${detail}`);
    this.name = 'InvalidRevisionDataError';
    this.revisionName = revisionName;
  }
}
