/**
 * The HTTP/2 transport of watches (lib/kube/http2Session.ts, lib/kube/http2Watch.ts) against local TLS servers that
 * stand in where the real API server cannot be made to: speak only HTTP/1.1, send a line that is not JSON, go away.
 * That the watches of a cluster share one connection on the real kube-apiserver is
 * test/integration/kube/watchHttp2.test.ts.
 */
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { KubeApiError } from '../../../lib/kube/errors.js';
import { disableHttp2Watches, http1Reason } from '../../../lib/kube/http2Session.js';
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
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise<void>((r) => {
        // Node's server keeps a session whose client has gone until it times out: end them here
        for (const session of sessions) session.destroy();
        server.close(() => r());
      }),
  );
  return { port: (server.address() as AddressInfo).port, seen, sessions };
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
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => server.close(() => r())));
    closers.push(() => server.closeAllConnections());
    const kc = configFor((server.address() as AddressInfo).port);
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
