/**
 * The in-process event bus of the embedded default and the tests (docs/architecture.md#embedded-default): rules route by
 * the same event patterns as the deployed rules ({@link loadRulesFromServerless}), delivery is asynchronous,
 * failed deliveries are retried and then dead-lettered.
 */
import { randomUUID } from 'node:crypto';
import type {
  PutEventsRequestEntry,
  PutEventsResponse,
  PutEventsResultEntry,
} from '@aws-sdk/client-eventbridge';
import { compilePattern, type EventMatcher, type EventPattern, type JsonValue } from './pattern.js';
import { createPutEventsPublisher, type EventPublisher, type PublishResult } from '../requests/publisher.js';
import type { ReconcileRequest } from '../requests/schema.js';
import { systemClock, type Clock } from '../core/clock.js';

/** An event as EventBridge delivers it to a rule target (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-events-structure.html). */
export interface EventBridgeEnvelope {
  version: '0';
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  /** RFC 3339, second precision, UTC. */
  time: string;
  region: string;
  resources: string[];
  detail: { [key: string]: JsonValue };
}

/** Delivery retries of one rule's target (EventBridge `RetryPolicy`, osls `eventBridge.retryPolicy`). */
export interface RetryPolicy {
  /** Retries after the first failed delivery, 0–185. */
  maximumRetryAttempts: number;
}

/** One rule of the bus. */
export interface BusRule {
  name: string;
  eventPattern: EventPattern;
  /** Delivery; a rejection is a failed delivery. */
  target: (event: EventBridgeEnvelope) => Promise<void>;
  /** Overrides the bus's default retry policy. */
  retryPolicy?: RetryPolicy;
}

/** Receives an event whose delivery failed `maximumRetryAttempts + 1` times (the DLQ path). */
export type DeadLetterHandler = (event: EventBridgeEnvelope, error: unknown, ruleName: string) => void;

/** A dead-lettered delivery, as {@link LocalBus.deadLetters} keeps it. */
export interface DeadLetter {
  event: EventBridgeEnvelope;
  error: unknown;
  ruleName: string;
}

/** Options of {@link LocalBus}. */
export interface LocalBusOptions {
  /** Bus name; entries naming another bus are refused. Default `kruiseless`. */
  name?: string;
  rules: BusRule[];
  /**
   * Retry policy of rules without their own. Default `{ maximumRetryAttempts: 2 }`: EventBridge hands events to
   * Lambda asynchronously, and Lambda retries a failed async invocation twice (https://docs.aws.amazon.com/lambda/latest/dg/invocation-async.html).
   */
  retryPolicy?: RetryPolicy;
  /** Called for each dead-lettered delivery, after it is recorded in {@link LocalBus.deadLetters}. */
  onDeadLetter?: DeadLetterHandler;
  account?: string;
  region?: string;
  /** Clock for envelope `time`. Default the system clock. */
  clock?: Clock;
}

/** Error code of an entry naming another bus, as EventBridge reports an unknown bus. */
const UNKNOWN_BUS = 'ResourceNotFoundException';

/**
 * An in-process EventBridge bus. `put` accepts PutEvents entries and routes each to every rule whose pattern
 * matches; targets run asynchronously; {@link LocalBus.drain} waits until no delivery (including ones caused by
 * deliveries) is in flight. Also an {@link EventPublisher}, so the forwarder's code runs against it unchanged.
 * @throws InvalidPatternError at construction when a rule's pattern is invalid
 */
export class LocalBus implements EventPublisher {
  /** Every dead-lettered delivery, oldest first. */
  readonly deadLetters: DeadLetter[] = [];
  readonly name: string;
  private readonly rules: Array<BusRule & { matches: EventMatcher }>;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly publisher: EventPublisher;

  constructor(private readonly options: LocalBusOptions) {
    this.name = options.name ?? 'kruiseless';
    this.rules = options.rules.map((rule) => ({ ...rule, matches: compilePattern(rule.eventPattern) }));
    this.publisher = createPutEventsPublisher((entries) => this.put(entries), this.name, { maxAttempts: 1 });
  }

  /** {@link EventPublisher.publish} through {@link LocalBus.put}; one "call" per 10 entries, never retried. */
  publish(requests: ReconcileRequest[]): Promise<PublishResult> {
    return this.publisher.publish(requests);
  }

  /**
   * PutEvents: per entry either an `EventId` or an `ErrorCode` (`MalformedDetail` when `Detail` is not a JSON
   * object, `ResourceNotFoundException` for another bus, `InvalidArgument` for a missing Source/DetailType).
   * Returns before any target runs.
   */
  async put(entries: PutEventsRequestEntry[]): Promise<PutEventsResponse> {
    const results = entries.map((entry) => this.accept(entry));
    return { FailedEntryCount: results.filter((r) => r.ErrorCode !== undefined).length, Entries: results };
  }

  /** Resolves when no delivery is in flight, including deliveries started while waiting. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private accept(entry: PutEventsRequestEntry): PutEventsResultEntry {
    const bus = entry.EventBusName;
    if (bus !== undefined && bus !== this.name && !bus.endsWith(`:event-bus/${this.name}`)) {
      return { ErrorCode: UNKNOWN_BUS, ErrorMessage: `Event bus ${bus} does not exist.` };
    }
    if (!entry.Source || !entry.DetailType) {
      return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Source and DetailType are required.' };
    }
    let detail: unknown;
    try {
      detail = JSON.parse(entry.Detail ?? '');
    } catch {
      detail = undefined;
    }
    if (typeof detail !== 'object' || detail === null || Array.isArray(detail)) {
      return { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' };
    }
    const event: EventBridgeEnvelope = {
      version: '0',
      id: randomUUID(),
      'detail-type': entry.DetailType,
      source: entry.Source,
      account: this.options.account ?? '000000000000',
      time: (entry.Time ?? new Date((this.options.clock ?? systemClock)()))
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
      region: this.options.region ?? 'us-east-1',
      resources: entry.Resources ?? [],
      detail: detail as EventBridgeEnvelope['detail'],
    };
    for (const rule of this.rules) if (rule.matches(event)) this.track(this.deliver(rule, event));
    return { EventId: event.id };
  }

  private track(delivery: Promise<void>): void {
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  private async deliver(rule: BusRule, event: EventBridgeEnvelope): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve)); // targets run after put() has returned
    const { maximumRetryAttempts } = rule.retryPolicy ??
      this.options.retryPolicy ?? { maximumRetryAttempts: 2 };
    let lastError: unknown;
    for (let attempt = 0; attempt <= maximumRetryAttempts; attempt++) {
      try {
        await rule.target(structuredClone(event));
        return;
      } catch (error) {
        lastError = error;
      }
    }
    this.deadLetters.push({ event, error: lastError, ruleName: rule.name });
    try {
      this.options.onDeadLetter?.(event, lastError, rule.name);
    } catch {
      // A failing dead-letter handler must not turn into an unhandled rejection; the letter is recorded above.
    }
  }
}
