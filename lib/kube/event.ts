/**
 * The core/v1 Event Kruiseless writes on an object (docs/architecture.md#write-order,
 * docs/behaviour/cloneset.md#events), in the shape client-go's legacy event recorder produces: involvedObject
 * pointing at the object, source/reportingComponent `kruiseless`, first/last timestamp, count 1 — named
 * deterministically so that repeats fold into it (./eventFolding.ts, docs/reliability.md#event-folding).
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../api/types.js';
import { metaTime } from '../api/time.js';
import { apiVersionOf, type KubeObject, type Resource } from './resource.js';
import type { KubeEvent } from './types.js';

/** `source.component` and `reportingComponent` of every Event Kruiseless writes. */
export const EVENT_COMPONENT = 'kruiseless';

/** Longest object name the API server accepts for an Event (a DNS subdomain). */
const MAX_NAME = 253;
/** Hex digits of the digest in an Event name. */
const DIGEST_HEX = 16;

/**
 * A core/v1 Event as the API server sends it (timestamps as RFC 3339 text): the fields folding (./eventFolding.ts)
 * and the CLI (`kruiseless why`) read.
 */
export interface CoreEvent extends KubeObject {
  involvedObject: {
    apiVersion?: string;
    kind?: string;
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
  };
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
}

/**
 * The namespace an Event on `object` is written to: the object's own, or `default` for a cluster-scoped object
 * (client-go's `generateEvent`, tools/record/event.go).
 */
export function eventNamespace(object: KubeObject): string {
  return object.metadata.namespace || 'default';
}

/**
 * The name of the Event object for `event` on `object`: `<object name>.<16 hex>`, the hex being the first 64 bits
 * of SHA-256 over the object's uid, the Event's type, reason and message, and {@link EVENT_COMPONENT} — the fields
 * client-go's EventCorrelator compares to decide that two Events are the same (its `getEventKey`). The same inputs
 * always give the same name, so a stateless recorder finds the Event it wrote before. The object name is shortened
 * when the whole would exceed 253 characters.
 */
export function eventName(resource: Resource, object: KubeObject, event: KubeEvent): string {
  return digestName(resource, object, [event.type, event.reason, event.message, EVENT_COMPONENT]);
}

/**
 * The name of the aggregate Event of `event`'s type and reason on `object` (./eventCorrelation.ts): like
 * {@link eventName} but without the message, which changes with every aggregated Event, so all of them fold into
 * one object (client-go keeps the aggregate's name in memory instead).
 */
export function aggregateEventName(resource: Resource, object: KubeObject, event: KubeEvent): string {
  return digestName(resource, object, [event.type, event.reason, EVENT_COMPONENT, 'aggregate']);
}

/**
 * `<object name>.<first 64 bits of SHA-256 over the uid and `fields`>`, at most 253 characters (an object without
 * a name stands as its lower-case kind).
 */
function digestName(resource: Resource, object: KubeObject, fields: string[]): string {
  const digest = createHash('sha256')
    .update([object.metadata.uid ?? '', ...fields].join('\0'))
    .digest('hex')
    .slice(0, DIGEST_HEX);
  const prefix = (object.metadata.name ?? resource.kind.toLowerCase()).slice(0, MAX_NAME - DIGEST_HEX - 1);
  return `${prefix}.${digest}`;
}

/**
 * Builds the body of a new Event (count 1), named `name` (default {@link eventName}).
 * @param object the involved object; name, namespace, uid and resourceVersion are copied from its metadata, its
 *   apiVersion (default the resource's) and the resource's kind
 * @param now event time (first and last timestamp)
 */
export function eventBody(
  resource: Resource,
  object: KubeObject,
  event: KubeEvent,
  now: Date,
  name: string = eventName(resource, object, event),
): JsonObject {
  const meta = object.metadata;
  const at = metaTime(now);
  const involvedObject: JsonObject = {
    apiVersion: object.apiVersion ?? apiVersionOf(resource),
    kind: resource.kind,
    name: meta.name ?? '',
    namespace: meta.namespace ?? '',
  };
  if (meta.uid) involvedObject.uid = meta.uid;
  if (meta.resourceVersion) involvedObject.resourceVersion = meta.resourceVersion;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: eventNamespace(object) },
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
