/**
 * The HTTP/2 transport of watches (lib/kube/http2Session.ts, lib/kube/http2Watch.ts) against local TLS servers that
 * stand in where the real API server cannot be made to: speak only HTTP/1.1, send a line that is not JSON, go away.
 * That the watches of a cluster share one connection on the real kube-apiserver is
 * test/integration/kube/watchHttp2.test.ts.
 */
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import http2 from 'node:http2';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { KubeApiError } from '../../../lib/kube/errors.js';
import {
  disableHttp2Watches,
  http1Reason,
  HTTP2_CONNECT_TIMEOUT_MS,
} from '../../../lib/kube/http2Session.js';
import { closeConnections, USER_AGENT } from '../../../lib/kube/request.js';
import { watchOnce } from '../../../lib/kube/watch.js';
import { conversionCertificates } from '../../../lib/local/conversionServer.js';

let pki: { caPem: string; cert: string; key: string };
beforeAll(async () => {
  pki = await conversionCertificates('127.0.0.1');
});

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/**
 * Listens on a free loopback port; after the test, `drop` ends what the server still holds (Node's servers keep a
 * connection or session whose client has gone until it times out), then the server closes. @returns the port
 */
async function listenForTest(server: net.Server, drop: () => void): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise<void>((r) => {
        drop();
        server.close(() => r());
      }),
  );
  return (server.address() as AddressInfo).port;
}

/** A KubeConfig for `port` trusting the test CA, with a bearer token. */
function configFor(port: number): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser(
    {
      name: 'c',
      server: `https://127.0.0.1:${port}`,
      caData: Buffer.from(pki.caPem).toString('base64'),
      skipTLSVerify: false,
    },
    { name: 'u', token: 't0ken' },
  );
  closers.push(() => closeConnections(kc));
  return kc;
}

interface Seen {
  protocol: string;
  authorization?: string;
  userAgent?: string;
  path?: string;
}

/** An HTTP/2 server (HTTP/1.1 allowed too) answering each watch with `lines`, then ending it. */
async function h2Server(
  lines: string[],
): Promise<{ port: number; seen: Seen[]; sessions: http2.ServerHttp2Session[] }> {
  const seen: Seen[] = [];
  const sessions: http2.ServerHttp2Session[] = [];
  const server = http2.createSecureServer({ cert: pki.cert, key: pki.key, allowHTTP1: true }, (req, res) => {
    seen.push({
      protocol: req.httpVersion,
      authorization: req.headers.authorization,
      userAgent: req.headers['user-agent'],
      path: req.url,
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    for (const l of lines) res.write(`${l}\n`);
    setTimeout(() => res.end(), 10);
  });
  server.on('session', (session) => sessions.push(session));
  const port = await listenForTest(server, () => sessions.forEach((session) => session.destroy()));
  return { port, seen, sessions };
}

const BOOKMARK = '{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"7"}}}';
const opts = { timeoutSeconds: 5, allowBookmarks: true as const };

describe('watches over HTTP/2', () => {
  it('sends the token and User-Agent on an HTTP/2 stream, with the watch query', async () => {
    const srv = await h2Server([BOOKMARK]);
    const kc = configFor(srv.port);
    await expect(
      watchOnce(kc, '/api/v1/pods', { ...opts, resourceVersion: '3' }, () => undefined),
    ).resolves.toEqual({
      resourceVersion: '7',
      gone: false,
    });
    expect(srv.seen).toEqual([
      {
        protocol: '2.0',
        authorization: 'Bearer t0ken',
        userAgent: USER_AGENT,
        path: '/api/v1/pods?watch=true&allowWatchBookmarks=true&timeoutSeconds=5&resourceVersion=3',
      },
    ]);
    expect(http1Reason(kc)).toBeUndefined();
  });

  it('falls back to HTTP/1.1, one probe connection once, when the server does not take h2', async () => {
    let connections = 0;
    const server = https.createServer({ cert: pki.cert, key: pki.key }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`${BOOKMARK}\n`);
    });
    server.on('connection', () => connections++);
    const kc = configFor(await listenForTest(server, () => server.closeAllConnections()));
    for (let i = 0; i < 3; i++)
      await expect(watchOnce(kc, '/api/v1/pods', opts, () => undefined)).resolves.toEqual({
        resourceVersion: '7',
        gone: false,
      });
    expect(http1Reason(kc)).toMatch(/^server chose (http\/1\.1|no protocol)$/);
    expect(connections).toBe(2); // the ALPN probe, then the pool's one connection for three watches
  });

  it('stays on HTTP/1.1 when told to, even with a server that takes h2', async () => {
    const srv = await h2Server([BOOKMARK]);
    const kc = configFor(srv.port);
    disableHttp2Watches(kc);
    await watchOnce(kc, '/api/v1/pods', opts, () => undefined);
    expect(srv.seen.map((s) => s.protocol)).toEqual(['1.1']);
    expect(http1Reason(kc)).toBe('disabled');
  });

  it('ends the watch with an error at a line that is not JSON, after delivering the lines before it', async () => {
    const srv = await h2Server([
      BOOKMARK,
      '{"type":"ADDED","object":{"metadata":{"name":"a","resourceVersion":"8"}}}',
      'not json',
    ]);
    const kc = configFor(srv.port);
    const types: string[] = [];
    const error = await watchOnce(kc, '/api/v1/pods', opts, (type) => types.push(type)).catch(
      (e: unknown) => e,
    );
    expect(types).toEqual(['BOOKMARK', 'ADDED']);
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as KubeApiError).apiMessage).toBe('a watch line is not JSON: not json');
  });

  it('shares one session among watches, and opens a new one after the server goes away', async () => {
    const srv = await h2Server([BOOKMARK]);
    const kc = configFor(srv.port);
    await Promise.all([1, 2, 3].map(() => watchOnce(kc, '/api/v1/pods', opts, () => undefined)));
    expect(srv.sessions).toHaveLength(1);
    // the server tells the client to go away (as an API server that is shutting down does)
    srv.sessions[0]?.goaway();
    await new Promise((r) => setTimeout(r, 100));
    await watchOnce(kc, '/api/v1/pods', opts, () => undefined);
    expect(srv.sessions).toHaveLength(2);
    expect(srv.seen).toHaveLength(4);
  });
});

/** An HTTP/2 server whose streams `onStream` answers as it likes (it may never answer). */
async function rawH2Server(onStream: (stream: http2.ServerHttp2Stream) => void): Promise<number> {
  const sessions: http2.ServerHttp2Session[] = [];
  const server = http2.createSecureServer({ cert: pki.cert, key: pki.key });
  server.on('session', (s) => sessions.push(s));
  server.on('stream', onStream);
  return listenForTest(server, () => sessions.forEach((session) => session.destroy()));
}

/** How long `p` took to settle, ms, and what it settled with. */
async function timed(p: Promise<unknown>): Promise<{ ms: number; value: unknown }> {
  const t0 = Date.now();
  const value = await p.catch((e: unknown) => e);
  return { ms: Date.now() - t0, value };
}

describe('watches over HTTP/2 that go wrong (found in review, 2026-12-08)', () => {
  it('a stream reset without an error code before any answer is no end of the watch', async () => {
    const port = await rawH2Server((stream) => stream.close(http2.constants.NGHTTP2_NO_ERROR));
    const error = await watchOnce(configFor(port), '/api/v1/pods', opts, () => undefined).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as KubeApiError).reason).toBe('NetworkError');
  });

  it('an abort ends a watch still waiting for its response at once', async () => {
    const port = await rawH2Server(() => undefined); // never answers
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    const { ms, value } = await timed(
      watchOnce(configFor(port), '/api/v1/pods', { ...opts, signal: stop.signal }, () => undefined),
    );
    expect(value).toEqual({ resourceVersion: '', gone: false });
    expect(ms).toBeLessThan(2_000); // it waited for the whole bound (5 s + grace) before
  });

  it('a refusal whose body never ends is bounded, and an abort ends it', async () => {
    const port = await rawH2Server((stream) => {
      stream.respond({ ':status': 503, 'content-type': 'application/json' });
      stream.write('{"kind":"Status",');
    });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    const { ms, value } = await timed(
      watchOnce(configFor(port), '/api/v1/pods', { ...opts, signal: stop.signal }, () => undefined),
    );
    expect(value).toEqual({ resourceVersion: '', gone: false });
    expect(ms).toBeLessThan(2_000); // it never settled before
  });

  it('a peer that never completes the TLS handshake fails the watch within the connect timeout', async () => {
    const silent = net.createServer(() => undefined); // accepts, says nothing
    const sockets: net.Socket[] = [];
    silent.on('connection', (s) => sockets.push(s));
    const port = await listenForTest(silent, () => sockets.forEach((s) => s.destroy()));
    const { ms, value } = await timed(watchOnce(configFor(port), '/api/v1/pods', opts, () => undefined));
    expect(value).toBeInstanceOf(KubeApiError);
    expect((value as KubeApiError).apiMessage).toBe(
      `no TLS handshake within ${HTTP2_CONNECT_TIMEOUT_MS / 1000} s`,
    );
    expect(ms).toBeLessThan(HTTP2_CONNECT_TIMEOUT_MS + 2_000); // it never settled before
  }, 30_000);

  it('closing the connections lets an open watch run to the server’s end of it', async () => {
    const port = await rawH2Server((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/json' });
      stream.write(`${BOOKMARK}\n`);
      setTimeout(() => stream.end(), 300);
    });
    const kc = configFor(port);
    const watching = watchOnce(kc, '/api/v1/pods', opts, () => undefined);
    await new Promise((r) => setTimeout(r, 100));
    closeConnections(kc);
    await expect(watching).resolves.toEqual({ resourceVersion: '7', gone: false });
  });
});
