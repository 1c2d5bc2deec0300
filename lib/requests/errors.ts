/**
 * Typed errors of the event layer (callers branch on the class, never on message text).
 */

import { FieldErrorsError, KruiselessError, type FieldError } from '../core/errors.js';

/**
 * A reconcile-request event is malformed, names a kind the deployment does not reconcile, or has a namespace
 * that does not fit its kind's scope (docs/architecture.md#reconcile-request: anything else is rejected with a
 * clear error and goes to the dead-letter queue). The message names every offending field on one line.
 */
export class InvalidEventError extends FieldErrorsError {
  constructor(errors: FieldError[]) {
    super('invalid reconcile event', errors, 'unknown validation error');
    this.name = 'InvalidEventError';
  }
}

/** One entry that PutEvents still refused after the publisher's last attempt. */
export interface FailedEntry {
  /** The object key the entry named, as lib/core/objectKey.ts `objectKeyText` renders it. */
  key: string;
  /** EventBridge's `ErrorCode`, or the SDK error's name when the whole call failed. */
  errorCode: string;
  /** EventBridge's `ErrorMessage`, or the SDK error's message. */
  errorMessage: string;
}

/**
 * Some reconcile requests could not be put on the bus after every attempt (PutEvents is
 * not all-or-nothing). The others were published; `published` says how many.
 */
export class PublishError extends KruiselessError {
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
