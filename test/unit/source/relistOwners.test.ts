/**
 * A relist of an owned stream resyncs the owners (lib/source/relist.ts `ownerResyncAfterRelist`; found by the
 * randomized test's event path, docs/reliability.md#event-path): a pod deleted while the pods stream had no watch
 * (its checkpoint compacted: 410 Gone) is on no page of the relist, so when its CloneSet has no other pod left the
 * relist published nothing for it and saved a checkpoint past the deletion — the CloneSet heard of it only from the
 * next resync, up to 5 minutes later. client-go's reflector delivers such a deletion as `DeletedFinalStateUnknown`;
 * the pump, with no cache, resyncs every CloneSet before the checkpoint moves.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { Logger } from '@aws-lambda-powertools/logger';
import type { JsonObject } from '../../../lib/api/types.js';
import type { WatchEventType, WatchOptions, WatchResult } from '../../../lib/kube/watch.js';
import { KubeApiError } from '../../../lib/kube/errors.js';
import type { KubeObject, Listed, ListOptions, Resource } from '../../../lib/kube/types.js';
import type { ReconcileRequest } from '../../../lib/requests/index.js';
import { CONTROLLER_KINDS } from '../../../lib/controllers/kinds.js';
import { watchStreams } from '../../../lib/source/watchSpec.js';
import { MemoryStreamCheckpoints } from './support/checkpoints.js';

/** The pods collection's resourceVersion after the deletion; the stored checkpoint is below the compaction. */
const LIST_RV = '50';
const COMPACTED_BELOW = 40;

jest.unstable_mockModule('../../../lib/kube/watch.js', () => ({
  watchOnce: (
    _kc: unknown,
    _path: string,
    opts: WatchOptions,
    _onEvent: (type: WatchEventType, obj: JsonObject) => void,
  ): Promise<WatchResult> => {
    const from = opts.resourceVersion ?? '';
    if (Number(from) < COMPACTED_BELOW) return Promise.resolve({ resourceVersion: from, gone: true });
    // a watch from the list's resourceVersion: nothing more happens until the deadline
    return new Promise((resolve) => {
      const finish = () => resolve({ resourceVersion: from, gone: false });
      if (opts.signal?.aborted) finish();
      opts.signal?.addEventListener('abort', finish, { once: true });
    });
  },
  isGoneStatus: () => false,
  CLIENT_GRACE_MS: 5_000,
}));
const { pumpStream } = await import('../../../lib/source/pump.js');

const PODS = watchStreams(CONTROLLER_KINDS).find((s) => s.resource === 'pods');
if (!PODS) throw new Error('no pods stream');

/** The cluster after the gap: no pod left (`web`'s last pod was deleted), CloneSets `web` and `api`. */
function clusterWith(cloneSetsServed: boolean) {
  const lists: string[] = [];
  const kube = {
    list<T extends KubeObject>(resource: Resource, options?: ListOptions): Promise<Listed<T>> {
      lists.push(`${resource.plural} limit ${options?.limit}`);
      if (resource.plural === 'pods') return Promise.resolve({ items: [], resourceVersion: LIST_RV });
      if (!cloneSetsServed)
        return Promise.reject(new KubeApiError('list clonesets', 404, 'NotFound', 'no such resource'));
      const items = ['api', 'web'].map(
        (name) =>
          ({
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            metadata: { name, namespace: 'default', resourceVersion: '7' },
          }) as unknown as T,
      );
      return Promise.resolve({ items, resourceVersion: LIST_RV });
    },
    get: () => Promise.reject(new Error('no get expected')),
  };
  return { kube, lists };
}

let checkpoints: MemoryStreamCheckpoints;
let timeline: string[];

beforeEach(() => {
  jest.useFakeTimers({ now: 0 });
  timeline = [];
  checkpoints = new MemoryStreamCheckpoints(() => Date.now());
  checkpoints.seed('c1', 'pods', '30'); // compacted: the pod's deletion at 45 will never be replayed
  const save = checkpoints.save.bind(checkpoints);
  checkpoints.save = (cluster, resource, holder, token, rv) => {
    timeline.push(`save ${rv}`);
    return save(cluster, resource, holder, token, rv);
  };
});
afterEach(() => {
  jest.useRealTimers();
});

function run(kube: ReturnType<typeof clusterWith>['kube']) {
  return pumpStream(
    {
      cluster: 'c1',
      kc: new KubeConfig(),
      kube,
      watches: checkpoints,
      publisher: {
        publish(requests: ReconcileRequest[]) {
          timeline.push(`publish ${requests.map((r) => `${r.name} ${r.reason}`).join(', ')}`);
          return Promise.resolve({ published: requests.length, calls: 1, retried: 0 });
        },
      },
      holder: 'A',
      clock: () => Date.now(),
      deadlineMs: 10_000,
      leaseDurationMs: 15_000,
      watchTimeoutSeconds: 50,
      flushIntervalMs: 1_000,
      checkpointIntervalMs: 10_000,
      relistPageSize: 500,
      log: new Logger({ logLevel: 'SILENT' }),
    },
    PODS as NonNullable<typeof PODS>,
  );
}

describe('the relist of an owned stream', () => {
  it('after 410 Gone with no pod left to list, every CloneSet is resynced before the checkpoint passes the deletion', async () => {
    const { kube, lists } = clusterWith(true);
    const done = run(kube);
    await jest.advanceTimersByTimeAsync(10_000);
    const result = await done;
    expect(timeline).toEqual([`publish api Resync, web Resync`, `save ${LIST_RV}`]);
    expect(lists).toEqual(['pods limit 500', 'clonesets limit 500']);
    expect(result).toMatchObject({ relists: 1, published: 2, resourceVersion: LIST_RV });
  });

  it('a controller whose resource is not served is skipped: the relist is checkpointed and the stream watches on', async () => {
    const { kube, lists } = clusterWith(false);
    const done = run(kube);
    await jest.advanceTimersByTimeAsync(10_000);
    const result = await done;
    expect(timeline).toEqual([`save ${LIST_RV}`]);
    expect(lists).toEqual(['pods limit 500', 'clonesets limit 500']);
    expect(result).toMatchObject({ relists: 1, published: 0, watches: 2, resourceVersion: LIST_RV });
    expect(result.idle).toBeUndefined();
  });
});
