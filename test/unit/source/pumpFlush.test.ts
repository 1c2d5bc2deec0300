/**
 * When the pump publishes (lib/source/pump.ts, docs/architecture.md#watch-pump): a change after a quiet spell at
 * once, a burst once per flush interval, never two flushes within one interval, and a resume point not yet saved is
 * saved once the checkpoint interval allows even when no change follows. Driven through `pumpStream` with the
 * CloneSet kind's pod stream and a scripted `watchOnce` on fake timers: the watch delivers the listed events at
 * their times, then ends with the run. Before the leading-edge flush, a lone change waited for the next tick of a
 * fixed interval (up to 1 s in Lambda).
 */
import { describe, expect, it, jest } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { Logger } from '@aws-lambda-powertools/logger';
import type { JsonObject } from '../../../lib/api/types.js';
import { cloneSetKind } from '../../../lib/controllers/cloneset/kind.js';
import { watchStreams } from '../../../lib/source/watchSpec.js';
import { MemoryStreamCheckpoints } from './support/checkpoints.js';
import { scriptedWatch } from './support/scriptedWatch.js';

const watch = scriptedWatch();
jest.unstable_mockModule('../../../lib/kube/watch.js', () => watch.module);
const { pumpStream } = await import('../../../lib/source/pump.js');

const STREAM = watchStreams([cloneSetKind]).find((s) => s.resource === 'pods');

/** A pod of CloneSet `web` at resourceVersion `rv`. */
const pod = (name: string, rv: number): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'ns',
    resourceVersion: String(rv),
    ownerReferences: [
      { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'u1', controller: true },
    ],
  },
});
const bookmark = (rv: number): JsonObject => ({ kind: 'Pod', metadata: { resourceVersion: String(rv) } });

/**
 * Runs the pod stream for `ms` of fake time with a flush interval of 1 s and a checkpoint interval of 10 s.
 * @returns when (ms of fake time) each publish call came and how many requests it had; the checkpoint saves
 */
async function run(ms: number): Promise<{ publishes: [number, number][]; saves: [number, string][] }> {
  if (!STREAM) throw new Error('no pod stream');
  const publishes: [number, number][] = [];
  const checkpoints = new MemoryStreamCheckpoints(() => Date.now());
  checkpoints.seed('c1', STREAM.resource, '1');
  const done = pumpStream(
    {
      cluster: 'c1',
      kc: new KubeConfig(),
      kube: {
        get: () => Promise.resolve(undefined),
        list: () => Promise.reject(new Error('no LIST expected')),
      },
      watches: checkpoints,
      publisher: {
        publish: (r) => {
          publishes.push([Date.now(), r.length]);
          return Promise.resolve({ published: r.length, calls: 1, retried: 0 });
        },
      },
      holder: 'run-1',
      clock: () => Date.now(),
      deadlineMs: Date.now() + ms,
      leaseDurationMs: 70_000,
      watchTimeoutSeconds: 60,
      flushIntervalMs: 1_000,
      checkpointIntervalMs: 10_000,
      log: new Logger({ logLevel: 'SILENT' }),
    },
    STREAM,
  );
  await jest.advanceTimersByTimeAsync(ms + 1_000);
  await done;
  const saves = checkpoints.calls.flatMap((c) =>
    c.op === 'save' ? [[c.at, c.resourceVersion] as [number, string]] : [],
  );
  return { publishes, saves };
}

describe('when the pump publishes', () => {
  it('a lone change at once; a burst right after it once the interval is up; the next lone change at once', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      watch.script = [
        { afterMs: 3_000, type: 'MODIFIED', obj: pod('a', 2) },
        { afterMs: 3_100, type: 'MODIFIED', obj: pod('b', 3) },
        { afterMs: 3_200, type: 'MODIFIED', obj: pod('c', 4) },
        { afterMs: 3_900, type: 'MODIFIED', obj: pod('d', 5) },
        { afterMs: 6_500, type: 'MODIFIED', obj: pod('e', 6) },
      ];
      const { publishes } = await run(8_000);
      // the one at 3,000 alone (on the next turn of the event loop: Node's shortest timer, 1 ms); 3,100–3,900
      // together (three pods, three requests: the publisher coalesces them) when the interval from that flush is up;
      // 6,500 alone; the run's end has nothing left to publish
      expect(publishes).toEqual([
        [3_001, 1],
        [4_001, 3],
        [6_501, 1],
      ]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('the resume point moved by the last change is saved when the checkpoint interval is up, not at the run end', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      watch.script = [
        { afterMs: 12_000, type: 'MODIFIED', obj: pod('a', 2) },
        { afterMs: 15_000, type: 'BOOKMARK', obj: bookmark(9) },
      ];
      const { publishes, saves } = await run(40_000);
      expect(publishes).toEqual([[12_001, 1]]);
      // 12,001: 10 s after the start, saved with the publish; the bookmark at 15,000 moves it again, saved at 22,001
      // (10 s after the last save); the end of the run has nothing new to save
      expect(saves).toEqual([
        [12_001, '2'],
        [22_001, '9'],
      ]);
    } finally {
      jest.useRealTimers();
    }
  });
});
