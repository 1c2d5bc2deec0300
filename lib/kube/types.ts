/**
 * The API-server port (docs/architecture.md#lib-kube): one generic client over {@link Resource}s — get, list,
 * create, replace, patch, delete, and Event recording — for every kind a controller reads or writes. One real
 * implementation (plain HTTP, ./client.ts) lives beside this file; tests run it against a real kube-apiserver.
 * Typed operations of one kind (a CloneSet's status write) are small functions over it, kept with that kind.
 */
import type { JsonObject, JsonValue } from '../api/types.js';
import type { KubeObject, ObjectRef, Resource } from './resource.js';
import type { ServerVersionInfo } from './version.js';
import type { WatchEventType, WatchResult } from './watch.js';

export type { KubeObject, ObjectRef, Resource } from './resource.js';

/**
 * A list result with the collection's resourceVersion (for watches and read-your-writes checks). Items carry
 * `apiVersion` and `kind` (filled in: the API server omits them on list items of built-in types).
 */
export interface Listed<T> {
  items: T[];
  resourceVersion: string;
  /** The token of the next page when the list was limited and more items remain (`metadata.continue`). */
  continue?: string;
}

/** Query of a LIST (https://kubernetes.io/docs/reference/using-api/api-concepts/#retrieving-large-results-sets-in-chunks). */
export interface ListOptions {
  /** The namespace of a namespaced resource; undefined: all namespaces. Ignored for cluster-scoped resources. */
  namespace?: string;
  /** e.g. `app=web,apps.kruise.io/cloneset-instance-id`. */
  labelSelector?: string;
  /** e.g. `involvedObject.uid=<uid>`. */
  fieldSelector?: string;
  /** Most items in one page; the answer's `continue` then names the next page. Default: no limit. */
  limit?: number;
  /** The `continue` token of the previous page. */
  continue?: string;
  /**
   * With `resourceVersionMatch: 'NotOlderThan'`: an answer at least as new as this resourceVersion, from the API
   * server's watch cache without waiting for it to catch up with etcd (./listFloors.ts). Absent: a quorum read.
   */
  resourceVersion?: string;
  /** How `resourceVersion` is matched; only `NotOlderThan` is used. */
  resourceVersionMatch?: 'NotOlderThan';
}

/** One JSON-patch operation (RFC 6902) as the API server takes it. */
export interface JsonPatchOperation {
  op: 'test' | 'replace' | 'add' | 'remove';
  path: string;
  value?: JsonValue;
}

/**
 * A PATCH body and its type: a JSON merge patch (RFC 7386), a strategic-merge patch (lists merged by their patch
 * keys, built-in types only), or a JSON patch (RFC 6902).
 */
export type Patch =
  | { type: 'merge'; body: JsonObject }
  | { type: 'strategic-merge'; body: JsonObject }
  | { type: 'json'; body: JsonPatchOperation[] };

/**
 * Preconditions of a write: the object must still have this UID and/or resourceVersion, else the API server
 * rejects the write: 409 Conflict, except in a PATCH, which has no UID precondition of its own (the UID goes into
 * the patch): a different UID there is 422 Invalid (`metadata.uid: field is immutable`), and in a JSON patch
 * (`test` operations) any failed precondition is 422 Invalid.
 */
export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

/** Options of {@link KubeClient.delete} beside its preconditions. */
export interface DeleteOptions {
  /**
   * What becomes of the dependents (the DeleteOptions `propagationPolicy`); absent: the resource's default (batch/v1
   * Jobs orphan their pods by default, so a Job is deleted with `Background`).
   */
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
}

/** Options of {@link KubeClient.patch}. */
export interface PatchOptions {
  /** e.g. `status`: patch `<object>/status`. */
  subresource?: string;
  /** Sent in the patch (`metadata.uid`/`metadata.resourceVersion`, or JSON-patch `test` operations). */
  preconditions?: Preconditions;
}

/** Options of {@link KubeClient.replace}. */
export interface ReplaceOptions {
  /** e.g. `status`: replace `<object>/status` (the API server then keeps everything but `.status`). */
  subresource?: string;
}

/** A Kubernetes Event to record on an object: the three fields of client-go's `EventRecorder.Event`. */
export interface KubeEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** What a recorder last wrote to one stored Event: its `count`, the answer's resourceVersion, `lastTimestamp` (epoch ms). */
export interface KnownEvent {
  count: number;
  resourceVersion: string;
  lastMs: number;
}

/**
 * The Events a recorder wrote, by Event name, that the caller keeps between calls (./eventFolding.ts `recordFolded`):
 * with it a repeat is one PATCH of the known count, as client-go's `EventCorrelator` patches from its cache, instead of
 * a POST that meets AlreadyExists, a GET and a PATCH.
 */
export interface EventMemory {
  get(name: string): KnownEvent | undefined;
  set(name: string, known: KnownEvent): void;
  delete(name: string): void;
}

/** Options of {@link KubeClient.recordEvent}. */
export interface RecordEventOptions {
  /** `event` is an aggregate (./eventCorrelation.ts): fold it into its type and reason's aggregate Event. */
  aggregate?: boolean;
  /** What this recorder wrote before (read and updated by the call); absent: every repeat is read first. */
  memory?: EventMemory;
}

/**
 * Access to one cluster's API server. Every call makes one HTTP request per attempt and throws
 * {@link KubeApiError} on an API error (and on a network failure: statusCode 0, reason `NetworkError`), after
 * retrying 429/5xx/network errors; 409/404/422 are never retried. Objects returned are the API server's JSON
 * (RFC 3339 strings, unknown fields kept). `T` follows the resource: calls on `Resource<Pod>` take and return `Pod`s.
 * Objects are named by {@link ObjectRef}; a namespaced resource needs its namespace.
 */
/** Query of {@link KubeClient.watch}: one collection, from a resourceVersion. */
export interface WatchListOptions {
  /** The collection's namespace (a namespaced resource), absent for every namespace. */
  namespace?: string;
  labelSelector?: string;
  /** Where the watch starts: every change after it is delivered, in order. */
  resourceVersion: string;
  /** Server-side bound of the watch, seconds. */
  timeoutSeconds: number;
  /** Ends the watch early; it then resolves. */
  signal: AbortSignal;
}

export interface KubeClient {
  /** GET one object; undefined when it does not exist (404). */
  get<T extends KubeObject>(resource: Resource<T>, ref: ObjectRef): Promise<T | undefined>;
  /**
   * LIST one page of a collection (all of it unless `limit` is set; ./list.ts `listAll` follows `continue` to the
   * end). A quorum read: no `resourceVersion` is sent. 404 when the resource is not served (no CRD): see
   * ./list.ts `listIfServed`.
   */
  list<T extends KubeObject>(resource: Resource<T>, options?: ListOptions): Promise<Listed<T>>;
  /**
   * POST an object into its namespace (from `object.metadata.namespace`), `apiVersion` and `kind` filled in when
   * absent. AlreadyExists (409) when the name is taken. A create retried after a lost response may report
   * AlreadyExists for the object it created itself: callers with deterministic names (pods, PVCs, revisions,
   * ImagePullJobs) treat AlreadyExists like an unobserved create.
   */
  create<T extends KubeObject>(resource: Resource<T>, object: T): Promise<T>;
  /**
   * PUT an object (or its `subresource`), named by its metadata; the object's `metadata.resourceVersion`, when
   * set, is the precondition (409 Conflict if it changed since read).
   */
  replace<T extends KubeObject>(resource: Resource<T>, object: T, options?: ReplaceOptions): Promise<T>;
  /** PATCH an object (or its `subresource`) with `patch`, under `options.preconditions`. */
  patch<T extends KubeObject>(
    resource: Resource<T>,
    ref: ObjectRef,
    patch: Patch,
    options?: PatchOptions,
  ): Promise<T>;
  /**
   * DELETE an object with the API server's default grace period and propagation, under `preconditions` (a UID
   * precondition never deletes a same-named successor: 409 Conflict). NotFound (404) when it is already gone.
   */
  delete(
    resource: Resource,
    ref: ObjectRef,
    preconditions?: Preconditions,
    options?: DeleteOptions,
  ): Promise<void>;
  /**
   * Record a core/v1 Event on `object` (of `resource`), folded into the stored Event of the same type, reason and
   * message if there is one (a count increment, ./eventFolding.ts); with `aggregate`, into the aggregate Event of
   * its type and reason, its message replacing the stored one (./eventCorrelation.ts). Best effort: never throws.
   */
  recordEvent<T extends KubeObject>(
    resource: Resource<T>,
    object: T,
    event: KubeEvent,
    options?: RecordEventOptions,
  ): Promise<void>;
  /**
   * The API server's version (`GET /version`), read once per client and kept (a server is not upgraded under a
   * running client often enough to matter; a new container reads it again). Never throws: undefined when it could
   * not be read — the failure is logged, and the read is not tried again for {@link VERSION_RETRY_AFTER_MS}.
   * OpenKruise reads it once at start (`NewRegistry`, pkg/client/registry.go).
   */
  serverVersion(): Promise<ServerVersionInfo | undefined>;
  /**
   * The resources the API server serves in `groupVersion` (`apps/v1`, `v1`; discovery: `GET /apis/<group>/<version>`
   * or `/api/v1`), subresources as `<plural>/<subresource>`. An answer is kept for the client's life unless `fresh`
   * asks again (and keeps the new answer): a caller that misses a kind in a kept answer asks once more, as a CRD may
   * have been installed since; a group version not served (404) is never kept. Optional: a client without it
   * resolves no kind beyond the ones its callers name (lib/kube/scaleFinder.ts).
   * @returns undefined when the group version is not served
   * @throws KubeApiError on other HTTP errors
   */
  serverResources?(groupVersion: string, options?: { fresh?: boolean }): Promise<ApiResource[] | undefined>;
  /**
   * GET an object's `scale` subresource (RBAC: `get` on `<plural>/scale`). Optional, as {@link serverResources}.
   * @returns undefined when the object, or its scale subresource, does not exist (404)
   * @throws KubeApiError on other HTTP errors
   */
  getScale?(resource: Resource, ref: ObjectRef): Promise<Scale | undefined>;
  /**
   * WATCH a collection from `options.resourceVersion` until the server ends it (`timeoutSeconds`) or the signal
   * aborts, calling `onEvent` for every change in order (bookmarks too), as ./watch.ts `watchOnce`. One request,
   * never retried. Optional: a client without it gives its callers no watched lists (./watchedLists.ts).
   * @returns where the watch got to; `gone: true` when the start resourceVersion has expired
   * @throws KubeApiError on HTTP errors, `ERROR` events other than 410 and network failures
   */
  watch?(
    resource: Resource,
    options: WatchListOptions,
    onEvent: (type: WatchEventType, object: KubeObject) => void,
  ): Promise<WatchResult>;
}

/**
 * One resource of a group version as discovery lists it (`metav1.APIResource`, the fields read): `name` is the
 * plural, or `<plural>/<subresource>` for a subresource (`deployments/scale`).
 */
export interface ApiResource {
  name: string;
  namespaced: boolean;
  kind: string;
}

/**
 * An object's `scale` subresource (`autoscaling/v1` Scale): its replicas, and in `status.selector` the label
 * selector of its pods as text (`app=web,tier in (a,b)`), which a custom resource's scale gives from its
 * `labelSelectorPath`.
 */
export interface Scale extends KubeObject {
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: string };
}

/** After a failed `GET /version`, how long {@link KubeClient.serverVersion} answers undefined without asking, ms. */
export const VERSION_RETRY_AFTER_MS = 60_000;
