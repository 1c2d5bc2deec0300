/**
 * One bounded watch for the watch pump (docs/architecture.md#watch-pump): resume from a stored resourceVersion, deliver
 * events, and hand back where to resume next time. The pump relists when the server says the resourceVersion is
 * too old (410 Gone / reason `Expired`, https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes).
 */
import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { Watch } from '@kubernetes/client-node/dist/watch.js';
import type { JsonObject } from '../api/types.js';
import { KubeApiError, kubeApiErrorFromResponse, toKubeApiError } from './errors.js';
import { http2SessionFor } from './http2Session.js';
import { noResponseError, watchNetworkError, watchOverHttp2, type WatchQuery } from './http2Watch.js';
import { connectionPool, USER_AGENT } from './request.js';

/** Event types delivered to the callback (`ERROR` events are handled by {@link watchOnce} itself). */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

/** Query of one watch. */
export interface WatchOptions {
  /** Resume point; omitted = start with synthetic ADDED events for every existing object. */
  resourceVersion?: string;
  labelSelector?: string;
  /**
   * Server-side bound of the watch, in seconds; the client aborts {@link CLIENT_GRACE_MS} after it if the server has
   * not ended it (a watch's lifetime is bounded either way).
   */
  timeoutSeconds: number;
  /** Bookmarks keep the resume point fresh while nothing changes. */
  allowBookmarks: true;
  /** Ends the watch early (e.g. the Lambda is running out of time); it then resolves normally. */
  signal?: AbortSignal;
}

/** How one watch ended. */
export interface WatchResult {
  /**
   * The last resourceVersion seen (objects or bookmarks), else the one the watch started from, else `''`.
   * After `gone: true` it is the (expired) start point: the caller must relist instead.
   */
  resourceVersion: string;
  /** The start resourceVersion is too old (410 Gone / `Expired`): relist, then watch from the list's version. */
  gone: boolean;
}

/**
 * Client-side grace after `timeoutSeconds` before a watch the server has not ended is aborted, ms, counted from the
 * response's arrival (when the API server starts the watch's own clock): the API server ends a watch at exactly
 * `timeoutSeconds`, so this only bounds a stalled connection (client-node 1.4.0's Watch has no timeout of its own).
 * Before the response, the same `timeoutSeconds` + grace bounds the wait for it (node-fetch's `timeout`, from the
 * socket to the response headers): a response slow to come — a TLS handshake queued behind a thousand others — is
 * no stall, and counting its wait against the server's clock aborted healthy watches (bench/scenarios/fleet.ts,
 * 2026-12-07). The watch pump aborts its watches by their signal at its deadline, 8 s before the Lambda's (review
 * finding 8); a watch still waiting for its response cannot be aborted (client-node hands out its controller with
 * the response) but gives up at most 6 s after that deadline (at most the time to the deadline, rounded up to a
 * second, + grace), 2 s before the function times out (review finding 14; it was 30 s, past the watch function's
 * 70 s).
 */
export const CLIENT_GRACE_MS = 5_000;

/**
 * True when a watch `ERROR` object (a `metav1.Status`) or an HTTP error means "resourceVersion too old":
 * code 410, or reason `Expired`/`Gone`, or the message `too old resource version`.
 */
export function isGoneStatus(status: unknown): boolean {
  if (status instanceof KubeApiError) {
    return status.statusCode === 410 || status.reason === 'Expired' || status.reason === 'Gone';
  }
  if (typeof status !== 'object' || status === null) return false;
  const s = status as { code?: unknown; reason?: unknown; message?: unknown; statusCode?: unknown };
  return (
    s.code === 410 ||
    s.statusCode === 410 ||
    s.reason === 'Expired' ||
    s.reason === 'Gone' ||
    (typeof s.message === 'string' && s.message.includes('too old resource version'))
  );
}

/** resourceVersion of a watched object or bookmark, if any. */
function resourceVersionOf(obj: unknown): string | undefined {
  const rv = (obj as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata?.resourceVersion;
  return typeof rv === 'string' && rv !== '' ? rv : undefined;
}

/** client-node's Watch rejects a non-200 response with a plain Error carrying `statusCode` (body discarded). */
function watchError(e: unknown, operation: string): unknown {
  const statusCode = (e as { statusCode?: unknown } | undefined)?.statusCode;
  if (!(e instanceof KubeApiError) && e instanceof Error && typeof statusCode === 'number') {
    return kubeApiErrorFromResponse(operation, statusCode, e.message, e);
  }
  return toKubeApiError(e, operation);
}

/**
 * `kc` whose fetch options (what client-node's `Watch` sends) carry Kruiseless's `User-Agent` (./request.ts
 * `USER_AGENT`) instead of node-fetch's, so a watch shows in the API server's audit log as the same client as
 * Kruiseless's other requests; that go through `kc`'s connection pool (./request.ts `connectionPool`: one
 * connection per open watch, kept for the next watch, not one per watch); and that give up when no response came
 * within `responseTimeoutMs` (node-fetch's `request-timeout`). Every other property is `kc`'s.
 */
function withUserAgent(kc: KubeConfig, responseTimeoutMs: number): KubeConfig {
  const wrapped = Object.create(kc) as KubeConfig;
  wrapped.applyToFetchOptions = async (opts) => {
    const init = await kc.applyToFetchOptions(opts);
    // node-fetch 2: from the socket to the response headers only (the body of a watch is not bounded by it)
    (init as { timeout?: number }).timeout = responseTimeoutMs;
    const pool = await connectionPool(kc);
    if (pool) init.agent = pool;
    const headers = init.headers;
    if (headers === undefined) init.headers = { 'User-Agent': USER_AGENT };
    else if (!Array.isArray(headers) && typeof headers.set === 'function')
      headers.set('User-Agent', USER_AGENT);
    return init;
  };
  return wrapped;
}

/**
 * Runs one watch on `path` (from ./resource.ts `watchPath`, e.g. `/api/v1/namespaces/ns/pods`,
 * `/apis/apps.kruise.io/v1alpha1/clonesets`) until
 * the server ends it (after `timeoutSeconds`), calling `onEvent` for every event in order.
 * One HTTP request, never retried here (the pump retries on its next schedule).
 * @returns where to resume, or `gone: true` when the start resourceVersion has expired
 * @throws KubeApiError on other HTTP errors, other `ERROR` events and network failures; whatever `onEvent` throws
 *   (the watch is aborted first)
 */
export function watchOnce(
  kc: KubeConfig,
  path: string,
  opts: WatchOptions,
  onEvent: (type: WatchEventType, obj: JsonObject) => void,
): Promise<WatchResult> {
  const operation = `watch ${path}`;
  let lastRV = opts.resourceVersion ?? '';
  let gone = false;
  let failure: unknown;
  let controller: AbortController | undefined;
  let stopped = false;

  const boundMs = opts.timeoutSeconds * 1000 + CLIENT_GRACE_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let settled = false;

  return new Promise<WatchResult>((resolve, reject) => {
    /** Ends this watch once: records why, aborts the connection (the done callback settles). */
    function stop(reason?: unknown): void {
      if (reason !== undefined && failure === undefined) failure = reason;
      stopped = true;
      controller?.abort();
    }
    function settle(err: unknown): void {
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort); // a long-lived signal outlives many watches
      const cause = failure ?? (stopped ? undefined : (err ?? undefined));
      if (gone || (cause !== undefined && isGoneStatus(cause))) {
        resolve({ resourceVersion: lastRV, gone: true });
      } else if (cause === undefined) {
        resolve({ resourceVersion: lastRV, gone: false });
      } else {
        // a failure that is no API error (a programming error) is rethrown as it came, not wrapped
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        reject(
          watchError(responseTimeout(cause) ? noResponseError(operation, boundMs, cause) : cause, operation),
        );
      }
    }
    const onAbort = (): void => stop();
    if (opts.signal?.aborted) stop();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const query: WatchQuery = {
      allowWatchBookmarks: opts.allowBookmarks,
      timeoutSeconds: opts.timeoutSeconds,
    };
    if (opts.resourceVersion) query.resourceVersion = opts.resourceVersion;
    if (opts.labelSelector) query.labelSelector = opts.labelSelector;

    const onWatchEvent = (type: string, obj: unknown): void => {
      if (stopped) return;
      if (type === 'ERROR') {
        if (isGoneStatus(obj)) {
          gone = true;
          stop();
        } else {
          const code = (obj as { code?: unknown }).code;
          stop(kubeApiErrorFromResponse(operation, typeof code === 'number' ? code : 500, obj));
        }
        return;
      }
      const rv = resourceVersionOf(obj);
      if (rv) lastRV = rv;
      try {
        onEvent(type as WatchEventType, obj as JsonObject);
      } catch (e) {
        stop(e);
      }
    };
    const done = (err: unknown): void => settle(err);
    // HTTP/2 where the server speaks it (one connection for all of the cluster's watches), else HTTP/1.1
    http2SessionFor(kc)
      .catch((e: unknown) => {
        throw watchNetworkError(operation, e);
      })
      .then((session) =>
        session
          ? watchOverHttp2(kc, session, path, query, boundMs, onWatchEvent, done)
          : new Watch(withUserAgent(kc, boundMs)).watch(path, query, onWatchEvent, done),
      )
      .then(
        (c) => {
          // the response came (HTTP/1.1), the request went out (HTTP/2), or the watch already ended: the server's
          // `timeoutSeconds` runs from here
          controller = c;
          if (stopped) c.abort();
          else if (!settled)
            timer = setTimeout(
              () => stop(new KubeApiError(operation, 0, 'Timeout', 'the server did not end the watch')),
              boundMs,
            );
        },
        (e: unknown) => settle(e),
      );
  });
}

/** True for node-fetch's `request-timeout`: no response headers within the `timeout` {@link withUserAgent} set. */
function responseTimeout(e: unknown): boolean {
  return (
    e instanceof Error && e.name === 'FetchError' && (e as { type?: unknown }).type === 'request-timeout'
  );
}
