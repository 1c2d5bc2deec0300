/**
 * A stream that fails within a scheduled watch run is opened again in that run, after 1 s, 2 s, 4 s … (lib/source/
 * pump.ts `pumpStreamReopening`), from its saved checkpoint: before, it stayed closed until the next run, up to a
 * minute without its changes (the fault front's predelete-hook baseline missed a pod's label change so). Driven
 * through the watch handler on jest's fake timers, with a fake API server behind `watchOnce` whose first watches
 * of the CloneSet stream fail.
 */
import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { cloneSetKind } from '../../../lib/controllers/cloneset/kind.js';

/** CloneSet's streams alone: the handover of one registration's watches is what this file times. */
const CONTROLLER_KINDS = [cloneSetKind];
import { watchStreams } from '../../../lib/source/watchSpec.js';
import { useScheduledWatch } from './support/scheduledWatch.js';
import { FAKE_CLIENT_GRACE_MS, FakeWatchServer, rvAt } from './support/fakeWatchServer.js';

const server = new FakeWatchServer();
const CLONESETS_PATH = '/apis/apps.kruise.io/v1alpha1/clonesets';
/** How many more CloneSet watches fail (500 after 2 s) before the fake server answers them again. */
let failing = 0;
const failingWatchOnce: typeof server.watchOnce = (kc, path, opts, onEvent) => {
  if (failing > 0 && path === CLONESETS_PATH) {
    failing--;
    server.watches.push({ path, from: opts.resourceVersion, start: Date.now(), end: Date.now() + 2_000 });
    return new Promise((_, reject) =>
      setTimeout(() => reject(new Error('watch clonesets: 500 InternalError: etcd unavailable')), 2_000),
    );
  }
  return server.watchOnce(kc, path, opts, onEvent);
};
jest.unstable_mockModule('../../../lib/kube/watch.js', () => ({
  watchOnce: failingWatchOnce,
  isGoneStatus: () => false,
  CLIENT_GRACE_MS: FAKE_CLIENT_GRACE_MS,
}));
const { watchHandler } = await import('../../../lib/runtime/handlers/watch.js');

const CLONESETS = watchStreams(CONTROLLER_KINDS).find((s) => s.resource === 'clonesets');
if (!CLONESETS) throw new Error('no clonesets stream');

const { published, handler, invoke } = useScheduledWatch(watchHandler, server, CONTROLLER_KINDS);
beforeEach(() => {
  failing = 0;
});

const clonesetWatches = () =>
  server.watches.filter((w) => w.path === CLONESETS_PATH).map(({ path: _path, ...w }) => w);

describe('a failed stream within a run', () => {
  it('the CloneSet stream is the path the fake fails', () => {
    expect(CLONESETS.path).toBe(CLONESETS_PATH);
  });

  it('is reopened after 1 s and then 2 s, and a change made meanwhile is published in the same run', async () => {
    failing = 2;
    const run = handler();
    const a = invoke(run, 'A');
    await jest.advanceTimersByTimeAsync(4_000);
    server.change(CLONESETS_PATH, 'web'); // at 4 s: between the second failure and the reopen
    await jest.advanceTimersByTimeAsync(70_000);
    const ra = await a;
    expect(clonesetWatches()).toEqual([
      { from: rvAt(0), start: 0, end: 2_000 },
      { from: rvAt(0), start: 3_000, end: 5_000 },
      { from: rvAt(0), start: 7_000, end: 57_000, endedBy: 'timeout' },
      { from: rvAt(56_000), start: 57_000, end: 62_000, endedBy: 'signal' },
    ]);
    expect(ra.c1.find((s) => s.resource === 'clonesets')).toMatchObject({
      acquired: true,
      reopened: 2,
      changes: 1,
    });
    expect(published().filter((p) => p.name === 'web')).toEqual([{ at: 8_000, name: 'web' }]);
  });
});
