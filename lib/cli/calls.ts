/**
 * The API calls only the CLI makes (docs/cli.md): CloneSet spec patches (pause, resume, undo), one pod, Events.
 * Through lib/kube's request helper, so failures are the same {@link KubeApiError}s as the reconciler's.
 */
import { PatchStrategy } from '@kubernetes/client-node';
import { GROUP } from '../api/keys.js';
import type { CloneSet, JsonObject, JsonValue, Pod } from '../api/types.js';
import { isNotFound } from '../kube/errors.js';
import { requestJson, type RetryOptions } from '../kube/request.js';
import type { Connection } from './connect.js';

const RETRY: RetryOptions = { retries: 1, minTimeoutMs: 200 };
const CS = { group: GROUP, version: 'v1alpha1', plural: 'clonesets' } as const;

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
  const contentType = Array.isArray(patch) ? PatchStrategy.JsonPatch : PatchStrategy.MergePatch;
  return requestJson<CloneSet>(
    `patch cloneset ${conn.namespace}/${name}`,
    RETRY,
    (o) =>
      conn.custom.patchNamespacedCustomObject({ ...CS, namespace: conn.namespace, name, body: patch }, o),
    { body: patch, contentType },
  );
}

/**
 * GET a pod of the connection's namespace.
 * @returns undefined when it does not exist
 * @throws KubeApiError for other failures
 */
export async function getPod(conn: Connection, name: string): Promise<Pod | undefined> {
  try {
    return await requestJson<Pod>(`get pod ${conn.namespace}/${name}`, RETRY, (o) =>
      conn.core.readNamespacedPod({ namespace: conn.namespace, name }, o),
    );
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
}

/**
 * LIST Events of the connection's namespace whose involved object has `uid` (`involvedObject.uid` field selector).
 * @throws KubeApiError
 */
export async function eventsOf(conn: Connection, uid: string): Promise<EventRecord[]> {
  const body = await requestJson<{ items?: EventRecord[] }>(`list events ${conn.namespace}`, RETRY, (o) =>
    conn.core.listNamespacedEvent(
      { namespace: conn.namespace, fieldSelector: `involvedObject.uid=${uid}` },
      o,
    ),
  );
  return body.items ?? [];
}
