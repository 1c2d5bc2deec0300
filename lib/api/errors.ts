/**
 * Typed errors of the API layer (STYLE: callers branch on the class, never on message text).
 */

/** One validation failure, as Kubernetes' `field.Error` reports it. */
export interface FieldError {
  /** Dotted field path, e.g. `spec.updateStrategy.partition` or `spec.template.spec.containers[0].name`. */
  path: string;
  /** Human-readable reason in the wording of Kruise's validating webhook. */
  message: string;
}

/**
 * The CloneSet failed validation (spec §1.2–§1.4, DESIGN §2a). The reconciler reports it as a condition and an
 * Event and changes nothing in the cluster.
 */
export class InvalidCloneSetError extends Error {
  /** Every failure found, in check order. */
  readonly errors: FieldError[];

  constructor(errors: FieldError[]) {
    super(
      `CloneSet is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ') || 'unknown validation error'}`,
    );
    this.name = 'InvalidCloneSetError';
    this.errors = errors;
  }
}

/**
 * A ControllerRevision's `data` is not the `{"spec":{"template":…}}` object the CloneSet controller writes
 * (spec §3.3 "Applying a revision"); upstream fails the sync with an error in that case.
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
