/**
 * Putting reconcile requests on the bus (docs/architecture.md#lib-requests: ≤ 10 entries per PutEvents, partial
 * failures reported per entry and resent).
 */
import {
  PutEventsCommand,
  type EventBridgeClient,
  type PutEventsRequestEntry,
  type PutEventsResponse,
} from '@aws-sdk/client-eventbridge';
import { objectKeyText } from '../core/objectKey.js';
import { coalesce } from './coalesce.js';
import { PublishError, type FailedEntry } from './errors.js';
import { canonicalRequest, DETAIL_TYPE, SOURCE, type ReconcileRequest } from './schema.js';
import { exponentialDelay } from '../core/backoff.js';
import { runBounded } from '../core/bounded.js';
import { chunks } from '../core/chunks.js';

/** What one {@link EventPublisher.publish} did. */
export interface PublishResult {
  /** Entries accepted by the bus (after coalescing). */
  published: number;
  /** PutEvents calls made, first attempts and resends together. */
  calls: number;
  /** Entry resends (an entry resent twice counts twice). */
  retried: number;
}

/** Puts reconcile requests on the event bus. */
export interface EventPublisher {
  /**
   * Coalesces `requests` ({@link coalesce}) and puts one event per object key.
   * @throws PublishError when some entries still fail after every attempt (the others are published)
   */
  publish(requests: ReconcileRequest[]): Promise<PublishResult>;
}

/** The PutEvents operation, reduced to what the publisher needs (real client or {@link LocalBus}). */
export type PutEventsFn = (entries: PutEventsRequestEntry[]) => Promise<PutEventsResponse>;

/** Retry knobs of {@link createPutEventsPublisher}. */
export interface PublishRetryOptions {
  /** Attempts per entry, the first included; ≥ 1. Default 4. */
  maxAttempts?: number;
  /** Backoff cap before the first resend, in ms; doubles per attempt. Default 100. */
  baseDelayMs?: number;
  /** Largest backoff cap, in ms. Default 5000. */
  maxDelayMs?: number;
  /** Waits `ms` milliseconds. Default: a `setTimeout` promise. */
  sleep?: (ms: number) => Promise<void>;
  /** Uniform in [0, 1). Default `Math.random`. */
  random?: () => number;
  /**
   * PutEvents calls in flight at once within one publish, ≥ 1; default 1 (one after the other, in request order).
   * The AWS runtime uses {@link PUBLISH_CONCURRENCY}.
   */
  concurrency?: number;
}

/**
 * PutEvents calls the AWS runtime keeps in flight within one publish: a resync of 5,000 objects is 500 calls, about
 * 15 s one after the other at EventBridge's tens of ms per call, a quarter of that 4 at a time (review finding 9);
 * a fleet's resync (8 clusters at once, lib/runtime/handlers/resync.ts) then makes at most 32 calls at a time, far
 * below the PutEvents quota of every region (hundreds to thousands per second).
 */
export const PUBLISH_CONCURRENCY = 4;

/** Options of {@link createEventBridgePublisher}. */
export interface EventBridgePublisherOptions extends PublishRetryOptions {
  client: EventBridgeClient;
  /** Bus name or ARN, e.g. `kruiseless`. */
  eventBusName: string;
}

/** Most entries one PutEvents call accepts (https://docs.aws.amazon.com/eventbridge/latest/APIReference/API_PutEvents.html). */
export const MAX_ENTRIES_PER_CALL = 10;

/**
 * The PutEvents entry for one request: `Source` {@link SOURCE}, `DetailType` {@link DETAIL_TYPE}, `Detail` the
 * request as JSON with a fixed key order (`resourceVersion` and `correlationIds` omitted when absent).
 */
export function toPutEventsEntry(request: ReconcileRequest, eventBusName: string): PutEventsRequestEntry {
  const detail = canonicalRequest(request);
  return {
    EventBusName: eventBusName,
    Source: SOURCE,
    DetailType: DETAIL_TYPE,
    Detail: JSON.stringify(detail),
  };
}

/**
 * Backoff before resend number `attempt` (1 = the first resend): "full jitter", uniform in
 * [0, min(maxDelayMs, baseDelayMs · 2^(attempt-1))) (lib/core/backoff.ts `exponentialDelay`), in whole ms.
 */
export function backoffDelayMs(
  attempt: number,
  baseDelayMs: number,
  maxDelayMs: number,
  random: number,
): number {
  return Math.floor(random * exponentialDelay(attempt, baseDelayMs, maxDelayMs));
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Pending {
  request: ReconcileRequest;
  entry: PutEventsRequestEntry;
  failure?: FailedEntry;
}

/** Sends one chunk; returns the entries that failed, each with its failure recorded. */
async function sendChunk(putEvents: PutEventsFn, chunk: Pending[]): Promise<Pending[]> {
  let response: PutEventsResponse;
  try {
    response = await putEvents(chunk.map((p) => p.entry));
  } catch (error) {
    // The SDK has already retried what it considers retryable; treat the call as failing every entry.
    const e = error instanceof Error ? error : new Error(String(error));
    return chunk.map((p) => ({
      ...p,
      failure: { key: objectKeyText(p.request), errorCode: e.name, errorMessage: e.message },
    }));
  }
  if ((response.FailedEntryCount ?? 0) === 0) return [];
  return chunk.flatMap((p, i) => {
    const result = response.Entries?.[i];
    if (result?.EventId !== undefined && result.ErrorCode === undefined) return [];
    const failure = {
      key: objectKeyText(p.request),
      errorCode: result?.ErrorCode ?? 'MissingEntryResult',
      errorMessage: result?.ErrorMessage ?? 'no result for this entry in the PutEvents response',
    };
    return [{ ...p, failure }];
  });
}

/**
 * An {@link EventPublisher} over any PutEvents implementation: coalesce, send in chunks of
 * {@link MAX_ENTRIES_PER_CALL} (`concurrency` calls at a time, started in request order), resend only the failed entries after a jittered exponential backoff
 * ({@link backoffDelayMs}), up to `maxAttempts` per entry. A call that throws counts as every entry failing.
 * @throws RangeError if `maxAttempts` or `concurrency` < 1 (at construction)
 */
export function createPutEventsPublisher(
  putEvents: PutEventsFn,
  eventBusName: string,
  options: PublishRetryOptions = {},
): EventPublisher {
  const {
    maxAttempts = 4,
    baseDelayMs = 100,
    maxDelayMs = 5000,
    sleep = defaultSleep,
    random = Math.random,
    concurrency = 1,
  } = options;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new RangeError(`maxAttempts must be ≥ 1, got ${maxAttempts}`);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new RangeError(`concurrency must be ≥ 1, got ${concurrency}`);
  return {
    async publish(requests) {
      const all = coalesce(requests);
      let pending: Pending[] = all.map((request) => ({
        request,
        entry: toPutEventsEntry(request, eventBusName),
      }));
      let calls = 0;
      let retried = 0;
      for (let attempt = 1; pending.length > 0; attempt++) {
        if (attempt > 1) {
          await sleep(backoffDelayMs(attempt - 1, baseDelayMs, maxDelayMs, random()));
          retried += pending.length;
        }
        const sent = await runBounded(
          chunks(pending, MAX_ENTRIES_PER_CALL),
          concurrency,
          (chunk) => {
            calls++;
            return sendChunk(putEvents, chunk);
          },
          false,
        );
        // sendChunk never rejects (a failing call fails its entries); the chunks' failures in chunk order
        const failed = sent.flatMap((o) => (o.status === 'fulfilled' ? o.value : []));
        if (failed.length > 0 && attempt >= maxAttempts) {
          const failures = failed.map((p) => p.failure as FailedEntry);
          throw new PublishError(failures, all.length - failures.length, attempt);
        }
        pending = failed;
      }
      return { published: all.length, calls, retried };
    },
  };
}

/**
 * The production {@link EventPublisher}: PutEvents on `eventBusName` through `client`.
 * Client-level retries (throttling, 5xx) stay the SDK's; this adds per-entry resends.
 */
export function createEventBridgePublisher(options: EventBridgePublisherOptions): EventPublisher {
  const { client, eventBusName, ...retry } = options;
  return createPutEventsPublisher(
    (entries) => client.send(new PutEventsCommand({ Entries: entries })),
    eventBusName,
    retry,
  );
}
