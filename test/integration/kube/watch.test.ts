/**
 * watchOnce on a real API server: label-selected pod events in order with the resume resourceVersion, and
 * `gone: true` when the start resourceVersion has been compacted out of the watch window, and no listener left on a
 * long-lived abort signal.
 */
import { getEventListeners } from 'node:events';
import type { JsonObject } from '../../../lib/api/types.js';
import { createKubeClient } from '../../../lib/kube/client.js';
import { watchPath } from '../../../lib/kube/resource.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import { KubeApiError } from '../../../lib/kube/errors.js';
import type { KubeClient } from '../../../lib/kube/types.js';
import { isGoneStatus, watchOnce, type WatchEventType } from '../../../lib/kube/watch.js';
import { useTestNamespace } from '../support/cluster.js';
import { samplePod } from './fixtures.js';

const t = useTestNamespace('kube-watch');
let kube: KubeClient;

beforeAll(() => {
  kube = createKubeClient(t.kc);
});

const nameOf = (obj: JsonObject): string => (obj.metadata as { name: string }).name;
const rvOf = (obj: JsonObject): number => Number((obj.metadata as JsonObject).resourceVersion);

describe('watchOnce', () => {
  test('sees ADDED, MODIFIED and DELETED of label-selected pods and returns the last resourceVersion', async () => {
    const start = await kube.list(RESOURCES.pods, { namespace: t.namespace, labelSelector: 'watch=me' });
    const seen: { type: WatchEventType; name: string; rv: number }[] = [];
    const stop = new AbortController();
    const watching = watchOnce(
      t.kc,
      watchPath(RESOURCES.pods, t.namespace),
      {
        resourceVersion: start.resourceVersion,
        labelSelector: 'watch=me',
        timeoutSeconds: 30,
        allowBookmarks: true,
        signal: stop.signal,
      },
      (type, obj) => {
        if (type !== 'BOOKMARK') seen.push({ type, name: nameOf(obj), rv: rvOf(obj) });
        if (type === 'DELETED') stop.abort();
      },
    );
    await kube.create(RESOURCES.pods, samplePod(t.namespace, 'ignored', { watch: 'not-me' }));
    const created = await kube.create(RESOURCES.pods, samplePod(t.namespace, 'watched', { watch: 'me' }));
    await kube.patch(
      RESOURCES.pods,
      { namespace: t.namespace, name: 'watched' },
      { type: 'strategic-merge', body: { metadata: { annotations: { step: 'modified' } } } },
    );
    await kube.delete(
      RESOURCES.pods,
      { namespace: t.namespace, name: 'watched' },
      { uid: created.metadata.uid as string },
    );
    const result = await watching;

    expect(result.gone).toBe(false);
    expect(seen.every((e) => e.name === 'watched')).toBe(true);
    expect(seen[0].type).toBe('ADDED');
    expect(seen.some((e) => e.type === 'MODIFIED')).toBe(true);
    expect(seen[seen.length - 1].type).toBe('DELETED');
    expect(result.resourceVersion).toBe(String(seen[seen.length - 1].rv));
    expect(Number(result.resourceVersion)).toBeGreaterThan(Number(start.resourceVersion));
  });

  test('a watch nothing happens on ends at timeoutSeconds and returns its start resourceVersion or a bookmark', async () => {
    const start = await kube.list(RESOURCES.pods, { namespace: t.namespace, labelSelector: 'watch=quiet' });
    const t0 = Date.now();
    const result = await watchOnce(
      t.kc,
      watchPath(RESOURCES.pods, t.namespace),
      {
        resourceVersion: start.resourceVersion,
        labelSelector: 'watch=quiet',
        timeoutSeconds: 2,
        allowBookmarks: true,
      },
      () => undefined,
    );
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1500);
    expect(result.gone).toBe(false);
    expect(Number(result.resourceVersion)).toBeGreaterThanOrEqual(Number(start.resourceVersion));
  });

  test('watches that end leave no abort listener on a long-lived signal (the watch pump passes one for hours)', async () => {
    const start = await kube.list(RESOURCES.pods, { namespace: t.namespace, labelSelector: 'watch=quiet' });
    const pump = new AbortController();
    for (let i = 0; i < 3; i++)
      await watchOnce(
        t.kc,
        watchPath(RESOURCES.pods, t.namespace),
        {
          resourceVersion: start.resourceVersion,
          labelSelector: 'watch=quiet',
          timeoutSeconds: 1,
          allowBookmarks: true,
          signal: pump.signal,
        },
        () => undefined,
      );
    expect(getEventListeners(pump.signal, 'abort')).toHaveLength(0);
  });

  test('watching from resourceVersion "1" once it is compacted away returns gone: true (ERROR 410 Expired)', async () => {
    // the local control plane serves configmap watches from etcd and compacts etcd every 10 s: on a fresh cluster
    // revision 1 may still be there at first (the watch then replays history); retry until compaction passed it
    let result = { resourceVersion: '', gone: false };
    let events: WatchEventType[] = [];
    for (let i = 0; i < 30 && !result.gone; i++) {
      events = [];
      result = await watchOnce(
        t.kc,
        '/api/v1/namespaces/kube-system/configmaps',
        { resourceVersion: '1', timeoutSeconds: 1, allowBookmarks: true },
        (type) => events.push(type),
      );
    }
    expect(result).toEqual({ resourceVersion: '1', gone: true });
    expect(events).toEqual([]);
  }, 90_000);
});

describe('isGoneStatus', () => {
  test('recognises the Status of an ERROR event, as kube-apiserver 1.34 sends it', () => {
    // Captured from this control plane: GET /api/v1/pods?watch=true&resourceVersion=1
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'too old resource version: 1 (412)',
      reason: 'Expired',
      code: 410,
    };
    expect(isGoneStatus(status)).toBe(true);
    expect(isGoneStatus({ ...status, code: undefined, reason: undefined })).toBe(true);
    expect(isGoneStatus({ ...status, message: 'x', reason: 'Gone' })).toBe(true);
  });

  test('recognises an HTTP 410 response (client-node Watch rejects with an Error carrying statusCode)', () => {
    expect(isGoneStatus(Object.assign(new Error('Gone'), { statusCode: 410 }))).toBe(true);
    expect(isGoneStatus(new KubeApiError('watch /api/v1/pods', 410, 'Expired', 'too old'))).toBe(true);
  });

  test('other failures are not "gone"', () => {
    expect(isGoneStatus({ kind: 'Status', code: 500, reason: 'InternalError', message: 'etcd' })).toBe(false);
    expect(isGoneStatus(Object.assign(new Error('Forbidden'), { statusCode: 403 }))).toBe(false);
    expect(isGoneStatus(undefined)).toBe(false);
  });
});
