/**
 * One watch request as a stream of an HTTP/2 session (./http2Session.ts), with the contract of client-node's
 * `Watch.watch`, which ./watch.ts drives over HTTP/1.1: events line by line to `onEvent`, `done` once at the end,
 * and a promise of the controller that aborts it. Unlike client-node's, a refused watch keeps the server's `Status`
 * (./errors.ts), and a line that is not JSON ends the watch with an error instead of being dropped.
 */
import http2 from 'node:http2';
import type https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { KubeApiError, kubeApiErrorFromResponse, REASON_NETWORK_ERROR } from './errors.js';
import { trackStream } from './http2Session.js';
import { urlOf, USER_AGENT } from './request.js';

/** Query parameters of a watch (`watch=true` is added). */
export type WatchQuery = Record<string, string | number | boolean>;

/** The error of a watch whose response headers did not come within `boundMs`. */
export function noResponseError(operation: string, boundMs: number, cause?: unknown): KubeApiError {
  return new KubeApiError(operation, 0, 'Timeout', `no response to the watch within ${boundMs / 1000} s`, {
    cause,
  });
}

/** The request headers of a watch of `kc`: its authorization (token, exec plugin, basic) and ours. */
async function watchHeaders(kc: KubeConfig, pathAndQuery: string): Promise<http2.OutgoingHttpHeaders> {
  const opts: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(opts);
  const headers: http2.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(opts.headers ?? {})) {
    if (v !== undefined) headers[k.toLowerCase()] = v;
  }
  if (opts.auth) headers.authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
  headers[':method'] = 'GET';
  headers[':path'] = pathAndQuery;
  headers['user-agent'] = USER_AGENT;
  headers.accept = 'application/json';
  return headers;
}

/**
 * Starts the watch of `path` with `query` on `session`.
 * @param responseTimeoutMs how long to wait for the response headers, and for the body of a refusal; then `done`
 *   gets {@link noResponseError}
 * @param onEvent each event's `type` and `object`, in order
 * @param done called once: `null` when the server ended the stream (its end, and no error code at its close) or
 *   the controller aborted it; a {@link KubeApiError} for a non-200 answer (its `Status`), a stream that closed
 *   without the server's end (a lost or closed connection, a reset: `statusCode` 0, reason `NetworkError`), a line
 *   that is not JSON, or no response in time
 * @returns the controller that ends the watch (then `done(null)`), as soon as the request is sent, so that an abort
 *   also ends a watch still waiting for its response
 */
export async function watchOverHttp2(
  kc: KubeConfig,
  session: http2.ClientHttp2Session,
  path: string,
  query: WatchQuery,
  responseTimeoutMs: number,
  onEvent: (type: string, object: unknown) => void,
  done: (err: unknown) => void,
): Promise<AbortController> {
  const operation = `watch ${path}`;
  const controller = new AbortController();
  // counted before anything is awaited, so that the session's idle close cannot come between
  const release = trackStream(session);
  let finished = false;
  const finish = (err: unknown) => {
    if (finished) return;
    finished = true;
    done(err);
  };
  let stream: http2.ClientHttp2Stream;
  try {
    const params: Record<string, string> = { watch: 'true' };
    for (const [k, v] of Object.entries(query)) params[k] = String(v);
    const url = urlOf(kc, { path, query: params });
    const headers = await watchHeaders(kc, `${url.pathname}${url.search}`);
    stream = session.request(headers, { endStream: true });
  } catch (e) {
    release();
    finish(watchNetworkError(operation, e));
    return controller;
  }
  stream.once('close', release);

  // until the response and, for a refusal, its whole body
  let waiting: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    finish(noResponseError(operation, responseTimeoutMs));
    stream.close(http2.constants.NGHTTP2_CANCEL);
  }, responseTimeoutMs);
  const stopWaiting = () => {
    clearTimeout(waiting);
    waiting = undefined;
  };
  controller.signal.addEventListener(
    'abort',
    () => {
      stopWaiting();
      finish(null);
      stream.close(http2.constants.NGHTTP2_CANCEL);
    },
    { once: true },
  );
  stream.once('error', (e) => {
    stopWaiting();
    finish(watchNetworkError(operation, e));
  });
  // the server ends a watch with the stream's end, and the stream then closes without an error code; a close
  // without that end, or with a code (Node ends and closes the streams of a lost connection with CANCEL), is none
  let ended = false;
  stream.once('close', () => {
    stopWaiting();
    const code = stream.rstCode ?? http2.constants.NGHTTP2_NO_ERROR;
    if (ended && code === http2.constants.NGHTTP2_NO_ERROR) {
      finish(null);
      return;
    }
    const why = `the stream closed before the server ended the watch (connection lost or closed, or stream reset, HTTP/2 error code ${code})`;
    finish(watchNetworkError(operation, new Error(why)));
  });
  stream.once('response', (h) => {
    const status = Number(h[':status']);
    stream.setEncoding('utf8');
    if (status !== 200) {
      let body = '';
      stream.on('data', (chunk: string) => {
        if (body.length < 65_536) body += chunk;
      });
      stream.once('end', () => {
        stopWaiting();
        finish(kubeApiErrorFromResponse(operation, status, body));
      });
      return;
    }
    stopWaiting();
    let pending = '';
    stream.on('data', (chunk: string) => {
      pending += chunk;
      let nl = pending.indexOf('\n');
      while (nl >= 0 && !finished) {
        const line = pending.slice(0, nl).trim();
        pending = pending.slice(nl + 1);
        if (line !== '') deliver(line);
        nl = pending.indexOf('\n');
      }
    });
    stream.once('end', () => {
      ended = true;
      if (pending.trim() !== '' && !finished) deliver(pending.trim());
    });
  });
  return controller;

  /** Parses one line and hands its event on; a line that is not JSON ends the watch. */
  function deliver(line: string): void {
    let event: { type?: unknown; object?: unknown };
    try {
      event = JSON.parse(line) as { type?: unknown; object?: unknown };
    } catch (e) {
      finish(
        new KubeApiError(operation, 200, 'InternalError', `a watch line is not JSON: ${line.slice(0, 200)}`, {
          cause: e,
        }),
      );
      stream.close(http2.constants.NGHTTP2_CANCEL);
      return;
    }
    onEvent(typeof event.type === 'string' ? event.type : '', event.object);
  }
}

/** A failure of the stream or its connection, as a {@link KubeApiError} without response (`statusCode` 0). */
export function watchNetworkError(operation: string, e: unknown): KubeApiError {
  const message = e instanceof Error ? e.message : String(e);
  return new KubeApiError(operation, 0, REASON_NETWORK_ERROR, message, { cause: e });
}
