/**
 * The API calls only the CLI makes (docs/cli.md): workload spec patches (pause, resume, undo), one pod, Events.
 * Through the connection's generic client (lib/kube), so failures are the same {@link KubeApiError}s as the
 * reconciler's.
 */
import type { CloneSet, JsonObject, Pod } from '../api/types.js';
import type { CoreEvent } from '../kube/event.js';
import { listAll } from '../kube/list.js';
import { RESOURCES } from '../kube/resources.js';
import type { JsonPatchOperation, KubeObject, Preconditions, Resource } from '../kube/types.js';
import type { Connection } from './connect.js';
import { CLONESET_RESOURCE } from '../controllers/cloneset/api/resource.js';

/**
 * PATCH a workload of the connection's namespace: a JSON merge patch (object) or a JSON patch (list of operations),
 * under `preconditions` (a JSON patch gets them as `test` operations).
 * @param resource the workload's resource (a CloneSet's, an Advanced StatefulSet's)
 * @throws KubeApiError (NotFound; Invalid when a JSON patch's precondition fails, Conflict when a merge patch's
 *   does; ...)
 */
export function patchWorkload<T extends KubeObject>(
  conn: Connection,
  resource: Resource<T>,
  name: string,
  patch: JsonObject | JsonPatchOperation[],
  preconditions: Preconditions = {},
): Promise<T> {
  return conn.kube.patch(
    resource,
    { namespace: conn.namespace, name },
    Array.isArray(patch) ? { type: 'json', body: patch } : { type: 'merge', body: patch },
    { preconditions },
  );
}

/** PATCH a CloneSet of the connection's namespace ({@link patchWorkload}). */
export function patchCloneSet(
  conn: Connection,
  name: string,
  patch: JsonObject | JsonPatchOperation[],
  preconditions: Preconditions = {},
): Promise<CloneSet> {
  return patchWorkload(conn, CLONESET_RESOURCE, name, patch, preconditions);
}

/**
 * GET a pod of the connection's namespace.
 * @returns undefined when it does not exist
 * @throws KubeApiError for other failures
 */
export function getPod(conn: Connection, name: string): Promise<Pod | undefined> {
  return conn.kube.get(RESOURCES.pods, { namespace: conn.namespace, name });
}

/**
 * LIST Events of the connection's namespace whose involved object has `uid` (`involvedObject.uid` field selector).
 * @throws KubeApiError
 */
export async function eventsOf(conn: Connection, uid: string): Promise<CoreEvent[]> {
  const fieldSelector = `involvedObject.uid=${uid}`;
  return (await listAll(conn.kube, RESOURCES.events, { namespace: conn.namespace, fieldSelector })).items;
}
