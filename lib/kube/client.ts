/**
 * The one real {@link KubeClient}: plain HTTP requests (./request.ts) with a client-node `KubeConfig`'s connection
 * and authentication, against one cluster's API server (docs/architecture.md#lib-kube), for any {@link Resource}.
 *
 * Every call makes exactly one HTTP request per attempt (Event recording: see ./eventFolding.ts); 429, 5xx and
 * network errors are retried with exponential backoff, 409/404/422 never are (callers re-read and re-plan).
 * Everything returned is the API server's JSON (RFC 3339 strings, unknown fields kept). Errors name the operation
 * as `<verb> <kind>[ <subresource>] <namespace>/<name>`, e.g. `patch pod status ns/web-abcde`.
 */
import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import type { JsonObject } from '../api/types.js';
import { bodyText } from './body.js';
import { isNotFound } from './errors.js';
import type { CoreEvent } from './event.js';
import { recordFolded, type EventApi } from './eventFolding.js';
import {
  CONTENT_TYPE,
  DEFAULT_RETRY,
  requestJson,
  type HttpCall,
  type RequestHooks,
  type RequestObserver,
  type RetryOptions,
} from './request.js';
import {
  apiVersionOf,
  refText,
  resourcePath,
  watchPath,
  type KubeObject,
  type ObjectRef,
  type Resource,
} from './resource.js';
import { RESOURCES } from './resources.js';
import {
  VERSION_RETRY_AFTER_MS,
  type ApiResource,
  type JsonPatchOperation,
  type KubeClient,
  type Listed,
  type ListOptions,
  type Patch,
  type Preconditions,
  type Scale,
} from './types.js';
import type { ServerVersionInfo } from './version.js';
import { watchOnce } from './watch.js';
import { systemClock, type Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';

/** `fieldManager` of every write (managedFields show who changed what). */
export const FIELD_MANAGER = 'kruiseless';

/** Where {@link KubeClient.recordEvent} reports the errors it swallows. Powertools' Logger fits. */
export interface KubeClientLogger {
  warn(message: string, details: Record<string, unknown>): void;
}

/** Options of {@link createKubeClient}. */
export interface KubeClientOptions {
  /** Retries for 429/5xx/network errors; default {@link DEFAULT_RETRY}. `{ retries: 0, ... }` disables them. */
  retry?: RetryOptions;
  /** Receives recordEvent failures; default: one JSON line on stderr. */
  logger?: KubeClientLogger;
  /** Clock for Event timestamps (tests); default the system clock. */
  clock?: Clock;
  /** Told about every HTTP attempt (method, resource, status code), for metrics; default none. */
  onRequest?: RequestObserver;
  /** Deadline of one attempt, ms; default `DEFAULT_REQUEST_TIMEOUT_MS` (20 s, ./request.ts). */
  timeoutMs?: number;
  /**
   * Refreshes the credentials of the KubeConfig (a new EKS token, lib/kube/connections.ts); a request refused
   * with 401 calls it and is sent once more. Default none: a 401 is thrown at once.
   */
  refreshCredentials?: () => Promise<void>;
}

/** A list response as the API server sends it. */
interface ListBody<T> {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: T[];
}

const consoleLogger: KubeClientLogger = {
  warn: (message, details) => console.warn(JSON.stringify({ level: 'WARN', message, ...details })),
};

/** Content type of each patch type. */
const PATCH_CONTENT_TYPE: Record<Patch['type'], string> = {
  merge: CONTENT_TYPE.merge,
  'strategic-merge': CONTENT_TYPE.strategicMerge,
  json: CONTENT_TYPE.jsonPatch,
};

/** `<verb> <kind>[ <subresource>] <ref>`, the operation of errors. */
function operationOf(verb: string, resource: Resource, ref: ObjectRef, subresource?: string): string {
  const sub = subresource === undefined ? '' : ` ${subresource}`;
  return `${verb} ${resource.kind.toLowerCase()}${sub} ${refText(resource, ref)}`;
}

/** The {@link ObjectRef} of an object to write (its metadata). */
function refOf(object: KubeObject): ObjectRef {
  const { namespace, name } = object.metadata;
  return { ...(namespace !== undefined ? { namespace } : {}), name: name ?? '' };
}

/**
 * `patch` with `preconditions` added: into `metadata` for a merge or strategic-merge patch (the API server then
 * rejects a changed resourceVersion with 409, a different UID with 422), as leading `test` operations for a JSON
 * patch (a failed one: 422).
 */
export function withPreconditions(patch: Patch, preconditions: Preconditions = {}): Patch {
  const { uid, resourceVersion } = preconditions;
  if (uid === undefined && resourceVersion === undefined) return patch;
  if (patch.type === 'json') {
    const tests: JsonPatchOperation[] = [];
    if (uid !== undefined) tests.push({ op: 'test', path: '/metadata/uid', value: uid });
    if (resourceVersion !== undefined)
      tests.push({ op: 'test', path: '/metadata/resourceVersion', value: resourceVersion });
    return { type: 'json', body: [...tests, ...patch.body] };
  }
  const metadata = patch.body.metadata;
  const base = typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? metadata : {};
  const added: JsonObject = {
    ...(uid !== undefined ? { uid } : {}),
    ...(resourceVersion !== undefined ? { resourceVersion } : {}),
  };
  return { type: patch.type, body: { ...patch.body, metadata: { ...base, ...added } } };
}

/**
 * Builds the client for the cluster `kc` points at (its current context).
 * @param kc a KubeConfig from ./config.ts (file, or endpoint + CA + token)
 * @throws Error (from each request) when `kc` has no current cluster
 */
export function createKubeClient(kc: KubeConfig, opts: KubeClientOptions = {}): KubeClient {
  const retry = opts.retry ?? DEFAULT_RETRY;
  const logger = opts.logger ?? consoleLogger;
  const clock = opts.clock ?? systemClock;

  const hooks: RequestHooks = {
    ...(opts.onRequest ? { observe: opts.onRequest } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.refreshCredentials ? { refreshCredentials: opts.refreshCredentials } : {}),
  };
  const call = <T>(operation: string, request: HttpCall): Promise<T> =>
    requestJson<T>(kc, operation, retry, request, hooks);
  const written = { fieldManager: FIELD_MANAGER };

  /** `object` with its resource's apiVersion and kind unless it names its own. */
  const typed = (resource: Resource, object: KubeObject): Record<string, unknown> => ({
    apiVersion: apiVersionOf(resource),
    kind: resource.kind,
    ...object,
  });

  async function get<T extends KubeObject>(resource: Resource<T>, ref: ObjectRef): Promise<T | undefined> {
    try {
      return await call<T>(operationOf('get', resource, ref), {
        method: 'GET',
        path: resourcePath(resource, ref.namespace, ref.name),
      });
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  async function create<T extends KubeObject>(resource: Resource<T>, object: T): Promise<T> {
    const { namespace, name, generateName } = object.metadata;
    const ref = { ...(namespace !== undefined ? { namespace } : {}), name: name ?? generateName ?? '' };
    return call<T>(operationOf('create', resource, ref), {
      method: 'POST',
      path: resourcePath(resource, resource.namespaced ? (namespace ?? '') : undefined),
      query: written,
      bodyText: bodyText(resource, typed(resource, object)),
    });
  }

  function patch<T extends KubeObject>(
    resource: Resource<T>,
    ref: ObjectRef,
    change: Patch,
    options: { subresource?: string; preconditions?: Preconditions } = {},
  ): Promise<T> {
    const { subresource } = options;
    const sent = withPreconditions(change, options.preconditions);
    return call<T>(operationOf('patch', resource, ref, subresource), {
      method: 'PATCH',
      path: resourcePath(resource, ref.namespace, ref.name, subresource),
      query: written,
      body: sent.body,
      contentType: PATCH_CONTENT_TYPE[sent.type],
    });
  }

  /** The Event calls of {@link recordFolded}: POST, GET (404 → undefined), merge PATCH. */
  const events: EventApi = {
    createEvent: (namespace, body) =>
      create(RESOURCES.events, {
        ...body,
        metadata: { ...(body.metadata as JsonObject), namespace },
      } as CoreEvent),
    getEvent: (namespace, name) => get(RESOURCES.events, { namespace, name }),
    patchEvent: (namespace, name, body) =>
      patch(RESOURCES.events, { namespace, name }, { type: 'merge', body }),
  };

  /** The kept answer of `GET /version`, or the read in flight; after a failure, when to ask again. */
  let version: Promise<ServerVersionInfo | undefined> | undefined;
  let versionFailedAt: number | undefined;
  function serverVersion(): Promise<ServerVersionInfo | undefined> {
    if (versionFailedAt !== undefined && clock() - versionFailedAt < VERSION_RETRY_AFTER_MS)
      return Promise.resolve(undefined);
    version ??= call<ServerVersionInfo>('get version', { method: 'GET', path: '/version' }).then(
      (info) => {
        versionFailedAt = undefined;
        return info;
      },
      (e: unknown) => {
        version = undefined;
        versionFailedAt = clock();
        logger.warn('reading the API server version failed; deciding without it', { error: errorMessage(e) });
        return undefined;
      },
    );
    return version;
  }

  /** Discovery answers by group version (hits only: a group version served later is then found). */
  const discovered = new Map<string, Promise<ApiResource[] | undefined>>();
  function serverResources(
    groupVersion: string,
    options: { fresh?: boolean } = {},
  ): Promise<ApiResource[] | undefined> {
    const kept = discovered.get(groupVersion);
    if (kept && !options.fresh) return kept;
    const path = groupVersion.includes('/') ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
    const read = call<{ resources?: ApiResource[] }>(`discover ${groupVersion}`, {
      method: 'GET',
      path,
    }).then(
      (list) => (list.resources ?? []).map(({ name, namespaced, kind }) => ({ name, namespaced, kind })),
      (e: unknown) => {
        if (isNotFound(e)) return undefined;
        throw e;
      },
    );
    discovered.set(groupVersion, read);
    void read.then(
      (found) => {
        if (!found) discovered.delete(groupVersion);
      },
      () => discovered.delete(groupVersion),
    );
    return read;
  }

  async function getScale(resource: Resource, ref: ObjectRef): Promise<Scale | undefined> {
    try {
      return await call<Scale>(operationOf('get', resource, ref, 'scale'), {
        method: 'GET',
        path: resourcePath(resource, ref.namespace, ref.name, 'scale'),
      });
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  return {
    get,
    serverResources,
    getScale,

    watch: (resource, options, onEvent) =>
      watchOnce(
        kc,
        watchPath(resource, options.namespace),
        {
          resourceVersion: options.resourceVersion,
          ...(options.labelSelector !== undefined ? { labelSelector: options.labelSelector } : {}),
          timeoutSeconds: options.timeoutSeconds,
          allowBookmarks: true,
          signal: options.signal,
        },
        (type, object) => onEvent(type, object as unknown as KubeObject),
      ),

    async list<T extends KubeObject>(resource: Resource<T>, options: ListOptions = {}) {
      const { namespace, labelSelector, fieldSelector, limit } = options;
      const scope = resource.namespaced ? ` ${namespace ?? '(all namespaces)'}` : '';
      const selectors = [labelSelector, fieldSelector].filter((s) => s !== undefined && s !== '').join(' ');
      const operation = `list ${resource.plural}${scope}${selectors ? ` ${selectors}` : ''}`;
      const body = await call<ListBody<T>>(operation, {
        method: 'GET',
        path: resourcePath(resource, namespace),
        query: {
          labelSelector,
          fieldSelector,
          limit: limit === undefined ? undefined : String(limit),
          continue: options.continue,
          resourceVersion: options.resourceVersion,
          resourceVersionMatch: options.resourceVersionMatch,
        },
      });
      const listed: Listed<T> = {
        items: (body.items ?? []).map((item) => ({
          apiVersion: apiVersionOf(resource),
          kind: resource.kind,
          ...item,
        })),
        resourceVersion: body.metadata?.resourceVersion ?? '',
      };
      if (body.metadata?.continue) listed.continue = body.metadata.continue;
      return listed;
    },

    create,

    replace<T extends KubeObject>(resource: Resource<T>, object: T, options: { subresource?: string } = {}) {
      const ref = refOf(object);
      const { subresource } = options;
      return call<T>(operationOf('replace', resource, ref, subresource), {
        method: 'PUT',
        path: resourcePath(resource, ref.namespace, ref.name, subresource),
        query: written,
        bodyText: bodyText(resource, typed(resource, object)),
      });
    },

    patch,

    async delete(resource, ref, preconditions = {}, options = {}) {
      const { uid, resourceVersion } = preconditions;
      const given = {
        ...(uid !== undefined ? { uid } : {}),
        ...(resourceVersion !== undefined ? { resourceVersion } : {}),
      };
      const fields = {
        ...(Object.keys(given).length > 0 ? { preconditions: given } : {}),
        ...(options.propagationPolicy ? { propagationPolicy: options.propagationPolicy } : {}),
      };
      const body = Object.keys(fields).length > 0 ? fields : undefined;
      await call(operationOf('delete', resource, ref), {
        method: 'DELETE',
        path: resourcePath(resource, ref.namespace, ref.name),
        ...(body ? { body } : {}),
      });
    },

    async recordEvent(resource, object, event, options = {}) {
      try {
        await recordFolded(
          events,
          { resource, object },
          event,
          new Date(clock()),
          options.aggregate ?? false,
          options.memory,
        );
      } catch (e) {
        logger.warn('recording a Kubernetes Event failed (ignored)', {
          namespace: object.metadata.namespace,
          kind: resource.kind,
          name: object.metadata.name,
          reason: event.reason,
          error: errorMessage(e),
        });
      }
    },

    serverVersion,
  };
}
