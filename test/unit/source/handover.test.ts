/**
 * The scheduled watch runs hand each stream over (review finding 8, docs/reliability.md#watch-handover): serverless.yml
 * starts a run every minute with a 70 s timeout; a run ends its watches at its deadline (8 s before the timeout, by
 * an AbortSignal, a stalled watch too) and the next run, started while the previous one still holds the checkpoint
 * lease, waits for the release and follows the stream on from the saved checkpoint. Driven through the watch handler
 * on jest's fake timers, with a fake API server behind `watchOnce`.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { cloneSetKind } from '../../../lib/controllers/cloneset/kind.js';

/** CloneSet's streams alone: the handover of one registration's watches is what this file times. */
const CONTROLLER_KINDS = [cloneSetKind];
import { watchStreams } from '../../../lib/source/watchSpec.js';
import { LAMBDA_TIMEOUT_MS, WATCH_FUNCTION, useScheduledWatch } from './support/scheduledWatch.js';
import { FAKE_CLIENT_GRACE_MS, FakeWatchServer, rvAt, type WatchCall } from './support/fakeWatchServer.js';

const server = new FakeWatchServer();
jest.unstable_mockModule('../../../lib/kube/watch.js', () => ({
  watchOnce: server.watchOnce,
  isGoneStatus: () => false,
  CLIENT_GRACE_MS: FAKE_CLIENT_GRACE_MS,
}));
const { watchHandler } = await import('../../../lib/runtime/handlers/watch.js');

const CLONESETS = watchStreams(CONTROLLER_KINDS).find((s) => s.resource === 'clonesets');
if (!CLONESETS) throw new Error('no clonesets stream');

const { checkpoints, published, handler, invoke } = useScheduledWatch(watchHandler, server, CONTROLLER_KINDS);

/** Longest stretch of [from, to] with no open watch of `path`, ms. */
function longestGap(calls: WatchCall[], path: string, from: number, to: number): number {
  const spans = calls
    .filter((c) => c.path === path)
    .map((c) => [c.start, c.end ?? to] as const)
    .sort((a, b) => a[0] - b[0]);
  let covered = from;
  let gap = 0;
  for (const [start, end] of spans) {
    gap = Math.max(gap, start - covered);
    covered = Math.max(covered, end);
  }
  return Math.max(gap, to - covered);
}

const clonesetWatches = () =>
  server.watches.filter((w) => w.path === CLONESETS.path).map(({ path: _path, ...w }) => w);

describe('overlapping scheduled watch runs', () => {
  it('serverless.yml runs the watch function every minute for 70 s: consecutive runs overlap', () => {
    expect(WATCH_FUNCTION.events[0]).toEqual({ schedule: 'rate(1 minute)' });
    // the other event is the watch slices' rule (lib/source/watchSlices.ts), no schedule
    expect(WATCH_FUNCTION.events.slice(1).map((e) => Object.keys(e as object))).toEqual([['eventBridge']]);
    expect(LAMBDA_TIMEOUT_MS).toBe(70_000);
  });

  it('run B, started at 60.3 s while run A holds the stream, takes it over at A’s release and follows it from A’s checkpoint', async () => {
    const run = handler();
    const a = invoke(run, 'A');
    await jest.advanceTimersByTimeAsync(10_000);
    server.change(CLONESETS.path, 'web');
    await jest.advanceTimersByTimeAsync(50_300);
    const b = invoke(run, 'B'); // at 60.3 s
    await jest.advanceTimersByTimeAsync(700);
    server.change(CLONESETS.path, 'web'); // at 61 s: A still watches
    await jest.advanceTimersByTimeAsync(1_100);
    server.change(CLONESETS.path, 'web'); // at 62.1 s: A has ended, B not yet started
    await jest.advanceTimersByTimeAsync(27_900);
    server.change(CLONESETS.path, 'web'); // at 90 s: only B watches
    await jest.advanceTimersByTimeAsync(40_000);
    const [ra, rb] = await Promise.all([a, b]);

    expect(clonesetWatches()).toEqual([
      { from: rvAt(0), start: 0, end: 50_000, endedBy: 'timeout' },
      { from: rvAt(49_000), start: 50_000, end: 62_000, endedBy: 'signal' },
      { from: rvAt(61_000), start: 62_300, end: 112_300, endedBy: 'timeout' },
      { from: rvAt(111_300), start: 112_300, end: 122_300, endedBy: 'signal' },
    ]);
    const streamA = ra.c1.find((s) => s.resource === 'clonesets');
    const streamB = rb.c1.find((s) => s.resource === 'clonesets');
    expect(streamA).toMatchObject({ acquired: true, waitedMs: 0, watches: 2, changes: 2 });
    expect(streamB).toMatchObject({ acquired: true, waitedMs: 2_000, watches: 2, changes: 2 });
    // every change published once: at once after a quiet spell (1 ms, Node's shortest timer), or — B's replay of the
    // change at 62.1 s — once a flush interval has passed since its watch opened at 62.3 s
    expect(published().filter((p) => p.name === 'web')).toEqual([
      { at: 10_001, name: 'web' },
      { at: 61_001, name: 'web' },
      { at: 63_300, name: 'web' },
      { at: 90_301, name: 'web' },
    ]);
    // B polled every 500 ms until A's release at its deadline, 8 s before A's timeout: one lease for the cluster's
    // three streams, released once by each run with every stream's resume point
    expect(
      checkpoints()
        .calls.filter((c) => c.op === 'release')
        .map((c) => c.op === 'release' && [c.holder, c.at, c.resumePoints?.clonesets]),
    ).toEqual([
      ['A', 62_000, rvAt(61_000)],
      ['B', 122_300, rvAt(121_300)],
    ]);
    expect(
      checkpoints()
        .calls.filter((c) => c.op === 'acquire' && c.holder === 'B' && c.at < 63_000)
        .map((c) => c.op === 'acquire' && [c.at, c.acquired]),
    ).toEqual([60_300, 60_800, 61_300, 61_800, 62_300].map((at) => [at, at === 62_300]));
    // between acquire and release, a run writes the cluster's item once per checkpoint interval (10 s) while the
    // streams' resume points move (the fake server's bookmarks move them every second): one write for all three
    // streams, where each stream wrote its own item
    expect(
      checkpoints()
        .calls.filter((c) => c.op === 'save')
        .map((c) => [c.holder, c.at]),
    ).toEqual([
      ...[10_002, 20_002, 30_002, 40_002, 50_002, 60_002].map((at) => ['A', at]),
      ...[72_302, 82_302, 92_302, 102_302, 112_302].map((at) => ['B', at]),
    ]);
    // A's lease ran until its timeout and a little more, not 60 s past it
    expect(checkpoints().calls.find((c) => c.op === 'acquire' && c.holder === 'A')).toMatchObject({
      at: 0,
      durationMs: 75_000,
    });
    // the longest time with no open watch of the stream, from A's start to B's deadline
    expect(longestGap(server.watches, CLONESETS.path, 0, 122_300)).toBe(300);
  });

  it('a stalled watch is aborted at the run’s deadline, so the run releases 8 s before its timeout and B takes over', async () => {
    const run = handler();
    server.stalled = true; // A's connections never end and deliver nothing
    const a = invoke(run, 'A');
    await jest.advanceTimersByTimeAsync(60_000);
    server.stalled = false;
    await jest.advanceTimersByTimeAsync(300);
    const b = invoke(run, 'B');
    await jest.advanceTimersByTimeAsync(70_000);
    const [ra, rb] = await Promise.all([a, b]);

    expect(clonesetWatches().slice(0, 3)).toEqual([
      { from: rvAt(0), start: 0, end: 55_000, endedBy: 'grace' },
      { from: rvAt(0), start: 55_000, end: 62_000, endedBy: 'signal' },
      { from: rvAt(0), start: 62_300, end: 112_300, endedBy: 'timeout' },
    ]);
    expect(ra.c1.map((s) => s.acquired)).toEqual([true, true, true]);
    expect(rb.c1.map((s) => [s.acquired, s.waitedMs])).toEqual([
      [true, 2_000],
      [true, 2_000],
      [true, 2_000],
    ]);
    expect(
      checkpoints()
        .calls.filter((c) => c.op === 'release' && c.holder === 'A')
        .map((c) => c.at),
    ).toEqual([62_000]);
  });
});
