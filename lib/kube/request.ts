/**
 * One API-server call as plain HTTP: method, path, query and a JSON body in, the response's JSON out, with the
 * connection and authentication of a client-node `KubeConfig` (`applyToHTTPSOptions`: CA, client certificate,
 * bearer token or exec plugin, proxy agent), and retries with exponential backoff (p-retry) for 429, 5xx and
 * network errors; a 429 or 503 waits at least what its `Retry-After` asks.
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
  const rest = parts[0] === 'api' ? parts.slice(2) : parts.slice(3);
  const named = rest[0] === 'namespaces' && rest.length > 2 ? rest.slice(2) : rest;
  return named[0] ?? 'unknown';
}

/** Default policy: 4 retries, 200 ms doubling up to 5 s (about 3 s in the worst case before jitter). */
export const DEFAULT_RETRY: RetryOptions = { retries: 4, minTimeoutMs: 200 };

/** Longest backoff between two attempts (ms). */
const MAX_TIMEOUT_MS = 5000;
/** Longest `Retry-After` honoured (s): a Lambda invocation has 120 s in all; longer waits go to the next pass. */
export const MAX_RETRY_AFTER_SECONDS = 30;

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

/** The URL of `call` on the current cluster of `kc` (keeps a path prefix of the server URL). */
function urlOf(kc: KubeConfig, call: HttpCall): URL {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('the kubeconfig has no current cluster');
  const url = new URL(server);
  url.pathname = `${url.pathname.replace(/\/$/, '')}${call.path}`;
  for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

/** One keep-alive agent per KubeConfig (a client's lifetime, a Lambda container's for the AWS runtime). */
const agents = new WeakMap<KubeConfig, http.Agent>();

/**
 * The connection pool for `kc`: `applyToHTTPSOptions` makes a new agent — a new TCP and TLS connection — for every
 * request; this keeps one keep-alive agent with the same TLS settings (CA, client certificate, server name,
 * verification) instead, so the writes of a pass reuse their connections. A proxy agent (the cluster's
 * `proxy-url`) is left as the KubeConfig made it.
 */
function agentFor(kc: KubeConfig, opts: https.RequestOptions, plain: boolean): http.Agent | undefined {
  if (kc.getCurrentCluster()?.proxyUrl) return opts.agent instanceof http.Agent ? opts.agent : undefined;
  let agent = agents.get(kc);
  if (!agent) {
    agent = plain
      ? new http.Agent({ keepAlive: true })
      : new https.Agent({
          keepAlive: true,
          ca: opts.ca,
          cert: opts.cert,
          key: opts.key,
          servername: opts.servername,
          ...(opts.rejectUnauthorized !== undefined ? { rejectUnauthorized: opts.rejectUnauthorized } : {}),
        });
    agents.set(kc, agent);
  }
  return agent;
}

/** Sends one request; rejects only when no response arrived. */
async function send(kc: KubeConfig, call: HttpCall): Promise<HttpResponse> {
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
      ...(body !== undefined
        ? { 'Content-Type': call.contentType ?? CONTENT_TYPE.json, 'Content-Length': Buffer.byteLength(body) }
        : {}),
    },
  };
  await kc.applyToHTTPSOptions(opts);
  opts.agent = agentFor(kc, opts, url.protocol === 'http:');
  const transport = url.protocol === 'http:' ? http : https;
  return new Promise((resolve, reject) => {
    const req = transport.request(opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
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
): Promise<T> {
  let res: HttpResponse;
  const record = (code: string) =>
    observe?.({ method: call.method, resource: resourceOfPath(call.path), code });
  try {
    res = await send(kc, call);
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

/**
 * Runs one request against the current cluster of `kc` and returns the response body as parsed JSON.
 * @param operation description for errors, e.g. `patch pod ns/name`
 * @param observe told about every attempt (metrics)
 * @returns the response body JSON (`undefined` for an empty body)
 * @throws KubeApiError for API and network errors, after retries for 429/5xx/network errors (a 429/503 with
 *   `Retry-After` is retried no sooner than it says, up to {@link MAX_RETRY_AFTER_SECONDS})
 */
export function requestJson<T>(
  kc: KubeConfig,
  operation: string,
  retry: RetryOptions,
  call: HttpCall,
  observe?: RequestObserver,
): Promise<T> {
  return pRetry(() => attempt<T>(kc, operation, call, observe), {
    retries: retry.retries,
    minTimeout: retry.minTimeoutMs,
    maxTimeout: MAX_TIMEOUT_MS,
    factor: 2,
    randomize: true,
    shouldRetry: ({ error }) => isRetryable(error),
    // p-retry's own backoff follows this wait; together they are at least what the server asked for
    onFailedAttempt: async ({ error, retriesLeft }) => {
      const wait = error instanceof KubeApiError ? error.retryAfterSeconds : undefined;
      if (wait && retriesLeft > 0 && isRetryable(error))
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    },
  });
}
