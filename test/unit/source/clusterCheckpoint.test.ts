/**
 * One pump lease and one checkpoint item per cluster (lib/source/clusterCheckpoint.ts, wired in lib/source/pump.ts
 * `pumpCluster`): a run's streams share the lease, their resume points are written together at most once per
 * interval and with the release; a cluster whose item predates it resumes from each stream's older item; a run that
 * finds the lease taken stops every stream and says so. On jest's fake timers, with a scripted `watchOnce`.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { Logger } from '@aws-lambda-powertools/logger';
import type { JsonObject } from '../../../lib/api/types.js';
import { podUnavailableBudgetKind } from '../../../lib/controllers/podunavailablebudget/kind.js';
import { ClusterCheckpoint } from '../../../lib/source/clusterCheckpoint.js';
import { watchStreams } from '../../../lib/source/watchSpec.js';
import { FencedOutError, StateStoreError, type WatchCheckpoints } from '../../../lib/state/index.js';
import { MemoryCheckpoints } from './support/checkpoints.js';
import { scriptedWatch } from './support/scriptedWatch.js';

const watch = scriptedWatch();
jest.unstable_mockModule('../../../lib/kube/watch.js', () => watch.module);
const { pumpCluster } = await import('../../../lib/source/pump.js');

const STREAMS = watchStreams([podUnavailableBudgetKind]);
const SILENT = new Logger({ logLevel: 'SILENT' });

/** A bookmark at `rv` on every stream `afterMs` after its watch opened. */
function bookmark(afterMs: number, rv: string): { afterMs: number; type: 'BOOKMARK'; obj: JsonObject } {
  return { afterMs, type: 'BOOKMARK', obj: { metadata: { resourceVersion: rv } } };
}

/** Runs the PUB kind's streams of cluster `c1` for `ms` of fake time against `checkpoints`. */
async function run(checkpoints: WatchCheckpoints, ms: number, holder = 'run-1') {
  const done = pumpCluster(
    {
      cluster: 'c1',
      kc: new KubeConfig(),
      kube: {
        get: () => Promise.resolve(undefined),
        list: () => Promise.reject(new Error('no relist expected')),
      },
      watches: checkpoints,
      publisher: { publish: (r) => Promise.resolve({ published: r.length, calls: 1, retried: 0 }) },
      holder,
      clock: () => Date.now(),
      deadlineMs: Date.now() + ms,
      leaseDurationMs: ms + 5_000,
      watchTimeoutSeconds: 60,
      flushIntervalMs: 50,
      checkpointIntervalMs: 10_000,
      handoverPollMs: 500,
      log: SILENT,
    },
    STREAMS,
  );
  done.catch(() => undefined); // a run that fails is awaited by the test after the timers, not left unhandled
  await jest.advanceTimersByTimeAsync(ms + 1_000);
  return done;
}

describe('one checkpoint item per cluster', () => {
  it('takes the lease once, writes every stream’s resume point together once per interval, and releases with them', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const checkpoints = new MemoryCheckpoints(() => Date.now());
      for (const s of STREAMS) checkpoints.seed('c1', s.resource, '10');
      watch.script = [bookmark(1_000, '20'), bookmark(3_000, '30'), bookmark(25_000, '40')];
      const results = await run(checkpoints, 30_000);

      expect(results.map((r) => [r.resource, r.acquired, r.resourceVersion])).toEqual(
        STREAMS.map((s) => [s.resource, true, '40']),
      );
      const all = (rv: string) => Object.fromEntries(STREAMS.map((s) => [s.resource, rv]));
      expect(
        checkpoints.calls.map((c) => [c.op, c.at, c.op === 'acquire' ? c.acquired : c.resumePoints]),
      ).toEqual([
        ['acquire', 0, true],
        // the first moves are written together once the interval since the lease was taken is up (a timer turn
        // later), the next as soon as it moves again after another interval, the last with the release
        ['save', 10_001, all('30')],
        ['save', 25_002, all('40')],
        ['release', 30_000, all('40')],
      ]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a cluster whose item has no resume points resumes each stream from its own older item', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const checkpoints = new MemoryCheckpoints(() => Date.now());
      for (const s of STREAMS) checkpoints.seedLegacy('c1', s.resource, '77');
      watch.script = [];
      const results = await run(checkpoints, 2_000);
      // no relist (the kube client refuses any LIST), every stream resumed at the older item's point
      expect(results.map((r) => [r.relists, r.resourceVersion, r.error])).toEqual(
        STREAMS.map(() => [0, '77', undefined]),
      );
      expect(checkpoints.calls.at(-1)).toMatchObject({
        op: 'release',
        resumePoints: Object.fromEntries(STREAMS.map((s) => [s.resource, '77'])),
      });
    } finally {
      jest.useRealTimers();
    }
  });

  it('a failed read of the older items releases the lease at once and fails the run', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const checkpoints = new MemoryCheckpoints(() => Date.now());
      const failing: WatchCheckpoints = {
        acquire: (...a) => checkpoints.acquire(...a),
        save: (...a) => checkpoints.save(...a),
        release: (...a) => checkpoints.release(...a),
        legacyResumePoint: () =>
          Promise.reject(new StateStoreError('watch.legacy (GetItem)', 'cluster#c1/watch#pods', 'throttled')),
      };
      await expect(run(failing, 2_000)).rejects.toThrow('DynamoDB watch.legacy (GetItem)');
      expect(checkpoints.calls.map((c) => [c.op, c.at])).toEqual([
        ['acquire', 0],
        ['release', 0],
      ]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('waits for a live holder’s release; never acquired by the deadline, every stream says so and nothing is written', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const checkpoints = new MemoryCheckpoints(() => Date.now());
      await checkpoints.acquire('c1', 'previous-run', 600_000, 0);
      const results = await run(checkpoints, 5_000);
      expect(results.map((r) => [r.acquired, r.waitedMs, r.watches])).toEqual(
        STREAMS.map(() => [false, 5_000, 0]),
      );
      expect(checkpoints.calls.filter((c) => c.op !== 'acquire')).toEqual([]);
      expect(checkpoints.calls.filter((c) => c.holder === 'run-1')).toHaveLength(10); // at 0, 500, … 4,500 ms
    } finally {
      jest.useRealTimers();
    }
  });

  it('a write that finds the lease taken stops every stream at once, each with the reason, and releases nothing', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const checkpoints = new MemoryCheckpoints(() => Date.now());
      for (const s of STREAMS) checkpoints.seed('c1', s.resource, '10');
      const taken: WatchCheckpoints = {
        acquire: (...a) => checkpoints.acquire(...a),
        legacyResumePoint: (...a) => checkpoints.legacyResumePoint(...a),
        release: (...a) => checkpoints.release(...a),
        save: () => Promise.reject(new FencedOutError('watch.save', 'cluster#c1/watches', 1, 'holder run-1')),
      };
      watch.script = [bookmark(1_000, '20')];
      const results = await run(taken, 60_000);
      expect(results.map((r) => [r.acquired, r.error])).toEqual(
        STREAMS.map(() => [
          true,
          'watch.save on cluster#c1/watches was fenced out: token 1 is no longer current (holder run-1)',
        ]),
      );
      // every watch ended at the failed write (10 s), not at the deadline
      expect(Math.max(...results.map((r) => r.watches))).toBe(1);
      expect(checkpoints.calls.map((c) => c.op)).toEqual(['acquire']);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('ClusterCheckpoint', () => {
  it('keeps a failed write’s points and writes them at the next interval; a save after a lost lease rejects', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const attempts: Record<string, string>[] = [];
      let failNext: Error | undefined = new StateStoreError('watch.save', 'cluster#c1/watches', 'throttled');
      const store: WatchCheckpoints = {
        acquire: () => Promise.resolve({ acquired: true, token: 1 }),
        legacyResumePoint: () => Promise.resolve(undefined),
        release: () => Promise.resolve(),
        save: (_c, _h, _t, points) => {
          attempts.push({ ...points });
          const e = failNext;
          failNext = undefined;
          return e ? Promise.reject(e) : Promise.resolve();
        },
      };
      const lost: FencedOutError[] = [];
      const cp = new ClusterCheckpoint(
        {
          watches: store,
          cluster: 'c1',
          holder: 'h',
          clock: () => Date.now(),
          intervalMs: 10_000,
          log: SILENT,
        },
        1,
        { pods: '1' },
        (e) => lost.push(e),
      );
      await cp.save('c1', 'pods', 'h', 1, '5');
      await cp.save('c1', 'pods', 'h', 1, '6');
      await jest.advanceTimersByTimeAsync(10_000);
      expect(attempts).toEqual([{ pods: '6' }]); // failed
      await cp.save('c1', 'clonesets', 'h', 1, '7');
      await jest.advanceTimersByTimeAsync(10_000);
      expect(attempts).toEqual([{ pods: '6' }, { pods: '6', clonesets: '7' }]);

      failNext = new FencedOutError('watch.save', 'cluster#c1/watches', 1, 'holder h');
      await cp.save('c1', 'pods', 'h', 1, '8');
      await jest.advanceTimersByTimeAsync(10_000);
      expect(lost).toHaveLength(1);
      await expect(cp.save('c1', 'pods', 'h', 1, '9')).rejects.toBe(lost[0]);
      await expect(cp.acquire('c1', 'pods')).resolves.toEqual({ acquired: false, token: 1 });
    } finally {
      jest.useRealTimers();
    }
  });
});
