/**
 * Forwarding a request to the local control plane's API server as its admin: what the fault front (./proxy.ts) and
 * the bench's front of simulated clusters (bench/support/clusterFront.ts) both do before deciding what to pass back.
 */
import type http from 'node:http';
import type http2 from 'node:http2';
import https from 'node:https';
import { forwardableHeaders } from '../../lib/emulator/forwardHeaders.js';
import type { ProxyTls } from './proxy.js';

/** A request as a front receives it: HTTP/1.1, or a stream of an HTTP/2 connection (Node's compatibility API). */
export type FrontRequest = http.IncomingMessage | http2.Http2ServerRequest;
/** The answer to a {@link FrontRequest}. */
export type FrontResponse = http.ServerResponse | http2.Http2ServerResponse;

/**
 * A kept-alive pool towards the API server: its CA, and the admin client pair every request is sent with. No socket
 * limit (Node's default): watches hold theirs open.
 */
export function upstreamAgent(tls: Pick<ProxyTls, 'ca' | 'clientCert' | 'clientKey'>): https.Agent {
  return new https.Agent({ keepAlive: true, ca: tls.ca, cert: tls.clientCert, key: tls.clientKey });
}

/**
 * Send `req` (its method, headers less the hop-by-hop ones, `host` replaced, and body) to `upstream` at `path` over
 * `agent`; `onAnswer` gets the API server's answer. A failed upstream request closes the client's connection; a
 * client that goes away ends the upstream request.
 * @param upstream the API server, e.g. `https://127.0.0.1:41234`
 * @param path path and query as the API server is to receive them
 */
export function sendUpstream(
  req: FrontRequest,
  res: FrontResponse,
  to: { upstream: URL; agent: https.Agent; path: string },
  onAnswer: (answer: http.IncomingMessage) => void,
): void {
  const headers = { ...forwardableHeaders(req.headers), host: to.upstream.host };
  const up = https.request({
    host: to.upstream.hostname,
    port: to.upstream.port,
    method: req.method,
    path: to.path,
    headers,
    agent: to.agent,
  });
  // an HTTP/1.1 client loses its connection, an HTTP/2 client this stream
  up.on('error', () => res.destroy());
  res.on('close', () => up.destroy());
  up.on('response', onAnswer);
  req.pipe(up);
}

/** Pass the API server's `answer` to the client as it came: status, headers less the hop-by-hop ones, body. */
export function passAnswer(res: FrontResponse, answer: http.IncomingMessage): void {
  res.writeHead(answer.statusCode ?? 502, forwardableHeaders(answer.headers));
  answer.pipe(res);
}
