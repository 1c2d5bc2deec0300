/**
 * Watches share the cluster's connection pool with every other request (lib/kube/request.ts `connectionPool`):
 * client-node's `Watch` made a new agent for each watch, so each watch opened its own TCP connection (and on a real
 * cluster its own TLS handshake) — 17 a cluster each watch round, and one more for every reopened stream. Through
 * the pool, a watch the server ended leaves its connection to the next watch and to the pass's requests.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import {
  closeConnections,
  connectionPool,
  limitConnectionPool,
  requestJson,
} from '../../../lib/kube/request.js';
import { watchOnce } from '../../../lib/kube/watch.js';
import { answer, fakeApiServer, POD_LIST, type FakeApiServer } from './support/fakeApiServer.js';

const servers: FakeApiServer[] = [];
const configs: KubeConfig[] = [];
afterEach(async () => {
  for (const kc of configs.splice(0)) closeConnections(kc);
  for (const srv of servers.splice(0)) await srv.close();
});

/** A KubeConfig of `server` (TLS unchecked, a token), closed after the test. */
function fakeConfig(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: 'fake', server, skipTLSVerify: true }, { name: 'u', token: 't' });
  configs.push(kc);
  return kc;
}

describe('watchOnce and the connection pool', () => {
  it('runs three watches one after the other and a LIST on one connection', async () => {
    const srv = await fakeApiServer((req, res) => {
      if (!req.url?.includes('watch=true')) return answer(res, 200, POD_LIST);
      // a watch the server ends at its timeout: one bookmark, then the end of the chunked body
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"5"}}}\n');
      setTimeout(() => res.end(), 20);
    });
    servers.push(srv);
    const kc = fakeConfig(srv.url);
    for (let i = 0; i < 3; i++)
      await expect(
        watchOnce(kc, '/api/v1/pods', { timeoutSeconds: 1, allowBookmarks: true }, () => undefined),
      ).resolves.toEqual({ resourceVersion: '5', gone: false });
    await requestJson(
      kc,
      'list pods',
      { retries: 0, minTimeoutMs: 10 },
      { method: 'GET', path: '/api/v1/pods' },
    );
    expect(srv.seen.map((r) => r.url.split('?')[0])).toEqual([
      '/api/v1/pods',
      '/api/v1/pods',
      '/api/v1/pods',
      '/api/v1/pods',
    ]);
    expect(srv.connections).toBe(1);
  });

  it('reads the TLS options once, for the pool it makes; later watches get the same pool without them', async () => {
    const kc = fakeConfig('https://127.0.0.1:1');
    let reads = 0;
    const apply = kc.applyToHTTPSOptions.bind(kc);
    kc.applyToHTTPSOptions = async (opts) => {
      reads++;
      return apply(opts);
    };
    const pools = [await connectionPool(kc), await connectionPool(kc), await connectionPool(kc)];
    expect(pools[0]).toBeDefined();
    expect(new Set(pools).size).toBe(1);
    expect(reads).toBe(1); // 3 before
  });

  it('a limited pool opens at most its connections for many LISTs at once, and its watches take a pool of their own', async () => {
    let open = 0;
    let most = 0;
    const srv = await fakeApiServer((req, res) => {
      if (req.url?.includes('watch=true')) {
        // a watch the server holds open until its end
        res.writeHead(200, { 'content-type': 'application/json' });
        setTimeout(() => res.end(), 600);
        return;
      }
      open++;
      most = Math.max(most, open);
      setTimeout(() => {
        open--;
        answer(res, 200, POD_LIST);
      }, 50);
    });
    servers.push(srv);
    const kc = fakeConfig(srv.url);
    limitConnectionPool(kc, 2);
    // two watches over HTTP/1.1 (a plain server) hold their connections meanwhile
    const watches = [1, 2].map(() =>
      watchOnce(kc, '/api/v1/pods', { timeoutSeconds: 1, allowBookmarks: true }, () => undefined),
    );
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        requestJson(
          kc,
          `list ${i}`,
          { retries: 0, minTimeoutMs: 10 },
          { method: 'GET', path: '/api/v1/pods' },
        ),
      ),
    );
    await Promise.all(watches);
    expect(most).toBe(2);
    expect(srv.connections).toBe(4); // two for the LISTs, one for each watch
    expect(() => limitConnectionPool(kc, 0)).toThrow(RangeError);
  });
});
