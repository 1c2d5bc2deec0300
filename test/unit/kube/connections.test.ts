/**
 * One connection per cluster for a container's life (lib/kube/connections.ts; review findings 15 and 16): what two
 * invocations of a warm Lambda container share, when the token is replaced, and what a changed record does.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createEksTokenProvider, type ClusterRecord, type EksAuth } from '../../../lib/kube/config.js';
import { createClusterConnections, type ClusterConnections } from '../../../lib/kube/connections.js';
import type { EksToken } from '../../../lib/kube/eksToken.js';
import { http1Reason } from '../../../lib/kube/http2Session.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import {
  answer,
  eventually,
  fakeApiServer,
  POD_LIST,
  status,
  type FakeApiServer,
} from './support/fakeApiServer.js';

const MIN = 60_000;
const T0 = 1_700_000_000_000;
const servers: FakeApiServer[] = [];
const caches: ClusterConnections[] = [];

/** A token signer on a fake clock: token `t<n>` for the n-th signing, valid 14 minutes. */
function signer(clock: { now: number }) {
  const signed: EksAuth[] = [];
  const sign = async (auth: EksAuth): Promise<EksToken> => {
    signed.push(auth);
    return { token: `t${signed.length}`, expiresAt: new Date(clock.now + 14 * MIN) };
  };
  return { signed, sign };
}

async function setUp(
  handler: Parameters<typeof fakeApiServer>[0] = (_req, res) => answer(res, 200, POD_LIST),
) {
  const srv = await fakeApiServer(handler);
  servers.push(srv);
  const clock = { now: T0 };
  const { signed, sign } = signer(clock);
  const connections = createClusterConnections({
    tokenProvider: createEksTokenProvider({ sign, clock: () => clock.now }),
    client: { retry: { retries: 0, minTimeoutMs: 10 } },
  });
  caches.push(connections);
  const record: ClusterRecord = {
    name: 'prod',
    endpoint: srv.url,
    auth: { type: 'eks', clusterName: 'prod', region: 'eu-west-1' },
  };
  return { srv, clock, signed, connections, record };
}

afterEach(async () => {
  for (const c of caches.splice(0)) c.close();
  for (const srv of servers.splice(0)) await srv.close();
});

describe('createClusterConnections', () => {
  it('gives two invocations with the same record the same client over one TLS/TCP connection', async () => {
    const { srv, connections, record, signed } = await setUp();
    const first = await connections.connect(record);
    await first.kube.list(RESOURCES.pods, { namespace: 'ns' });
    const second = await connections.connect({ ...record });
    await second.kube.list(RESOURCES.pods, { namespace: 'ns' });
    expect(second.kube).toBe(first.kube);
    expect(second.kc).toBe(first.kc);
    expect(srv.connections).toBe(1);
    expect(signed).toHaveLength(1);
  });

  it('replaces the token in place once less than 3 minutes of it are left, keeping the connection', async () => {
    const { srv, connections, record, clock } = await setUp();
    await (await connections.connect(record)).kube.list(RESOURCES.pods, { namespace: 'ns' });
    clock.now = T0 + 11 * MIN; // 3 minutes left: still good for the longest invocation
    await (await connections.connect(record)).kube.list(RESOURCES.pods, { namespace: 'ns' });
    clock.now = T0 + 11 * MIN + 1;
    await (await connections.connect(record)).kube.list(RESOURCES.pods, { namespace: 'ns' });
    expect(srv.seen.map((s) => s.authorization)).toEqual(['Bearer t1', 'Bearer t1', 'Bearer t2']);
    expect(srv.connections).toBe(1);
  });

  it('a request refused with 401 is sent again once with a freshly signed token', async () => {
    const { srv, connections, record } = await setUp((req, res) =>
      req.headers.authorization === 'Bearer t2'
        ? answer(res, 200, POD_LIST)
        : answer(res, 401, status(401, 'Unauthorized', 'Unauthorized')),
    );
    const { kube } = await connections.connect(record);
    await expect(kube.list(RESOURCES.pods, { namespace: 'ns' })).resolves.toMatchObject({
      resourceVersion: '42',
    });
    expect(srv.seen.map((s) => s.authorization)).toEqual(['Bearer t1', 'Bearer t2']);
    // the fresh token stays for the next invocation
    await (await connections.connect(record)).kube.list(RESOURCES.pods, { namespace: 'ns' });
    expect(srv.seen.at(-1)?.authorization).toBe('Bearer t2');
  });

  it('a changed record gets a new connection and the old one is closed', async () => {
    const { srv, connections, record } = await setUp();
    const first = await connections.connect(record);
    await first.kube.list(RESOURCES.pods, { namespace: 'ns' });
    const other = await fakeApiServer((_req, res) => answer(res, 200, POD_LIST));
    servers.push(other);
    const moved = await connections.connect({ ...record, endpoint: other.url });
    expect(moved.kube).not.toBe(first.kube);
    await moved.kube.list(RESOURCES.pods, { namespace: 'ns' });
    expect(other.seen).toHaveLength(1);
    await eventually(() => srv.closed === 1);
  });

  it('a token auth record keeps its token', async () => {
    const { srv, connections } = await setUp();
    const { kube } = await connections.connect({
      name: 'dev',
      endpoint: srv.url,
      auth: { type: 'token', token: 'x' },
    });
    await kube.list(RESOURCES.pods, { namespace: 'ns' });
    expect(srv.seen[0].authorization).toBe('Bearer x');
  });

  it('keeps the watches of its connections on HTTP/1.1 when built with http2Watches false', async () => {
    const record: ClusterRecord = {
      name: 'dev',
      endpoint: 'https://127.0.0.1:1',
      auth: { type: 'token', token: 'x' },
    };
    const off = createClusterConnections({ http2Watches: false });
    const on = createClusterConnections();
    caches.push(off, on);
    expect(http1Reason((await off.connect(record)).kc)).toBe('disabled');
    expect(http1Reason((await on.connect(record)).kc)).toBeUndefined();
  });
});
