/**
 * The relist of a watch stream (review finding 12, lib/source/relist.ts): a stream with no checkpoint, or with one
 * the API server has compacted (410 Gone), is relisted with a paginated LIST and watched from the list's
 * resourceVersion; no checkpoint is written before the list's last page is published, and the resume point never
 * moves backwards. The fake API server below answers as the real one would: a watch without a resourceVersion
 * replays the objects as ADDED in key order (not resourceVersion order), a watch from a compacted resourceVersion is
 * 410 Gone, a watch from a live one delivers the later changes in resourceVersion order.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { Logger } from '@aws-lambda-powertools/logger';
import type { JsonObject } from '../../../lib/api/types.js';
import type { WatchEventType, WatchOptions, WatchResult } from '../../../lib/kube/watch.js';
import type { KubeObject, Listed, ListOptions } from '../../../lib/kube/types.js';
import type { ReconcileRequest } from '../../../lib/requests/index.js';
import { CONTROLLER_KINDS } from '../../../lib/controllers/kinds.js';
import { watchStreams } from '../../../lib/source/watchSpec.js';
import { MemoryStreamCheckpoints } from './support/checkpoints.js';

/** The collection: names in key order, each object's resourceVersion out of that order. */
const OBJECTS = [
  { name: 'a', rv: '5' },
  { name: 'b', rv: '3' },
  { name: 'c', rv: '9' },
  { name: 'd', rv: '7' },
  { name: 'e', rv: '4' },
];
/** The collection's resourceVersion (a LIST's `metadata.resourceVersion`). */
const LIST_RV = '12';
/** resourceVersions below this are compacted: a watch from one is 410 Gone. */
const COMPACTED_BELOW = 3;
/** Time the fake server takes per replayed ADDED event and per LIST page, ms. */
const STEP_MS = 10_000;

const object = (o: { name: string; rv: string }): JsonObject => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: o.name, namespace: 'default', resourceVersion: o.rv },
});

const watches: { from: string | undefined; start: number }[] = [];
/** lib/kube/watch.ts `watchOnce` against the collection above. */
function fakeWatchOnce(
  _kc: unknown,
  _path: string,
  opts: WatchOptions,
  onEvent: (type: WatchEventType, obj: JsonObject) => void,
): Promise<WatchResult> {
  watches.push({ from: opts.resourceVersion, start: Date.now() });
  const from = opts.resourceVersion;
  if (from !== undefined && Number(from) < COMPACTED_BELOW)
    return Promise.resolve({ resourceVersion: from, gone: true });
  let last = from ?? '';
  return new Promise((resolve) => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const send = (o: { name: string; rv: string }, type: WatchEventType): void => {
      last = o.rv;
      onEvent(type, object(o));
    };
    if (from === undefined)
      OBJECTS.forEach((o, i) => timers.push(setTimeout(() => send(o, 'ADDED'), (i + 1) * STEP_MS)));
    else
      [...OBJECTS]
        .filter((o) => Number(o.rv) > Number(from))
        .sort((x, y) => Number(x.rv) - Number(y.rv))
        .forEach((o) => send(o, 'MODIFIED'));
    const finish = (): void => {
      timers.forEach(clearTimeout);
      resolve({ resourceVersion: last, gone: false });
    };
    timers.push(setTimeout(finish, opts.timeoutSeconds * 1000));
    if (opts.signal?.aborted) finish();
    opts.signal?.addEventListener('abort', finish, { once: true });
  });
}

jest.unstable_mockModule('../../../lib/kube/watch.js', () => ({
  watchOnce: fakeWatchOnce,
  isGoneStatus: () => false,
  CLIENT_GRACE_MS: 5_000,
}));
const { pumpStream } = await import('../../../lib/source/pump.js');

const lists: { at: number; options: ListOptions | undefined }[] = [];
/** LIST pages of the collection in key order, one {@link STEP_MS} each, `continue` = the next index. */
const kube = {
  list<T extends KubeObject>(_resource: unknown, options?: ListOptions): Promise<Listed<T>> {
    lists.push({ at: Date.now(), options });
    const start = Number(options?.continue ?? 0);
    const limit = options?.limit ?? OBJECTS.length;
    const items = OBJECTS.slice(start, start + limit).map((o) => object(o) as unknown as T);
    const more = start + limit < OBJECTS.length;
    return new Promise((resolve) =>
      setTimeout(
        () =>
          resolve({
            items,
            resourceVersion: LIST_RV,
            ...(more ? { continue: String(start + limit) } : {}),
          }),
        STEP_MS,
      ),
    );
  },
  get: () => Promise.reject(new Error('no get expected')),
};

// the CloneSet controller's own stream: with the PodUnavailableBudget's workload watch on it too, a relist would also
// resync the PUBs (lib/source/relist.ts ownerResyncAfterRelist), which these tests are not about
const STREAM = watchStreams(CONTROLLER_KINDS.filter((k) => k.name === 'cloneset')).find(
  (s) => s.resource === 'clonesets',
);
if (!STREAM) throw new Error('no clonesets stream');

let checkpoints: MemoryStreamCheckpoints;
/** Publishes and checkpoint saves, in the order they happened. */
let timeline: string[];

beforeEach(() => {
  jest.useFakeTimers({ now: 0 });
  watches.length = 0;
  lists.length = 0;
  timeline = [];
  checkpoints = new MemoryStreamCheckpoints(() => Date.now());
  const save = checkpoints.save.bind(checkpoints);
  checkpoints.save = (cluster, resource, holder, token, rv) => {
    timeline.push(`${Date.now()} save ${rv}`);
    return save(cluster, resource, holder, token, rv);
  };
});
afterEach(() => {
  jest.useRealTimers();
});

/** One pump run of the clonesets stream from now until `seconds` later (the handler's deadline). */
function run(holder: string, seconds: number) {
  const deps = {
    cluster: 'c1',
    kc: new KubeConfig(),
    kube,
    watches: checkpoints,
    publisher: {
      publish(requests: ReconcileRequest[]) {
        timeline.push(`${Date.now()} publish ${requests.map((r) => r.name).join(',')}`);
        return Promise.resolve({ published: requests.length, calls: 1, retried: 0 });
      },
    },
    holder,
    clock: () => Date.now(),
    deadlineMs: Date.now() + seconds * 1000,
    leaseDurationMs: seconds * 1000 + 5_000,
    watchTimeoutSeconds: 50,
    flushIntervalMs: 1_000,
    checkpointIntervalMs: 10_000,
    relistPageSize: 2,
    log: new Logger({ logLevel: 'SILENT' }),
  };
  return pumpStream(deps, STREAM as NonNullable<typeof STREAM>);
}

describe('the relist of a watch stream', () => {
  it('after 410 Gone, a relist cut short by the deadline saves no checkpoint; the next run relists again and saves the list’s resourceVersion after its last page', async () => {
    checkpoints.seed('c1', 'clonesets', '2'); // compacted
    const first = run('A', 15);
    await jest.advanceTimersByTimeAsync(20_000);
    await first;
    expect(timeline).toEqual(['10000 publish a,b', '20000 publish c,d']);
    expect(checkpoints.stored('clonesets')).toBe('2');

    const second = run('B', 60);
    await jest.advanceTimersByTimeAsync(60_000);
    const result = await second;
    expect(timeline.slice(2)).toEqual([
      '30000 publish a,b',
      '40000 publish c,d',
      '50000 publish e',
      `50000 save ${LIST_RV}`,
    ]);
    expect(checkpoints.stored('clonesets')).toBe(LIST_RV);
    expect(result).toMatchObject({ acquired: true, relists: 1, resourceVersion: LIST_RV });
    // every watch resumed from a resourceVersion: the expired one (410), then the list's
    expect(watches).toEqual([
      { from: '2', start: 0 },
      { from: '2', start: 20_000 },
      { from: LIST_RV, start: 50_000 },
    ]);
    expect(lists.map((l) => [l.at, l.options?.limit, l.options?.continue])).toEqual([
      [0, 2, undefined],
      [10_000, 2, '2'],
      [20_000, 2, undefined],
      [30_000, 2, '2'],
      [40_000, 2, '4'],
    ]);
  });

  it('with no checkpoint the stream lists first: one checkpoint, the list’s resourceVersion, written after every object was published and never moved back', async () => {
    const only = run('A', 60);
    await jest.advanceTimersByTimeAsync(60_000);
    const result = await only;
    expect(timeline).toEqual([
      '10000 publish a,b',
      '20000 publish c,d',
      '30000 publish e',
      `30000 save ${LIST_RV}`,
    ]);
    expect(result).toMatchObject({ acquired: true, relists: 1, watches: 1, changes: 5 });
    expect(watches).toEqual([{ from: LIST_RV, start: 30_000 }]);
  });
});
