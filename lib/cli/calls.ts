/**
 * The API calls only the CLI makes (docs/cli.md): CloneSet spec patches (pause, resume, undo), one pod, Events.
 * Through lib/kube's request helper, so failures are the same {@link KubeApiError}s as the reconciler's.
 */
import type { CloneSet, JsonObject, JsonValue, Pod } from '../api/types.js';
import { isNotFound } from '../kube/errors.js';
import { apiPaths } from '../kube/paths.js';
import { CONTENT_TYPE, requestJson, type RetryOptions } from '../kube/request.js';
import type { Connection } from './connect.js';

const RETRY: RetryOptions = { retries: 1, minTimeoutMs: 200 };
/** JSON patch (RFC 6902) content type; the merge patch one is lib/kube's. */
const JSON_PATCH = 'application/json-patch+json';

/** One JSON-patch operation (RFC 6902) as the API server takes it. */
export interface JsonPatchOp {
  op: 'test' | 'replace' | 'add' | 'remove';
  path: string;
  value?: JsonValue;
}

/**
 * PATCH a CloneSet: a JSON merge patch (object) or a JSON patch (list of operations).
 * @throws KubeApiError (NotFound, Conflict when a `test` operation fails, Invalid, ...)
 */
export function patchCloneSet(
  conn: Connection,
  name: string,
  patch: JsonObject | JsonPatchOp[],
): Promise<CloneSet> {
  return requestJson<CloneSet>(conn.kc, `patch cloneset ${conn.namespace}/${name}`, RETRY, {
    method: 'PATCH',
    path: apiPaths.cloneSet(conn.namespace, name),
    body: patch,
    contentType: Array.isArray(patch) ? JSON_PATCH : CONTENT_TYPE.merge,
  });
}

/**
 * GET a pod of the connection's namespace.
 * @returns undefined when it does not exist
 * @throws KubeApiError for other failures
 */
export async function getPod(conn: Connection, name: string): Promise<Pod | undefined> {
  try {
    return await requestJson<Pod>(conn.kc, `get pod ${conn.namespace}/${name}`, RETRY, {
      method: 'GET',
      path: apiPaths.core(conn.namespace, 'pods', name),
    });
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** A core/v1 Event as the API server sends it (timestamps as RFC 3339 text), the fields the CLI reads. */
export interface EventRecord {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
  involvedObject: { kind?: string; name?: string };
  /** The write order of Events stamped in the same second. */
  metadata?: { resourceVersion?: string };
}

/**
 * LIST Events of the connection's namespace whose involved object has `uid` (`involvedObject.uid` field selector).
 * @throws KubeApiError
 */
export async function eventsOf(conn: Connection, uid: string): Promise<EventRecord[]> {
  const body = await requestJson<{ items?: EventRecord[] }>(conn.kc, `list events ${conn.namespace}`, RETRY, {
    method: 'GET',
    path: apiPaths.core(conn.namespace, 'events'),
    query: { fieldSelector: `involvedObject.uid=${uid}` },
  });
  return body.items ?? [];
}
