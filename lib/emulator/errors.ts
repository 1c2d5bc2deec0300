/**
 * Typed errors of the emulator (callers branch on the class, never on message text).
 */
import { FieldErrorsError, KruiselessError, type FieldError } from '../core/errors.js';

/**
 * An EventBridge event pattern uses an operator or a shape EventBridge would reject at PutRule time
 * (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-event-patterns-content-based-filtering.html).
 */
export class InvalidPatternError extends KruiselessError {
  /** Path inside the pattern, e.g. `detail.reason[0]`. */
  readonly path: string;
  /** What is wrong there, without the path. */
  readonly reason: string;

  constructor(path: string, reason: string) {
    super(`invalid event pattern at ${path || '(root)'}: ${reason}`);
    this.name = 'InvalidPatternError';
    this.path = path;
    this.reason = reason;
  }
}

/** `serverless.yml` does not have the shape osls gives `functions.<fn>.events[].eventBridge`. */
export class InvalidServerlessConfigError extends FieldErrorsError {
  constructor(errors: FieldError[]) {
    super('invalid serverless.yml', errors);
    this.name = 'InvalidServerlessConfigError';
  }
}
