/**
 * The watches of one cluster share one HTTP/2 connection (lib/kube/http2Session.ts), on the real kube-apiserver of
 * the local control plane: counted from this process's own sockets in /proc, not from the client's bookkeeping.
 * Before HTTP/2, each open watch held a connection of its own (17 for the 17 streams of a cluster).
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { setMaxListeners } from 'node:events';
import net from 'node:net';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { createKubeClient } from '../../../lib/kube/client.js';
import { KubeApiError } from '../../../lib/kube/errors.js';
import { http1Reason, http2SessionFor } from '../../../lib/kube/http2Session.js';
import { closeConnections } from '../../../lib/kube/request.js';
import { watchPath } from '../../../lib/kube/resource.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import { watchOnce } from '../../../lib/kube/watch.js';
import { useTestNamespace } from '../support/cluster.js';
import { samplePod } from './fixtures.js';

const t = useTestNamespace('kube-watch-h2');

/** Undone after each test, whether it passed or not. */
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

/** A KubeConfig of its own (its own session and pool), same cluster and user as the namespace's. */
function freshConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(t.kc.exportConfig());
  return kc;
}

/** Established TCP connections of this process to `port` (its sockets in /proc/self/fd, matched in /proc/net). */
function connectionsTo(port: number): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
      if (m?.[1]) inodes.add(m[1]);
    } catch {
      // closed between the listing and the read
    }
  }
  let n = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      const remotePort = parseInt(f[2]?.split(':')[1] ?? '', 16);
      if (remotePort === port && f[3] === '01' && inodes.has(f[9] ?? '')) n++;
    }
  }
  return n;
}

const apiPort = (kc: KubeConfig): number => Number(new URL(kc.getCurrentCluster()?.server ?? '').port);

describe('watches over HTTP/2', () => {
  test('17 open watches of one cluster take one connection, and each gets its own events', async () => {
    const kc = freshConfig();
    const port = apiPort(kc);
    // the pod creates below go over the namespace client's keep-alive pool: open its connection first
    const kube = createKubeClient(t.kc);
    await kube.list(RESOURCES.pods, { namespace: t.namespace });
    const before = connectionsTo(port);
    const stop = new AbortController();
    setMaxListeners(20, stop.signal); // one abort listener a watch
    const seen = Array.from({ length: 17 }, () => [] as string[]);
    const watches = seen.map((names, i) =>
      watchOnce(
        kc,
        watchPath(RESOURCES.pods, t.namespace),
        { labelSelector: `h2=w${i % 2}`, timeoutSeconds: 30, allowBookmarks: true, signal: stop.signal },
        (type, obj) => {
          if (type === 'ADDED') names.push((obj.metadata as { name: string }).name);
        },
      ),
    );
    await kube.create(RESOURCES.pods, samplePod(t.namespace, 'even', { h2: 'w0' }));
    await kube.create(RESOURCES.pods, samplePod(t.namespace, 'odd', { h2: 'w1' }));
    const deadline = Date.now() + 10_000;
    while (seen.some((s) => s.length === 0) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const during = connectionsTo(port) - before;
    stop.abort();
    const results = await Promise.all(watches);
    expect(http1Reason(kc)).toBeUndefined();
    expect(during).toBe(1);
    expect(seen).toEqual(seen.map((_, i) => [i % 2 === 0 ? 'even' : 'odd']));
    expect(results.every((r) => r.gone === false && r.resourceVersion !== '')).toBe(true);
    closeConnections(kc);
  });

  test('a refused watch keeps the API server Status: 404 NotFound of an unknown resource', async () => {
    const kc = freshConfig();
    const error = await watchOnce(
      kc,
      '/apis/nothing.example.com/v1/things',
      { timeoutSeconds: 5, allowBookmarks: true },
      () => undefined,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as KubeApiError).statusCode).toBe(404);
    expect((error as KubeApiError).reason).toBe('NotFound');
    closeConnections(kc);
  });

  test('a connection that breaks mid-watch fails its watches with a network error; the next watch reconnects', async () => {
    // the break is real: a TCP relay in front of the API server drops every connection it carries
    const apiserver = apiPort(t.kc);
    const carried = new Set<net.Socket>();
    const relay = net.createServer((client) => {
      const upstream = net.connect(apiserver, '127.0.0.1');
      carried.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const drop = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => relay.close(() => r())));
    cleanups.push(() => carried.forEach((s) => s.destroy()));
    const kc = freshConfig();
    cleanups.push(() => closeConnections(kc));
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('no cluster');
    const server = new URL(cluster.server);
    server.port = String((relay.address() as net.AddressInfo).port);
    kc.clusters = kc.clusters.map((c) => (c.name === cluster.name ? { ...c, server: server.origin } : c));

    const path = watchPath(RESOURCES.pods, t.namespace);
    const opts = { timeoutSeconds: 30, allowBookmarks: true as const };
    const first = watchOnce(kc, path, opts, () => undefined).catch((e: unknown) => e);
    const second = watchOnce(kc, path, opts, () => undefined).catch((e: unknown) => e);
    const session = await http2SessionFor(kc);
    expect(session).toBeDefined();
    await new Promise((r) => setTimeout(r, 300));
    expect(carried.size).toBe(2); // one connection (client and upstream side) for both watches
    for (const s of carried) s.destroy();
    carried.clear();
    for (const error of [await first, await second]) {
      expect(error).toBeInstanceOf(KubeApiError);
      expect((error as KubeApiError).statusCode).toBe(0);
      expect((error as KubeApiError).reason).toBe('NetworkError');
      expect((error as KubeApiError).apiMessage).toBe(
        'the stream closed before the server ended the watch (connection lost or closed, or stream reset, HTTP/2 error code 8)',
      );
    }

    const stop = new AbortController();
    const again = watchOnce(kc, path, { ...opts, signal: stop.signal }, () => undefined);
    const next = await http2SessionFor(kc);
    expect(next).toBeDefined();
    expect(next).not.toBe(session);
    await new Promise((r) => setTimeout(r, 300));
    expect(carried.size).toBe(2);
    stop.abort();
    await expect(again).resolves.toMatchObject({ gone: false });
  });
});
