/**
 * The bench's tracker when the API server ends its watch. kube-apiserver closes the watch of a client that reads too
 * slowly with a clean end of the response (`apiserver_terminated_watchers_total` goes up); the tracker used to take
 * no notice and saw nothing more, so on a loaded machine `rollout openkruise N=200` waited 240 s for pods that had
 * all been Ready for minutes. Here a scripted watch stands in for the API server.
 */
import { describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import type { BenchCluster } from '../../../bench/support/kube.js';
import type { WatchFn } from '../../../bench/support/listWatch.js';
import { Tracker } from '../../../bench/support/tracker.js';

const NS = 'bench-openkruise-200-1-x';

function pod(name: string, resourceVersion: string, ready = false): unknown {
  return {
    metadata: { name, namespace: NS, resourceVersion, labels: { app: 'bench' } },
    spec: { containers: [{ image: 'bench:v1' }] },
    status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

/** One watch the test drives. */
interface OpenWatch {
  path: string;
  query: Readonly<Record<string, string>>;
  send: (type: string, obj: unknown) => void;
  end: (err: unknown) => void;
  aborted: boolean;
}

/** A cluster without CloneSets whose pod LIST answers `listed`, and a watch that records what it opens. */
function fakeCluster(listed: () => unknown[]): {
  cluster: BenchCluster;
  watch: WatchFn;
  opened: OpenWatch[];
  lists: string[];
} {
  const opened: OpenWatch[] = [];
  const lists: string[] = [];
  const cluster: BenchCluster = {
    name: 'reference',
    kc: new KubeConfig(),
    request: async (method, path) => {
      if (path === '/apis/apps.kruise.io/v1alpha1') throw new Error('GET: 404');
      lists.push(`${method} ${path}`);
      return { metadata: { resourceVersion: '100' }, items: listed() };
    },
  };
  const watch: WatchFn = async (path, query, onEvent, onDone) => {
    const w: OpenWatch = { path, query, send: onEvent, end: onDone, aborted: false };
    opened.push(w);
    return {
      abort: () => {
        w.aborted = true;
        const e = new Error('The user aborted a request.');
        e.name = 'AbortError';
        onDone(e);
      },
    };
  };
  return { cluster, watch, opened, lists };
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

describe('Tracker', () => {
  it('re-lists and watches on from the list when the API server closes its pod watch', async () => {
    const f = fakeCluster(() => [pod('b', '7', true), pod('c', '8', true)]);
    const tracker = new Tracker(f.cluster, NS, undefined, f.watch);
    await tracker.start();
    const allReady = tracker.until(
      '2 pods Ready',
      () => tracker.live().filter((p) => p.ready).length === 2,
      1000,
    );
    f.opened[0].send('ADDED', pod('a', '5'));
    f.opened[0].send('ADDED', pod('b', '6'));
    f.opened[0].end(null); // the server closed it: b became Ready, c was created, a deleted, all unseen
    await settle();
    await expect(allReady).resolves.toEqual(expect.any(Number));
    expect(tracker.live().map((p) => [p.name, p.ready])).toEqual([
      ['b', true],
      ['c', true],
    ]);
    expect(f.lists).toEqual([`GET /api/v1/namespaces/${NS}/pods`]);
    expect(f.opened.map((w) => [w.path, w.query])).toEqual([
      [`/api/v1/namespaces/${NS}/pods`, {}],
      [`/api/v1/namespaces/${NS}/pods`, { resourceVersion: '100' }],
    ]);
    expect(tracker.restarts).toBe(1);
    expect(tracker.podEvents).toBe(2); // what the re-list found is not counted as watch events
    tracker.stop();
  });

  it('keeps the label selector on the LIST and the next watch', async () => {
    const f = fakeCluster(() => []);
    const tracker = new Tracker(f.cluster, undefined, 'app=fleet', f.watch);
    await tracker.start();
    f.opened[0].end(null);
    await settle();
    expect(f.lists).toEqual(['GET /api/v1/pods?labelSelector=app%3Dfleet']);
    expect(f.opened[1].query).toEqual({ labelSelector: 'app=fleet', resourceVersion: '100' });
    tracker.stop();
  });

  it('takes an ERROR event (410 Gone) for no pod', async () => {
    const f = fakeCluster(() => []);
    const tracker = new Tracker(f.cluster, NS, undefined, f.watch);
    await tracker.start();
    f.opened[0].send('ERROR', { kind: 'Status', code: 410, reason: 'Expired' });
    expect(tracker.pods.size).toBe(0);
    expect(tracker.podEvents).toBe(0);
    tracker.stop();
  });

  it('neither lists nor watches again after stop()', async () => {
    const f = fakeCluster(() => []);
    const tracker = new Tracker(f.cluster, NS, undefined, f.watch);
    await tracker.start();
    tracker.stop();
    await settle();
    expect(f.opened.map((w) => w.aborted)).toEqual([true]);
    expect(f.lists).toEqual([]);
    expect(tracker.restarts).toBe(0);
  });
});
