/**
 * One API-server call through a typed `@kubernetes/client-node` 1.4 API, with plain JSON in and out, and
 * retries with exponential backoff (p-retry) for 429, 5xx and network errors.
 *
 * Why raw JSON: client-node deserialises responses into model classes (timestamps become `Date`, unknown fields
 * are dropped) and serialises request bodies through the same models (fields the model does not know are
 * pruned). The planner works on the API server's JSON (RFC 3339 strings, every field kept, docs/architecture.md#lib-cloneset), so
 * a middleware sends the request body verbatim and captures the response body text, which is what we return.
 */
import {
  Observable,
  ResponseContext,
  SelfDecodingBody,
  setHeaderOptions,
  type ConfigurationOptions,
  type ObservableMiddleware,
  type RequestContext,
} from '@kubernetes/client-node';
import pRetry from 'p-retry';
import { isRetryable, toKubeApiError } from './errors.js';

/** Retry policy of a client: `retries` extra attempts, first wait `minTimeoutMs` (ms), doubling, jittered. */
export interface RetryOptions {
  retries: number;
  minTimeoutMs: number;
}

/** Default policy: 4 retries, 200 ms doubling up to 5 s (about 3 s in the worst case before jitter). */
export const DEFAULT_RETRY: RetryOptions = { retries: 4, minTimeoutMs: 200 };

/** Longest wait between two attempts (ms). */
const MAX_TIMEOUT_MS = 5000;

/** What one attempt sends besides the typed call's own arguments. */
export interface RawRequestOptions {
  /** Request body sent verbatim as JSON (replaces the typed serialiser's output). */
  body?: unknown;
  /** Request body text sent byte for byte (wins over `body`), for bodies whose exact bytes matter. */
  bodyText?: string;
  /** Content-Type header, e.g. a `PatchStrategy` value (set with client-node's `setHeaderOptions`). */
  contentType?: string;
}

/** A middleware that sends `raw.body` verbatim and records the response body bytes. */
function captureMiddleware(raw: RawRequestOptions, sink: { body?: Buffer }): ObservableMiddleware {
  return {
    pre(ctx: RequestContext): Observable<RequestContext> {
      if (raw.bodyText !== undefined) ctx.setBody(raw.bodyText);
      else if (raw.body !== undefined) ctx.setBody(JSON.stringify(raw.body));
      return new Observable(Promise.resolve(ctx));
    },
    post(rsp: ResponseContext): Observable<ResponseContext> {
      return new Observable(
        rsp.body.binary().then((buf) => {
          sink.body = buf;
          return new ResponseContext(
            rsp.httpStatusCode,
            rsp.headers,
            new SelfDecodingBody(Promise.resolve(buf)),
          );
        }),
      );
    },
  };
}

/**
 * Runs one typed client-node call and returns the response body as parsed JSON.
 * @param operation description for errors, e.g. `patch pod ns/name`
 * @param send invokes the typed API with the given per-request options (call it once per attempt)
 * @returns the response body JSON (`undefined` for an empty body)
 * @throws KubeApiError for API and network errors, after retries for 429/5xx/network errors
 */
export async function requestJson<T>(
  operation: string,
  retry: RetryOptions,
  send: (options: ConfigurationOptions) => Promise<unknown>,
  raw: RawRequestOptions = {},
): Promise<T> {
  return pRetry(
    async () => {
      const sink: { body?: Buffer } = {};
      try {
        const options: ConfigurationOptions = {
          middleware: [captureMiddleware(raw, sink)],
          middlewareMergeStrategy: 'append',
        };
        await send(raw.contentType ? setHeaderOptions('Content-Type', raw.contentType, options) : options);
      } catch (e) {
        throw toKubeApiError(e, operation);
      }
      const text = sink.body?.toString('utf8') ?? '';
      return (text === '' ? undefined : JSON.parse(text)) as T;
    },
    {
      retries: retry.retries,
      minTimeout: retry.minTimeoutMs,
      maxTimeout: MAX_TIMEOUT_MS,
      factor: 2,
      randomize: true,
      shouldRetry: ({ error }) => isRetryable(error),
    },
  );
}
