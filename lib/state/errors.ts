/**
 * Typed errors of the DynamoDB state layer (docs/architecture.md#lib-state; callers branch on the class,
 * never on message text).
 */
import { FieldErrorsError, KruiselessError, type FieldError } from '../core/errors.js';

/**
 * A write was rejected because a newer lease holder exists (docs/architecture.md#lease: every write of a holder is
 * conditioned on its token). The caller must stop reconciling at once and write nothing else; a
 * successor owns the key.
 */
export class FencedOutError extends KruiselessError {
  /** The operation that was fenced, e.g. `lease.renew` or `expectations.put`. */
  readonly operation: string;
  /** The item's key as `<pk>/<sk>`, e.g. `obj#prod#apps.kruise.io/CloneSet#default#web/lease`. */
  readonly key: string;
  /** The fencing token the rejected writer presented. */
  readonly token: number;

  constructor(operation: string, key: string, token: number, detail?: string) {
    super(
      `${operation} on ${key} was fenced out: token ${token} is no longer current${detail ? ` (${detail})` : ''}`,
    );
    this.name = 'FencedOutError';
    this.operation = operation;
    this.key = key;
    this.token = token;
  }
}

/**
 * DynamoDB (or the SDK) failed for a reason other than a condition check: missing table, throttling after the
 * SDK's retries, network, access denied, or a stored item whose shape this code cannot read. `cause` holds the
 * original error. Callers usually let it fail the invocation so that Lambda retries.
 */
export class StateStoreError extends KruiselessError {
  /** The operation that failed, e.g. `lease.acquire (UpdateItem)`. */
  readonly operation: string;
  /** The item's key as `<pk>/<sk>`, or the table name for table-wide operations. */
  readonly key: string;

  constructor(operation: string, key: string, cause: unknown, detail?: string) {
    const why = detail ?? (cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause));
    super(`DynamoDB ${operation} on ${key} failed: ${why}`, { cause });
    this.name = 'StateStoreError';
    this.operation = operation;
    this.key = key;
  }
}

/**
 * A state key cannot be built or parsed (key layout `obj#<cluster>#<group>/<Kind>#<ns>#<name>`): a part is empty or
 * contains the separator `#`, or a string does not have the layout.
 */
export class InvalidStateKeyError extends KruiselessError {
  /** The offending input (a key string or a rendered key object). */
  readonly input: string;

  constructor(input: string, reason: string) {
    super(`invalid state key ${JSON.stringify(input)}: ${reason}`);
    this.name = 'InvalidStateKeyError';
    this.input = input;
  }
}

/**
 * A cluster registry record (docs/architecture.md#cluster-registry) failed validation, on write or when read
 * back. `issues` lists every problem found.
 */
export class InvalidClusterRecordError extends FieldErrorsError {
  constructor(errors: FieldError[]) {
    super('invalid cluster record', errors);
    this.name = 'InvalidClusterRecordError';
  }
}
