/**
 * The core/v1 Event Kruiseless writes on a CloneSet (docs/architecture.md#write-order, docs/behaviour/cloneset.md#events), in the shape client-go's
 * legacy event recorder produces: `generateName: "<cloneset>."`, involvedObject pointing at the CloneSet,
 * source/reportingComponent `kruiseless`, first/last timestamp, count 1.
 */
import { KIND, OWNER_API_VERSION } from '../api/keys.js';
import type { CloneSet, JsonObject } from '../api/types.js';
import { metaTime } from '../api/time.js';
import type { CloneSetEvent } from './types.js';

/** `source.component` and `reportingComponent` of every Event Kruiseless writes. */
export const EVENT_COMPONENT = 'kruiseless';

/**
 * Builds the Event body for {@link KubeClient.recordEvent}.
 * @param cloneSet the involved object; name, namespace, uid and resourceVersion are copied from its metadata
 * @param now event time (first and last timestamp)
 */
export function cloneSetEventBody(cloneSet: CloneSet, event: CloneSetEvent, now: Date): JsonObject {
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
    metadata: { generateName: `${meta.name ?? 'cloneset'}.`, namespace: meta.namespace ?? '' },
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
