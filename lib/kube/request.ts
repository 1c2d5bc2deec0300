/**
 * One API-server call as plain HTTP: method, path, query and a JSON body in, the response's JSON out, with the
 * connection and authentication of a client-node `KubeConfig` (`applyToHTTPSOptions`: CA, client certificate,
 * bearer token or exec plugin, proxy agent), a deadline per attempt (a timed-out attempt is a network error), and
 * retries with exponential backoff (p-retry) for 429, 5xx and network errors; a 429 or 503 waits at least what its
 * `Retry-After` asks; all of it within one budget per request; a 401 is retried once after the caller refreshed its
 * credentials.
 *
 * Why not client-node's typed APIs: they deserialise responses into model classes (timestamps become `Date`,
 * unknown fields are dropped) and serialise request bodies through the same models (fields the model does not know
 * are pruned), while the planner works on the API server's JSON (RFC 3339 strings, every field kept,
 * docs/architecture.md#lib-cloneset). And every typed API class drags all of its operations and all the models
 * into a Lambda bundle (about 4 MB of the 8.5 MB reconcile bundle, BENCHMARKS.md#bundles).
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import pRetry from 'p-retry';
import { closeHttp2Session } from './http2Session.js';
import { isRetryable, KubeApiError, kubeApiErrorFromResponse, REASON_NETWORK_ERROR } from './errors.js';

/** Retry policy of a client: `retries` extra attempts, first wait `minTimeoutMs` (ms), doubling, jittered. */
export interface RetryOptions {
  retries: number;
  minTimeoutMs: number;
}

/**
 * What one attempt of a request was, for metrics (client-go's `rest_client_requests_total` labels): the HTTP
 * method, the resource of its path (`pods`, `clonesets`, `events`, …; a subresource counts as its resource) and the
 * status code, or `'<error>'` when no response arrived (client-go's label for it).
 */
export interface RequestRecord {
  method: HttpCall['method'];
  resource: string;
  code: string;
}

/** Receives a {@link RequestRecord} after every attempt, retries included; must not throw. */
export type RequestObserver = (record: RequestRecord) => void;

/**
 * The resource a path names: the segment after `/api/v1` or `/apis/<group>/<version>`, skipping
 * `namespaces/<ns>` (so `/api/v1/namespaces/a/pods/p/status` → `pods`; `/api/v1/namespaces/a` → `namespaces`).
 */
export function resourceOfPath(path: string): string {
  const parts = path.split('/').filter((s) => s !== '');
  // a path outside the resource APIs names itself (`/version`)
  if (parts[0] !== 'api' && parts[0] !== 'apis') return parts[0] ?? 'unknown';
  const rest = parts[0] === 'api' ? parts.slice(2) : parts.slice(3);
  const named = rest[0] === 'namespaces' && rest.length > 2 ? rest.slice(2) : rest;
  return named[0] ?? 'unknown';
}

/** Default policy: 4 retries, 200 ms doubling up to 5 s (about 3 s in the worst case before jitter). */
export const DEFAULT_RETRY: RetryOptions = { retries: 4, minTimeoutMs: 200 };

/**
 * Default deadline of one attempt, ms: from sending the request to the last byte of the response. A request of
 * {@link DEFAULT_RETRY}'s 5 attempts that all time out ends after about 103 s, inside the reconcile function's
 * 120 s (serverless.yml) less its 8 s margin; the API server ends its own non-watch requests after 60 s
 * (kube-apiserver `--request-timeout`). Serverless parameter `requestTimeoutSeconds`.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;

/**
 * How long a keep-alive connection may sit unused in the pool before it is closed, ms: long enough for the
 * requests of one invocation and the next warm one to share it, short enough that a pool left behind (a cluster
 * whose record changed) does not hold sockets open.
 */
export const IDLE_SOCKET_TIMEOUT_MS = 60_000;

/** What one request is allowed and told besides its retries. */
export interface RequestHooks {
  /** Told about every attempt (metrics). */
  observe?: RequestObserver;
  /** Deadline of one attempt, ms, > 0; default {@link DEFAULT_REQUEST_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Budget of the whole request, attempts and waits, ms, > 0; default {@link DEFAULT_REQUEST_BUDGET_MS}. */
  budgetMs?: number;
  /**
   * Called once when the request (after its retries) ends in 401 Unauthorized: refresh the credentials `kc`
   * carries (e.g. a new EKS token); the request is then sent once more. Absent: a 401 is thrown at once.
   */
  refreshCredentials?: () => Promise<void>;
}

/** Longest backoff between two attempts (ms). */
const MAX_TIMEOUT_MS = 5000;
/** Longest `Retry-After` honoured (s): a Lambda invocation has 120 s in all; longer waits go to the next pass. */
export const MAX_RETRY_AFTER_SECONDS = 30;
/**
 * Default budget of one request, ms: its attempts and the waits between them (backoff and `Retry-After`) end
 * within it — an attempt's deadline is cut to what is left, and a retry whose wait would not leave room for an
 * answer is not made (the last error is thrown). 100 s is inside the reconcile function's 120 s (serverless.yml)
 * less its 8 s margin, so the retries of one request cannot outlive the invocation (review finding 10: four
 * `Retry-After: 30` waits alone took 120 s).
 */
export const DEFAULT_REQUEST_BUDGET_MS = 100_000;
/** Least time a retry must leave for its attempt, ms: a retry with less left is not made. */
const MIN_ATTEMPT_MS = 1000;

/** Content types of the writes (Kubernetes' patch types and plain JSON). */
export const CONTENT_TYPE = {
  json: 'application/json',
  strategicMerge: 'application/strategic-merge-patch+json',
  merge: 'application/merge-patch+json',
  /** JSON patch (RFC 6902). */
  jsonPatch: 'application/json-patch+json',
} as const;

/** One request. */
export interface HttpCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute API path, e.g. `/api/v1/namespaces/ns/pods` (segments already encoded). */
  path: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | undefined>;
  /** JSON body, sent verbatim. */
  body?: unknown;
  /** Body text sent byte for byte (wins over `body`), for bodies whose exact bytes matter. */
  bodyText?: string;
  /** Content-Type of the body; default `application/json`. */
  contentType?: string;
}

/** A response as received. */
interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * The URL of `call` on the current cluster of `kc` (keeps a path prefix of the server URL).
 * @throws Error when the KubeConfig has no current cluster
 */
export function urlOf(kc: KubeConfig, call: Pick<HttpCall, 'path' | 'query'>): URL {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('the kubeconfig has no current cluster');
  const url = new URL(server);
  url.pathname = `${url.pathname.replace(/\/$/, '')}${call.path}`;
  for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

/**
 * One keep-alive agent per KubeConfig: as long as the KubeConfig lives (lib/kube/connections.ts keeps one per
 * cluster for a Lambda container's life); idle sockets close after {@link IDLE_SOCKET_TIMEOUT_MS}.
 */
const agents = new WeakMap<KubeConfig, http.Agent>();
/** Connections a KubeConfig's pool opens at most ({@link limitConnectionPool}); absent: no limit. */
const poolLimits = new WeakMap<KubeConfig, number>();
/** The HTTP/1.1 watches' own pool of a KubeConfig whose pool is limited ({@link connectionPool}). */
const watchAgents = new WeakMap<KubeConfig, http.Agent>();

/**
 * Limits the connections `kc`'s pool opens to `maxSockets` (more requests at once wait for one to be free), so that
 * a process serving many clusters can count its file descriptors: the watch function's LISTs (a take-over relists
 * every stream at once) and reads (lib/runtime/handlers/watch.ts `WATCH_POOL_SOCKETS`). Watches that go over HTTP/1.1
 * then take a pool of their own, since each holds its connection for a minute. Call it before the first request.
 * @throws RangeError for a `maxSockets` below 1
 */
export function limitConnectionPool(kc: KubeConfig, maxSockets: number): void {
  if (!(maxSockets >= 1)) throw new RangeError(`a pool needs at least one connection, got ${maxSockets}`);
  poolLimits.set(kc, Math.floor(maxSockets));
}

/**
 * Closes the connections of `kc`'s pool at once (idle ones; busy ones after their request) and its HTTP/2 session
 * (./http2Session.ts: its open watches run to their end, no new one starts on it), and forgets both: for a
 * KubeConfig no longer used, e.g. after its cluster's record changed. A later request opens a new pool.
 */
export function closeConnections(kc: KubeConfig): void {
  closeHttp2Session(kc);
  agents.get(kc)?.destroy();
  agents.delete(kc);
  watchAgents.get(kc)?.destroy();
  watchAgents.delete(kc);
}

/**
 * A keep-alive pool: HTTP, or HTTPS with `tls` (CA, client certificate, server name, verification). Sockets idle
 * for `idleTimeoutMs` are destroyed (Node's agent closes a free socket whose timeout fires; busy sockets are left to
 * the request's own deadline) and do not keep the process alive.
 */
export function keepAliveAgent(
  tls: Pick<https.RequestOptions, 'ca' | 'cert' | 'key' | 'servername' | 'rejectUnauthorized'> | 'plain',
  idleTimeoutMs = IDLE_SOCKET_TIMEOUT_MS,
  maxSockets?: number,
): http.Agent {
  const pool = {
    keepAlive: true,
    timeout: idleTimeoutMs,
    ...(maxSockets !== undefined ? { maxSockets } : {}),
  };
  if (tls === 'plain') return new http.Agent(pool);
  return new https.Agent({
    ...pool,
    ca: tls.ca,
    cert: tls.cert,
    key: tls.key,
    servername: tls.servername,
    ...(tls.rejectUnauthorized !== undefined ? { rejectUnauthorized: tls.rejectUnauthorized } : {}),
  });
}

/**
 * The connection pool for `kc`: `applyToHTTPSOptions` makes a new agent — a new TCP and TLS connection — for every
 * request; this keeps one {@link keepAliveAgent} with the same TLS settings instead, so the requests of a pass, and
 * of the next invocations of a warm container, reuse their connections. A proxy agent (the cluster's `proxy-url`)
 * is left as the KubeConfig made it.
 */
function agentFor(kc: KubeConfig, opts: https.RequestOptions, plain: boolean): http.Agent | undefined {
  if (kc.getCurrentCluster()?.proxyUrl) return opts.agent instanceof http.Agent ? opts.agent : undefined;
  let agent = agents.get(kc);
  if (!agent) {
    agent = keepAliveAgent(plain ? 'plain' : opts, IDLE_SOCKET_TIMEOUT_MS, poolLimits.get(kc));
    agents.set(kc, agent);
  }
  return agent;
}

/**
 * `kc`'s connection pool ({@link agentFor}: the one every request of this module uses), for a client that builds
 * its own request — client-node's `Watch` (./watch.ts), which otherwise makes a new agent, so a new TCP connection
 * and TLS handshake (and a TLS context parsed from the CA and key), for every watch. Through the pool a watch the
 * server ended leaves its connection for the next one (a stream's reopen, or any request), and TLS sessions are
 * resumed. A pool limited by {@link limitConnectionPool} is not shared: the watches get an unlimited pool of their own
 * (a watch holds its connection for its whole minute and would starve the LISTs). `undefined` when the KubeConfig's
 * own proxy agent must be used and it made none. The KubeConfig's TLS options are read only while the pool does not
 * exist yet (or for a proxy).
 */
export async function connectionPool(kc: KubeConfig): Promise<http.Agent | undefined> {
  const cluster = kc.getCurrentCluster();
  // the watches of a limited pool take one of their own
  const own = poolLimits.has(kc) && !cluster?.proxyUrl;
  // the TLS options only shape a new pool; a proxy's agent comes with them each time
  const pooled = cluster?.proxyUrl ? undefined : (own ? watchAgents : agents).get(kc);
  if (pooled) return pooled;
  const opts: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(opts);
  const plain = (cluster?.server ?? '').startsWith('http:');
  if (!own) return agentFor(kc, opts, plain);
  const agent = keepAliveAgent(plain ? 'plain' : opts);
  watchAgents.set(kc, agent);
  return agent;
}

/**
 * The error of an attempt that missed its deadline: shaped like Node's socket errors (a string `code`), so
 * {@link attempt} classifies it as a network error, which is retryable.
 */
function timeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`request timed out: no complete response within ${timeoutMs} ms`), {
    code: 'ETIMEDOUT',
  });
}

/**
 * The `User-Agent` of every request Kruiseless sends, in client-go's form (`<product> (<os>/<arch>) …`): what the API
 * server's audit log and its API Priority and Fairness debugging show as the client (kube-controller-manager sends
 * `kube-controller-manager/v1.34.4 (linux/amd64) kubernetes/…`, OpenKruise `manager/…`).
 */
export const USER_AGENT = `kruiseless (${process.platform}/${process.arch}) node/${process.version}`;

/**
 * Sends one request; rejects only when no complete response arrived, or none within `timeoutMs` (the request is
 * then destroyed, its socket closed).
 */
async function send(kc: KubeConfig, call: HttpCall, timeoutMs: number): Promise<HttpResponse> {
  const url = urlOf(kc, call);
  const body = call.bodyText ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
  const opts: https.RequestOptions = {
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port,
    path: `${url.pathname}${url.search}`,
    method: call.method,
    headers: {
      Accept: CONTENT_TYPE.json,
      'User-Agent': USER_AGENT,
      ...(body !== undefined
        ? { 'Content-Type': call.contentType ?? CONTENT_TYPE.json, 'Content-Length': Buffer.byteLength(body) }
        : {}),
    },
  };
  await kc.applyToHTTPSOptions(opts);
  opts.agent = agentFor(kc, opts, url.protocol === 'http:');
  const transport = url.protocol === 'http:' ? http : https;
  return new Promise((resolve, reject) => {
    const fail = (e: Error) => {
      clearTimeout(timer);
      reject(e);
    };
    const req = transport.request(opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    // (`fail` and the response handler run after this line: the request's events are asynchronous)
    const timer = setTimeout(() => req.destroy(timeoutError(timeoutMs)), timeoutMs);
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * The wait a 429/503 asks for, seconds: the `Retry-After` header (delta-seconds form, which the API server sends),
 * else the Status `details.retryAfterSeconds`; undefined when neither is there.
 */
export function retryAfterSeconds(headers: http.IncomingHttpHeaders, body: string): number | undefined {
  const header = Number(headers['retry-after']);
  if (Number.isFinite(header) && header >= 0) return header;
  try {
    const details = (JSON.parse(body) as { details?: { retryAfterSeconds?: unknown } }).details;
    const s = details?.retryAfterSeconds;
    return typeof s === 'number' && s >= 0 ? s : undefined;
  } catch {
    return undefined;
  }
}

/** One attempt: the parsed body of a 2xx response, else a {@link KubeApiError}. */
async function attempt<T>(
  kc: KubeConfig,
  operation: string,
  call: HttpCall,
  observe: RequestObserver | undefined,
  timeoutMs: number,
): Promise<T> {
  let res: HttpResponse;
  const record = (code: string) =>
    observe?.({ method: call.method, resource: resourceOfPath(call.path), code });
  try {
    res = await send(kc, call, timeoutMs);
    record(String(res.status));
  } catch (e) {
    record('<error>');
    // Node's socket errors (ECONNREFUSED, ECONNRESET, ETIMEDOUT, TLS errors) carry a string `code`; they may come
    // from another realm than this module's `Error` (test sandboxes), so they are recognised by shape
    const { code, message } = (typeof e === 'object' && e !== null ? e : {}) as {
      code?: unknown;
      message?: unknown;
    };
    if (typeof code === 'string') {
      const text = typeof message === 'string' ? message : code;
      throw new KubeApiError(operation, 0, REASON_NETWORK_ERROR, text, { cause: e });
    }
    throw e;
  }
  if (res.status < 200 || res.status > 299) {
    const error = kubeApiErrorFromResponse(operation, res.status, res.body);
    if (res.status === 429 || res.status === 503) {
      const wait = retryAfterSeconds(res.headers, res.body);
      if (wait !== undefined) error.retryAfterSeconds = Math.min(wait, MAX_RETRY_AFTER_SECONDS);
    }
    throw error;
  }
  return (res.body === '' ? undefined : JSON.parse(res.body)) as T;
}

/** True for 401 Unauthorized: the credentials were refused (an expired or revoked token). */
function isUnauthorized(e: unknown): boolean {
  return e instanceof KubeApiError && e.statusCode === 401;
}

/**
 * Runs one request against the current cluster of `kc` and returns the response body as parsed JSON.
 * @param operation description for errors, e.g. `patch pod ns/name`
 * @param hooks the attempt deadline, the metrics observer and the credential refresh (see {@link RequestHooks})
 * @returns the response body JSON (`undefined` for an empty body)
 * @throws KubeApiError for API and network errors, after retries for 429/5xx/network errors (a timed-out attempt
 *   is a network error, statusCode 0; a 429/503 with `Retry-After` is retried no sooner than it says, up to
 *   {@link MAX_RETRY_AFTER_SECONDS}); all within `hooks.budgetMs` ({@link DEFAULT_REQUEST_BUDGET_MS}): a retry
 *   that would not fit is not made; a 401 after `hooks.refreshCredentials` and one more try (same budget)
 * @throws RangeError when `hooks.timeoutMs` or `hooks.budgetMs` is not a positive number
 */
export async function requestJson<T>(
  kc: KubeConfig,
  operation: string,
  retry: RetryOptions,
  call: HttpCall,
  hooks: RequestHooks = {},
): Promise<T> {
  const timeoutMs = hooks.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new RangeError(`request timeout must be a positive number of ms, got ${timeoutMs}`);
  const budgetMs = hooks.budgetMs ?? DEFAULT_REQUEST_BUDGET_MS;
  if (!Number.isFinite(budgetMs) || budgetMs <= 0)
    throw new RangeError(`request budget must be a positive number of ms, got ${budgetMs}`);
  const started = Date.now();
  const left = () => budgetMs - (Date.now() - started);
  const run = () =>
    pRetry(
      (n) =>
        attempt<T>(kc, operation, call, hooks.observe, Math.max(1, Math.min(timeoutMs, left()))).catch(
          (e: unknown) => {
            // a retry's error says so: an earlier attempt may have been applied (KubeApiError.attempt)
            if (n > 1 && e instanceof KubeApiError) e.attempt = n;
            throw e;
          },
        ),
      {
        retries: retry.retries,
        minTimeout: retry.minTimeoutMs,
        maxTimeout: MAX_TIMEOUT_MS,
        factor: 2,
        randomize: true,
        maxRetryTime: Math.max(0, budgetMs - MIN_ATTEMPT_MS),
        shouldRetry: ({ error }) => isRetryable(error),
        // p-retry's own backoff follows this wait; together they are at least what the server asked for. A wait
        // that would leave no room for the next attempt within the budget ends the retries here.
        onFailedAttempt: async ({ error, retriesLeft }) => {
          const wait = error instanceof KubeApiError ? error.retryAfterSeconds : undefined;
          if (!wait || retriesLeft <= 0 || !isRetryable(error)) return;
          if (wait * 1000 + MIN_ATTEMPT_MS > left()) throw error;
          await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        },
      },
    );
  try {
    return await run();
  } catch (e) {
    if (!hooks.refreshCredentials || !isUnauthorized(e)) throw e;
    await hooks.refreshCredentials();
    return run();
  }
}
