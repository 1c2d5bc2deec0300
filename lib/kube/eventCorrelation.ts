/**
 * Event correlation (docs/reliability.md#event-folding): which Events on one object are written at all, and
 * which are merged into one aggregate Event, following the rules of client-go's `EventCorrelator`
 * (tools/record/events_cache.go: `EventAggregator`, then `EventSourceObjectSpamFilter`). Pure: the state is a
 * plain JSON object that the caller keeps and passes back — the reconcile loop (lib/reconcile/reconcile.ts) for the
 * passes of one invocation, and from one invocation to the next as the text {@link encodeCorrelation} makes, stored
 * on the object's lease item, as client-go keeps it in the controller's memory.
 *
 * - Aggregation: Events of the same type and reason but different messages form a group. When the group holds
 *   {@link AGGREGATE_MAX_MESSAGES} distinct messages, the Event is written as the group's aggregate instead
 *   (message {@link AGGREGATE_PREFIX} + its own message), and the new message is not kept, so the group stays
 *   below the threshold and every later new message is aggregated too (client-go drops an arbitrary message from
 *   the group at that point; dropping the new one makes the outcome deterministic). A group idle for more than
 *   {@link AGGREGATE_WINDOW_MS} starts empty.
 * - Spam filter: a token bucket per Event type, {@link SPAM_BURST} tokens, refilled continuously at one token per
 *   {@link SPAM_REFILL_MS}; an Event finding less than one token is dropped. Applied after aggregation, to every
 *   Event, aggregated or not, so the group state advances even for a dropped Event, as in client-go.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { FOLD_WINDOW_MS } from './eventFolding.js';
import type { EventMemory, KubeEvent } from './types.js';

/** Distinct messages of one type and reason at which Events are aggregated (client-go's `defaultAggregateMaxEvents`). */
export const AGGREGATE_MAX_MESSAGES = 10;
/** Idle time (ms) after which a group starts empty (client-go's `defaultAggregateIntervalInSeconds`). */
export const AGGREGATE_WINDOW_MS = 600_000;
/** Message prefix of an aggregate Event (client-go's `EventAggregatorByReasonMessageFunc`). */
export const AGGREGATE_PREFIX = '(combined from similar events): ';
/** Token bucket size per Event type (client-go's `defaultSpamBurst`). */
export const SPAM_BURST = 25;
/** Time (ms) to refill one token (client-go's `defaultSpamQPS` of 1/300 per second). */
export const SPAM_REFILL_MS = 300_000;

/** Token bucket of one Event type: tokens left at `at` (ms since the epoch). */
export interface SpamBucket {
  tokens: number;
  at: number;
}

/**
 * Distinct messages of one type and reason (at most {@link AGGREGATE_MAX_MESSAGES} − 1), each as its
 * {@link messageDigest}, last seen at `last` (ms).
 */
export interface MessageGroup {
  messages: string[];
  last: number;
}

/**
 * Correlation state of one object: buckets keyed by Event type, groups keyed by `type reason`, and the Events last
 * written, by Event name, as `[count, resourceVersion, lastTimestamp ms]` (./eventFolding.ts: a repeat then patches the
 * known count without reading it; at most {@link MAX_KNOWN_EVENTS}, the newest). JSON-safe.
 */
export interface EventCorrelationState {
  spam: Record<string, SpamBucket>;
  groups: Record<string, MessageGroup>;
  known?: Record<string, [number, string, number]>;
}

/** Most Events an object's state remembers as written (the newest): each is about 300 bytes on the lease item. */
export const MAX_KNOWN_EVENTS = 8;

/**
 * What to do with an Event: `drop` it (spam filter), `record` it as it is (folded into an identical Event,
 * lib/kube/eventFolding.ts), or record `event`, the aggregate, in the group's aggregate series.
 */
export type CorrelationDecision =
  { action: 'drop' } | { action: 'record' } | { action: 'aggregate'; event: KubeEvent };

/**
 * How a group keeps a message: 16 base64url characters of its SHA-256 (96 bits), so a stored state stays small
 * whatever the messages' length (an API error's text can run to a kilobyte). Only equality is ever asked of it.
 */
export function messageDigest(message: string): string {
  return createHash('sha256').update(message).digest('base64url').slice(0, 16);
}

/** A state with no history. */
export function emptyCorrelation(): EventCorrelationState {
  return { spam: {}, groups: {} };
}

/**
 * Decide about `event` happening at `nowMs` (ms since the epoch) given `state` (not modified).
 * @returns the decision and the state to pass to the next call
 */
export function correlateEvent(
  state: EventCorrelationState,
  event: KubeEvent,
  nowMs: number,
): { decision: CorrelationDecision; state: EventCorrelationState } {
  const groupKey = `${event.type} ${event.reason}`;
  const previous = state.groups[groupKey];
  const fresh = !previous || nowMs - previous.last > AGGREGATE_WINDOW_MS;
  const messages = fresh ? [] : previous.messages;
  const digest = messageDigest(event.message);
  const known = messages.includes(digest);
  const aggregate = !known && messages.length + 1 >= AGGREGATE_MAX_MESSAGES;
  const group: MessageGroup = {
    messages: known || aggregate ? [...messages] : [...messages, digest],
    last: nowMs,
  };

  const bucket = state.spam[event.type];
  const refilled = bucket ? tokensAt(bucket, nowMs) : SPAM_BURST;
  const allowed = refilled >= 1;
  const next: EventCorrelationState = {
    ...state,
    spam: { ...state.spam, [event.type]: { tokens: allowed ? refilled - 1 : refilled, at: nowMs } },
    groups: { ...state.groups, [groupKey]: group },
  };

  if (!allowed) return { decision: { action: 'drop' }, state: next };
  if (!aggregate) return { decision: { action: 'record' }, state: next };
  return {
    decision: { action: 'aggregate', event: { ...event, message: `${AGGREGATE_PREFIX}${event.message}` } },
    state: next,
  };
}

/** A bucket's tokens at `nowMs` (ms since the epoch), refilled since it was last used; at most {@link SPAM_BURST}. */
function tokensAt(bucket: SpamBucket, nowMs: number): number {
  return Math.min(SPAM_BURST, bucket.tokens + Math.max(0, nowMs - bucket.at) / SPAM_REFILL_MS);
}

/**
 * What of `state` can still change a decision at `nowMs` (ms since the epoch): the groups seen within
 * {@link AGGREGATE_WINDOW_MS} (an older one starts empty anyway) and the buckets not yet full again (a full one
 * decides as no bucket). Not modified: a new state.
 */
export function liveCorrelation(state: EventCorrelationState, nowMs: number): EventCorrelationState {
  const groups = Object.entries(state.groups).filter(([, g]) => nowMs - g.last <= AGGREGATE_WINDOW_MS);
  const spam = Object.entries(state.spam).filter(([, b]) => tokensAt(b, nowMs) < SPAM_BURST);
  const known = Object.entries(state.known ?? {})
    .filter(([, [, , lastMs]]) => nowMs - lastMs <= FOLD_WINDOW_MS)
    .sort(([, a], [, b]) => b[2] - a[2])
    .slice(0, MAX_KNOWN_EVENTS);
  return {
    spam: Object.fromEntries(spam),
    groups: Object.fromEntries(groups),
    ...(known.length > 0 ? { known: Object.fromEntries(known) } : {}),
  };
}

/**
 * The {@link EventMemory} of `holder`'s state (./eventFolding.ts): reads and writes its `known` Events, replacing the
 * state as {@link correlateEvent} does, so the text {@link encodeCorrelation} makes carries them to the next invocation.
 */
export function correlationMemory(holder: { state: EventCorrelationState }): EventMemory {
  return {
    get(name) {
      const entry = holder.state.known?.[name];
      return entry && { count: entry[0], resourceVersion: entry[1], lastMs: entry[2] };
    },
    set(name, { count, resourceVersion, lastMs }) {
      holder.state = {
        ...holder.state,
        known: { ...holder.state.known, [name]: [count, resourceVersion, lastMs] },
      };
    },
    delete(name) {
      if (holder.state.known?.[name] === undefined) return;
      const { [name]: _gone, ...rest } = holder.state.known;
      holder.state = { ...holder.state, known: rest };
    },
  };
}

/**
 * The text to store for the next invocation: the JSON of `state`'s {@link liveCorrelation} at `nowMs`, or null when
 * nothing of it is live (the caller then stores nothing). Its size is bounded: per Event type a bucket, per type and
 * reason at most {@link AGGREGATE_MAX_MESSAGES} − 1 digests of 16 characters.
 */
export function encodeCorrelation(state: EventCorrelationState, nowMs: number): string | null {
  const live = liveCorrelation(state, nowMs);
  if (
    Object.keys(live.spam).length === 0 &&
    Object.keys(live.groups).length === 0 &&
    live.known === undefined
  )
    return null;
  return JSON.stringify(live);
}

const StoredCorrelation = z.object({
  spam: z.record(z.string(), z.object({ tokens: z.number().min(0), at: z.number() })),
  groups: z.record(
    z.string(),
    z.object({ messages: z.array(z.string()).max(AGGREGATE_MAX_MESSAGES - 1), last: z.number() }),
  ),
  known: z
    .record(z.string(), z.tuple([z.int().min(1), z.string().min(1), z.number()]))
    .refine((k) => Object.keys(k).length <= MAX_KNOWN_EVENTS, `at most ${MAX_KNOWN_EVENTS} known Events`)
    .optional(),
});

/**
 * The state stored as {@link encodeCorrelation}'s text.
 * @throws Error when `text` is not JSON or not of that shape (a hand-edited or foreign item): the caller starts
 *   from {@link emptyCorrelation} instead, which only aggregates and filters less, as after a controller restart
 */
export function decodeCorrelation(text: string): EventCorrelationState {
  const parsed = StoredCorrelation.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`stored Event correlation state: ${parsed.error.message}`);
  return parsed.data;
}
