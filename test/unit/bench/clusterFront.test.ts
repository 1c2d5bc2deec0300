/**
 * The fleet's front of simulated clusters (bench/support/clusterFront.ts): which path each request of a simulated
 * cluster reaches the API server at. The upstream here is a stand-in HTTPS server (test/unit/faults/support/standIn.ts;
 * not a kube-apiserver: this checks the front's paths and its TLS towards the API server; the bench's fleet part runs
 * it before the real one) that answers discovery for `v1` (pods namespaced, nodes not) and `apps.kruise.io/v1alpha1`
 * (clonesets namespaced).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import http2 from 'node:http2';
import type { TLSSocket } from 'node:tls';
import { startStandIn, type StandIn } from '../faults/support/standIn.js';
import { ClusterFront, routeOf, scopedPath } from '../../../bench/support/clusterFront.js';
import { conversionCertificates } from '../../../lib/local/conversionServer.js';

describe('routeOf and scopedPath', () => {
  it('takes the cluster index off the path and keeps the query', () => {
    expect(routeOf('/clusters/7/api/v1/namespaces/a/pods/p?x=1')).toEqual({
      cluster: 7,
      upstreamPath: '/api/v1/namespaces/a/pods/p?x=1',
    });
    expect(routeOf('/clusters/0')).toEqual({ cluster: 0, upstreamPath: '/' });
    expect(routeOf('/clusters/3/version')).toEqual({ cluster: 3, upstreamPath: '/version' });
  });

  it('names the resource of an all-namespaces collection request, core and grouped', () => {
    expect(routeOf('/clusters/2/api/v1/pods?watch=true&resourceVersion=5')).toEqual({
      cluster: 2,
      upstreamPath: '/api/v1/pods?watch=true&resourceVersion=5',
      collection: { groupVersion: 'v1', resource: 'pods' },
    });
    expect(routeOf('/clusters/2/apis/apps.kruise.io/v1alpha1/clonesets')?.collection).toEqual({
      groupVersion: 'apps.kruise.io/v1alpha1',
      resource: 'clonesets',
    });
    // discovery of a group version, an object, a namespaced collection: no collection to scope
    expect(routeOf('/clusters/2/api/v1')?.collection).toBeUndefined();
    expect(routeOf('/clusters/2/apis/apps/v1')?.collection).toBeUndefined();
    expect(routeOf('/clusters/2/api/v1/namespaces/a/pods')?.collection).toBeUndefined();
  });

  it('refuses what is outside /clusters/<i>', () => {
    expect(routeOf('/api/v1/pods')).toBeUndefined();
    expect(routeOf('/clusters/x/api/v1/pods')).toBeUndefined();
    expect(routeOf('/clustersX/1/api')).toBeUndefined();
  });

  it('puts the namespace in before the resource, query kept', () => {
    const core = routeOf('/clusters/1/api/v1/pods?labelSelector=a%3Db&watch=true')!;
    expect(scopedPath(core, 'ns-1')).toBe('/api/v1/namespaces/ns-1/pods?labelSelector=a%3Db&watch=true');
    const grouped = routeOf('/clusters/1/apis/apps.kruise.io/v1alpha1/clonesets')!;
    expect(scopedPath(grouped, 'ns-1')).toBe('/apis/apps.kruise.io/v1alpha1/namespaces/ns-1/clonesets');
    expect(() => scopedPath(routeOf('/clusters/1/version')!, 'ns-1')).toThrow(
      'not a collection request: /version',
    );
  });
});

describe('ClusterFront', () => {
  const seen: string[] = [];
  let upstream: StandIn;
  let front: ClusterFront;
  let frontUrl: string;

  const DISCOVERY: Record<string, unknown> = {
    '/api/v1': {
      resources: [
        { name: 'pods', namespaced: true },
        { name: 'nodes', namespaced: false },
      ],
    },
    '/apis/apps.kruise.io/v1alpha1': { resources: [{ name: 'clonesets', namespaced: true }] },
  };

  /** The stand-in API server: records each request with the client certificate's CN (the front's admin pair). */
  function answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = req.url ?? '';
    const cn = String((req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? '');
    if (cn !== 'admin') throw new Error(`the front forwarded as "${cn}", not the admin client pair`);
    const discovery = DISCOVERY[url];
    if (discovery === undefined) seen.push(`${req.method ?? ''} ${url}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(discovery ?? { path: url }));
  }

  /** GET through the front as a simulated cluster's client does (plain HTTP, no credentials). */
  async function get(p: string): Promise<{ status: number; body: string }> {
    const url = new URL(`${frontUrl}${p}`);
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}` },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  beforeAll(async () => {
    upstream = await startStandIn('cluster-front-', answer);
    front = new ClusterFront({
      upstream: upstream.url,
      tls: upstream.tls,
      namespaceOf: (i) => (i < 3 ? `fleet-ns-${i}` : undefined),
    });
    frontUrl = await front.start();
  }, 60_000);

  afterAll(async () => {
    await front.close();
    await upstream.close();
  });

  beforeEach(() => {
    seen.length = 0;
  });

  it("scopes a namespaced collection to the cluster's namespace and passes the rest through", async () => {
    expect(frontUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ClusterFront.clusterServer(frontUrl, 2)).toBe(`${frontUrl}/clusters/2`);
    await get('/clusters/1/api/v1/pods?watch=true&labelSelector=x');
    await get('/clusters/2/apis/apps.kruise.io/v1alpha1/clonesets');
    await get('/clusters/2/api/v1/nodes');
    await get('/clusters/0/api/v1/namespaces/other/pods/p');
    await get('/clusters/0/apis/unknown.io/v1/things');
    expect(seen).toEqual([
      'GET /api/v1/namespaces/fleet-ns-1/pods?watch=true&labelSelector=x',
      'GET /apis/apps.kruise.io/v1alpha1/namespaces/fleet-ns-2/clonesets',
      'GET /api/v1/nodes',
      'GET /api/v1/namespaces/other/pods/p',
      // a group version whose discovery names no resource: asked once, then passed through
      'GET /apis/unknown.io/v1',
      'GET /apis/unknown.io/v1/things',
    ]);
    expect(front.forwarded()).toMatchObject({
      requests: 5,
      watches: 1,
      openWatches: 0,
      scoped: 2,
      http2Requests: 0,
    });
  });

  it('serves TLS with HTTP/2 when given a certificate: the watches of a cluster are streams of one connection', async () => {
    const pki = await conversionCertificates('127.0.0.1');
    const tlsFront = new ClusterFront({
      upstream: upstream.url,
      tls: upstream.tls,
      namespaceOf: (i) => (i < 3 ? `fleet-ns-${i}` : undefined),
      serve: { cert: pki.cert, key: pki.key },
    });
    const url = await tlsFront.start();
    try {
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const session = http2.connect(url, { ca: pki.caPem });
      const statuses = await Promise.all(
        ['a', 'b'].map(
          (label) =>
            new Promise<number>((resolve, reject) => {
              const s = session.request({
                ':path': `/clusters/1/api/v1/pods?watch=true&labelSelector=${label}`,
              });
              let status = 0;
              s.on('response', (h) => (status = Number(h[':status'])));
              s.on('error', reject);
              s.resume();
              s.on('end', () => resolve(status));
            }),
        ),
      );
      session.close();
      expect(statuses).toEqual([200, 200]);
      expect(seen.sort()).toEqual([
        'GET /api/v1/namespaces/fleet-ns-1/pods?watch=true&labelSelector=a',
        'GET /api/v1/namespaces/fleet-ns-1/pods?watch=true&labelSelector=b',
      ]);
      expect(tlsFront.forwarded()).toMatchObject({ requests: 2, watches: 2, http2Requests: 2 });
    } finally {
      await tlsFront.close();
    }
  });

  it('answers 404 for a cluster it does not present, and forwards nothing', async () => {
    expect(await get('/clusters/3/api/v1/pods')).toEqual({
      status: 404,
      body: 'no such simulated cluster\n',
    });
    expect(await get('/api/v1/pods')).toMatchObject({ status: 404 });
    expect(seen).toEqual([]);
  });
});
