/**
 * Typed errors of the event layer (STYLE: callers branch on the class, never on message text).
 */

/** One offending field of an event, a pattern or a config file. */
export interface EventFieldError {
  /** Dotted path, e.g. `detail.namespace` or `functions.reconcile.events[0].eventBridge.pattern`. */
  path: string;
  /** What is wrong with it, in one short clause. */
  message: string;
}

/** Joins field errors into the single clause used by every error message here. */
export function describeEventFields(errors: readonly EventFieldError[]): string {
  return errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
}

/**
 * A reconcile-request event is malformed or of an unknown kind (DESIGN §1: "Anything else is rejected with a
 * clear error and goes to the dead-letter queue"). The message names every offending field on one line.
 */
export class InvalidEventError extends Error {
  /** Every failure found, in path order. */
  readonly errors: EventFieldError[];

  constructor(errors: EventFieldError[]) {
    super(`invalid reconcile event: ${describeEventFields(errors) || 'unknown validation error'}`);
    this.name = 'InvalidEventError';
    this.errors = errors;
  }
}

/** One entry that PutEvents still refused after the publisher's last attempt. */
export interface FailedEntry {
  /** The CloneSet key the entry named, `<cluster>/<namespace>/<name>`. */
  key: string;
  /** EventBridge's `ErrorCode`, or the SDK error's name when the whole call failed. */
  errorCode: string;
  /** EventBridge's `ErrorMessage`, or the SDK error's message. */
  errorMessage: string;
}

/**
 * Some reconcile requests could not be put on the bus after every attempt (ecosystem-notes §6.2: PutEvents is
 * not all-or-nothing). The others were published; `published` says how many.
 */
export class PublishError extends Error {
  /** Entries still failing after the last attempt, in request order. */
  readonly failed: FailedEntry[];
  /** Entries that were accepted by the bus. */
  readonly published: number;

  constructor(failed: FailedEntry[], published: number, attempts: number) {
    super(
      `PutEvents failed for ${failed.length} of ${failed.length + published} entries after ${attempts} attempts: ` +
        failed.map((f) => `${f.key} (${f.errorCode}: ${f.errorMessage})`).join('; '),
    );
    this.name = 'PublishError';
    this.failed = failed;
    this.published = published;
  }
}
