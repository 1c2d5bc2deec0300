/**
 * The core/v1 Event Kruiseless writes on a CloneSet (docs/architecture.md#write-order, docs/behaviour/cloneset.md#events), in the shape client-go's
 * legacy event recorder produces: involvedObject pointing at the CloneSet, source/reportingComponent
 * `kruiseless`, first/last timestamp, count 1 — named deterministically so that repeats fold into it
 * (./eventFolding.ts, docs/reliability.md#event-folding).
 */
import { createHash } from 'node:crypto';
import { KIND, OWNER_API_VERSION } from '../api/keys.js';
import type { CloneSet, JsonObject } from '../api/types.js';
import { metaTime } from '../api/time.js';
import type { CloneSetEvent } from './types.js';

/** `source.component` and `reportingComponent` of every Event Kruiseless writes. */
export const EVENT_COMPONENT = 'kruiseless';

/** Longest object name the API server accepts for an Event (a DNS subdomain). */
const MAX_NAME = 253;
/** Hex digits of the digest in an Event name. */
const DIGEST_HEX = 16;

/**
 * The name of the Event object for `event` on `cloneSet`: `<cloneset name>.<16 hex>`, the hex being the first 64
 * bits of SHA-256 over the CloneSet's uid, the Event's type, reason and message, and {@link EVENT_COMPONENT} — the
 * fields client-go's EventCorrelator compares to decide that two Events are the same (its `getEventKey`). The same
 * inputs always give the same name, so a stateless recorder finds the Event it wrote before. The CloneSet name is
 * shortened when the whole would exceed 253 characters.
 */
export function cloneSetEventName(cloneSet: CloneSet, event: CloneSetEvent): string {
  return digestName(cloneSet, [event.type, event.reason, event.message, EVENT_COMPONENT]);
}

/**
 * The name of the aggregate Event of `event`'s type and reason on `cloneSet` (./eventCorrelation.ts): like
 * {@link cloneSetEventName} but without the message, which changes with every aggregated Event, so all of them
 * fold into one object (client-go keeps the aggregate's name in memory instead).
 */
export function aggregateEventName(cloneSet: CloneSet, event: CloneSetEvent): string {
  return digestName(cloneSet, [event.type, event.reason, EVENT_COMPONENT, 'aggregate']);
}

/** `<cloneset name>.<first 64 bits of SHA-256 over the uid and `fields`>`, at most 253 characters. */
function digestName(cloneSet: CloneSet, fields: string[]): string {
  const digest = createHash('sha256')
    .update([cloneSet.metadata.uid ?? '', ...fields].join('\0'))
    .digest('hex')
    .slice(0, DIGEST_HEX);
  const prefix = (cloneSet.metadata.name ?? 'cloneset').slice(0, MAX_NAME - DIGEST_HEX - 1);
  return `${prefix}.${digest}`;
}

/** The fields of a stored Event that folding reads (the API server's JSON). */
export interface StoredEvent {
  metadata: { name?: string; resourceVersion?: string };
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
}

/**
 * Builds the body of a new Event (count 1), named `name` (default {@link cloneSetEventName}).
 * @param cloneSet the involved object; name, namespace, uid and resourceVersion are copied from its metadata
 * @param now event time (first and last timestamp)
 */
export function cloneSetEventBody(
  cloneSet: CloneSet,
  event: CloneSetEvent,
  now: Date,
  name: string = cloneSetEventName(cloneSet, event),
): JsonObject {
  const meta = cloneSet.metadata;
  const at = metaTime(now);
  const involvedObject: JsonObject = {
    apiVersion: cloneSet.apiVersion ?? OWNER_API_VERSION,
    kind: KIND,
    name: meta.name ?? '',
    namespace: meta.namespace ?? '',
  };
  if (meta.uid) involvedObject.uid = meta.uid;
  if (meta.resourceVersion) involvedObject.resourceVersion = meta.resourceVersion;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: meta.namespace ?? '' },
    involvedObject,
    type: event.type,
    reason: event.reason,
    message: event.message,
    source: { component: EVENT_COMPONENT },
    reportingComponent: EVENT_COMPONENT,
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
  };
}
