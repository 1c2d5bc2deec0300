/**
 * Typed errors of the API layer (callers branch on the class, never on message text). The `{path, message}`
 * shape and the base classes live in lib/core/errors.ts; they are re-exported here for the planner's callers.
 */

export { describeFieldErrors, FieldErrorsError, type FieldError } from '../core/errors.js';
import { FieldErrorsError, KruiselessError, type FieldError } from '../core/errors.js';

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
export class InvalidRevisionDataError extends KruiselessError {
  /** Name of the offending ControllerRevision. */
  readonly revisionName: string;

  constructor(revisionName: string, detail: string) {
    super(`ControllerRevision ${revisionName} has invalid data: ${detail}`);
    this.name = 'InvalidRevisionDataError';
    this.revisionName = revisionName;
  }
}

/**
 * The Advanced StatefulSet failed validation (the rules of OpenKruise's StatefulSet validating webhook,
 * lib/controllers/statefulset/api/validation.ts). The reconciler reports it and changes nothing in the cluster.
 */
export class InvalidStatefulSetError extends FieldErrorsError {
  constructor(errors: FieldError[]) {
    super('StatefulSet is invalid', errors, 'unknown validation error');
    this.name = 'InvalidStatefulSetError';
  }
}
