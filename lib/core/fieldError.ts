/**
 * The one error shape for "this input is wrong at this field": `{path, message}` like Kubernetes' `field.Error`,
 * and the base class of every adapter error that carries such a list. Structurally the same as the API layer's
 * `FieldError`, so lists from either place mix.
 */

/** One offending field. */
export interface FieldIssue {
  /** Dotted path, e.g. `detail.namespace` or `auth.region`; `''` for the whole input. */
  path: string;
  /** What is wrong with it, in one short clause. */
  message: string;
}

/** Renders issues as `path: message; path: message` (the root as `(root)`). */
export function describeIssues(issues: readonly FieldIssue[]): string {
  return issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ');
}

/**
 * Base class of the adapters' input errors: an invalid event, serverless config, cluster record, AdmissionReview.
 * Callers branch on the subclass; `issues` lists every problem found, in the order found.
 */
export class InvalidInputError extends Error {
  readonly issues: FieldIssue[];

  /**
   * @param what the kind of input, e.g. `reconcile event` (the message starts `invalid <what>: `)
   */
  constructor(what: string, issues: FieldIssue[]) {
    super(`invalid ${what}: ${describeIssues(issues) || 'unknown validation error'}`);
    this.name = 'InvalidInputError';
    this.issues = issues;
  }
}
