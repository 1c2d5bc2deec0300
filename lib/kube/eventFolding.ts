/**
 * Event folding (docs/reliability.md#event-folding): a repeat of an Event already recorded on an object — same
 * involved object, type, reason, message and source — increments the stored Event's `count` and moves its
 * `lastTimestamp`, instead of creating another object, as client-go's `EventCorrelator` (its `eventObserve`) and
 * `recordToSink` do. client-go remembers the Events it wrote in memory; a stateless reconciler keeps what it can on
 * the object's lease item (an {@link EventMemory}, the caller's), and for the rest the name is derived from those
 * fields ({@link eventName}) and a create that meets AlreadyExists becomes the count increment: read, then a merge
 * PATCH conditioned on the read resourceVersion, retried on conflict.
 */
import type { JsonObject } from '../api/types.js';
import { metaTime } from '../api/time.js';
import { isAlreadyExists, isConflict, isNotFound, KubeApiError } from './errors.js';
import { aggregateEventName, eventBody, eventName, eventNamespace, type CoreEvent } from './event.js';
import type { KubeObject, Resource } from './resource.js';
import type { EventMemory, KubeEvent } from './types.js';

/** The object an Event is about, and its resource (for the involvedObject's kind and apiVersion). */
export interface InvolvedObject {
  resource: Resource;
  object: KubeObject;
}

/** The three Event calls folding makes, in one namespace of one cluster. */
export interface EventApi {
  /**
   * POST an Event.
   * @returns the stored Event (its resourceVersion feeds an {@link EventMemory}), or nothing
   * @throws KubeApiError (409 AlreadyExists when the name is taken)
   */
  createEvent(namespace: string, body: JsonObject): Promise<CoreEvent | void>;
  /**
   * GET an Event.
   * @returns undefined when it does not exist
   * @throws KubeApiError
   */
  getEvent(namespace: string, name: string): Promise<CoreEvent | undefined>;
  /**
   * Merge PATCH of an Event; `patch.metadata.resourceVersion` is the precondition.
   * @returns the stored Event, or nothing
   * @throws KubeApiError (409 Conflict when the Event changed since it was read, 404 when it is gone)
   */
  patchEvent(namespace: string, name: string, patch: JsonObject): Promise<CoreEvent | void>;
}

/** A repeat within this many ms of the stored `lastTimestamp` is counted; a later one starts the series anew. */
export const FOLD_WINDOW_MS = 10 * 60 * 1000;

/** Reads and patches per Event at most when other writers keep changing it (409 Conflict). */
export const FOLD_ATTEMPTS = 5;

/** What {@link recordFolded} did. */
export type FoldResult = 'created' | 'counted' | 'restarted';

/**
 * Whether `stored` is the Event `body` created (count 1, the message, both timestamps and the involved object's
 * resourceVersion as in `body`; an aggregate's message changes with every aggregated Event): a POST that the API server applied but whose answer was lost is retried by the client and meets
 * AlreadyExists for our own Event, which must not be counted twice (client-go's `recordToSink` does not count an
 * AlreadyExists either). Asked only after such a retried attempt's AlreadyExists: a first attempt's is another
 * write's, e.g. the same Event recorded twice by one pass in one second (a WorkloadSpread's `RecoverSchedulable` for
 * its overall and its versioned status), and is counted. A genuine repeat that meets a retried POST's AlreadyExists
 * within the same second cannot be told apart and is not counted.
 */
export function isOwnCreate(stored: CoreEvent, body: JsonObject): boolean {
  const involved = (o: unknown): unknown => (o as { resourceVersion?: unknown } | undefined)?.resourceVersion;
  return (
    (stored.count ?? 1) === 1 &&
    stored.message === body.message &&
    stored.firstTimestamp === body.firstTimestamp &&
    stored.lastTimestamp === body.lastTimestamp &&
    involved(stored.involvedObject) === involved(body.involvedObject)
  );
}

/** Whether `e` ended a retried attempt of its request (./request.ts `KubeApiError.attempt`). */
function retried(e: unknown): boolean {
  return e instanceof KubeApiError && (e.attempt ?? 1) > 1;
}

/**
 * Whether `stored` already carries `patch` (the `count`, `lastTimestamp`, and `message` when set, of a
 * {@link foldPatch}): a PATCH that the API server applied but whose answer was lost, or answered with a 5xx after
 * the write (an overloaded server's 504), is retried by the client (lib/kube/request.ts) and meets 409 Conflict on
 * the resourceVersion its own write moved; counting it again would count one repeat twice. Asked only after such a
 * retried attempt's 409 (a first attempt's 409 is another writer's, and is counted on top); another writer's fold
 * to the same count in the same second in between cannot be told apart then and is not counted.
 */
export function isOwnPatch(stored: CoreEvent, patch: JsonObject): boolean {
  return (
    (stored.count ?? 1) === patch.count &&
    stored.lastTimestamp === patch.lastTimestamp &&
    (patch.message === undefined || stored.message === patch.message)
  );
}

/**
 * The patch for a repeat at `now` of `stored`: `count + 1` and `lastTimestamp = now` within
 * {@link FOLD_WINDOW_MS} of its `lastTimestamp`, else a new series on the same object (`count` 1, first and last
 * timestamp `now`): a count that spanned a long quiet gap would overstate the rate. Conditioned on the stored
 * resourceVersion. With `message`, the patch also sets the message (an aggregate series, whose message is the
 * latest aggregated one).
 */
export function foldPatch(
  stored: CoreEvent,
  now: Date,
  message?: string,
): { patch: JsonObject; result: FoldResult } {
  const at = metaTime(now);
  const last = Date.parse(stored.lastTimestamp ?? '');
  const within = Number.isFinite(last) && now.getTime() - last <= FOLD_WINDOW_MS;
  const metadata = { resourceVersion: stored.metadata.resourceVersion ?? '' };
  const text: JsonObject = message === undefined ? {} : { message };
  return within
    ? { patch: { metadata, count: (stored.count ?? 1) + 1, lastTimestamp: at, ...text }, result: 'counted' }
    : { patch: { metadata, count: 1, firstTimestamp: at, lastTimestamp: at, ...text }, result: 'restarted' };
}

/**
 * Note in `memory` what a write answered: the count and time sent, the answer's resourceVersion; an answer without
 * one (a client that returns nothing) forgets the Event, so its next repeat is read first.
 */
function remember(
  memory: EventMemory | undefined,
  name: string,
  answer: CoreEvent | void,
  count: number,
  now: Date,
): void {
  if (memory === undefined) return;
  const resourceVersion = answer ? answer.metadata.resourceVersion : undefined;
  if (resourceVersion) memory.set(name, { count, resourceVersion, lastMs: now.getTime() });
  else memory.delete(name);
}

/**
 * Record `event` on `involved.object` at `now`: create its Event, or fold it into the one already stored under the same
 * name ({@link foldPatch}). Writes: one POST for a new Event; for a repeat, the POST (AlreadyExists), then one GET
 * and one PATCH per attempt; an AlreadyExists for the Event this call's own POST created (its answer lost and the
 * request retried) is no repeat ({@link isOwnCreate}), nor is a 409 Conflict on this call's own applied PATCH
 * ({@link isOwnPatch}). An Event deleted between the read and the write is created again. With `aggregate`,
 * `event` is an aggregate (./eventCorrelation.ts): it goes to the series' one object ({@link aggregateEventName})
 * and a fold also replaces the stored message with its own.
 * With `memory` (what this recorder wrote before, kept by the caller), a repeat of an Event it wrote within
 * {@link FOLD_WINDOW_MS} is one PATCH of the known count on the known resourceVersion, as client-go's `recordToSink`
 * patches from its cache; when that PATCH meets 409 Conflict (another writer counted meanwhile) or 404 (the Event
 * is gone), the Event is read as above. Every write's answer is noted in `memory`.
 * @returns what was written
 * @throws KubeApiError for any other API error, and the last 409 after {@link FOLD_ATTEMPTS} attempts
 */
export async function recordFolded(
  api: EventApi,
  involved: InvolvedObject,
  event: KubeEvent,
  now: Date,
  aggregate = false,
  memory?: EventMemory,
): Promise<FoldResult> {
  const { resource, object } = involved;
  const namespace = eventNamespace(object);
  const name = aggregate ? aggregateEventName(resource, object, event) : eventName(resource, object, event);
  let lastConflict: unknown;
  /** The fold this call last sent and that met 409 Conflict: perhaps its own retried write. */
  let sent: { patch: JsonObject; result: FoldResult } | undefined;
  /** The last POST met AlreadyExists on a retried attempt: the Event found may be that POST's own. */
  let createRetried = false;
  /** The first attempt: 0 creates; 1 reads first (after a PATCH from memory that missed). */
  let first = 0;
  const known = memory?.get(name);
  if (known !== undefined && now.getTime() - known.lastMs <= FOLD_WINDOW_MS) {
    const patch: JsonObject = {
      metadata: { resourceVersion: known.resourceVersion },
      count: known.count + 1,
      lastTimestamp: metaTime(now),
      ...(aggregate ? { message: event.message } : {}),
    };
    try {
      remember(memory, name, await api.patchEvent(namespace, name, patch), known.count + 1, now);
      return 'counted';
    } catch (e) {
      memory?.delete(name);
      if (!isConflict(e) && !isNotFound(e)) throw e;
      if (isConflict(e) && retried(e)) sent = { patch, result: 'counted' };
      lastConflict = e;
      first = 1;
    }
  }
  const body = eventBody(resource, object, event, now, name);
  for (let attempt = first; attempt < FOLD_ATTEMPTS + first; attempt++) {
    const stored = attempt === 0 ? undefined : await api.getEvent(namespace, name);
    // the client retries a POST whose answer was lost (lib/kube/request.ts): its AlreadyExists is our own create
    if (attempt === 1 && stored && createRetried && isOwnCreate(stored, body)) return 'created';
    // and a PATCH the same way: its Conflict may be on our own applied write
    if (sent && stored && isOwnPatch(stored, sent.patch)) return sent.result;
    sent = undefined;
    if (!stored) {
      try {
        remember(memory, name, await api.createEvent(namespace, body), 1, now);
        return 'created';
      } catch (e) {
        if (!isAlreadyExists(e)) throw e;
        // a first attempt's AlreadyExists is another write's (e.g. the same Event twice in one pass): counted
        createRetried = retried(e);
        lastConflict = e;
        continue;
      }
    }
    const { patch, result } = foldPatch(stored, now, aggregate ? event.message : undefined);
    try {
      remember(memory, name, await api.patchEvent(namespace, name, patch), patch.count as number, now);
      return result;
    } catch (e) {
      // changed since read: read again; deleted since read (404): the next attempt creates it again
      if (!isConflict(e) && !isNotFound(e)) throw e;
      // only a retried attempt's 409 can be on our own write; a first attempt's is another writer's (count again)
      if (isConflict(e) && retried(e)) sent = { patch, result };
      lastConflict = e;
    }
  }
  throw lastConflict;
}
