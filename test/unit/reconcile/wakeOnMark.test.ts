/**
 * A wait slept inside the invocation ends early when another invocation marks the lease dirty
 * (lib/reconcile/reconcile.ts `dirtyPollMs`, lib/state `LeaseStore.takeDirty`): the event reaches the next pass
 * within one poll, not at the end of the wait. Real loop, in-memory state store, a scripted reconciler and a clock
 * the sleeps move.
 */
import { describe, expect, it } from '@jest/globals';
import { silentLogger } from '../../../lib/core/logger.js';
import {
  reconcileObject,
  type LoopDeps,
  type PassResult,
  type Reconciler,
} from '../../../lib/reconcile/reconcile.js';
import { EVENT_VERSION, type ReconcileRequest } from '../../../lib/requests/index.js';
import { createMemoryStores } from '../../../lib/state/memory.js';
import { StateStoreError, type LeaseStore } from '../../../lib/state/index.js';

const T0 = Date.parse('2026-12-03T20:00:00Z');
const REQUEST: ReconcileRequest = {
  version: EVENT_VERSION,
  cluster: 'c1',
  kind: 'example.kruiseless.io/Widget',
  namespace: 'ns',
  name: 'w',
  reason: 'ObjectChanged',
};
const KEY = { cluster: 'c1', kind: 'example.kruiseless.io/Widget', namespace: 'ns', name: 'w' };

interface Run {
  /** Every sleep the loop asked for, ms, in order. */
  sleeps: number[];
  /** The clock (ms after T0) at each pass. */
  passesAt: number[];
  /** Calls of takeDirty and what each answered. */
  polls: string[];
  result: string;
  released: string[];
}

/**
 * One invocation whose first pass waits 2 s (pending expectations) and whose later passes do nothing. `during`
 * runs after each sleep with the time slept so far (ms), e.g. to mark the lease from another invocation.
 */
async function invoke(
  options: {
    dirtyPollMs?: number;
    during?: (sleptMs: number, stores: ReturnType<typeof createMemoryStores>) => Promise<void>;
    leases?: (real: LeaseStore) => LeaseStore;
    /** The wait each pass asks for, seconds, by pass (default: 2 s for the first, none after). */
    waits?: (number | undefined)[];
  } = {},
): Promise<Run> {
  const stores = createMemoryStores();
  let now = T0;
  const run: Run = { sleeps: [], passesAt: [], polls: [], result: '', released: [] };
  const reconciler: Reconciler<LoopDeps, string, 'all'> = {
    readScope: () => 'all',
    async pass(): Promise<PassResult<string>> {
      run.passesAt.push(now - T0);
      const wait = (options.waits ?? [2])[run.passesAt.length - 1];
      return wait === undefined
        ? { gone: false, writes: 0, acted: false }
        : { gone: false, writes: 0, acted: false, requeueAfterSeconds: wait };
    },
  };
  const real = options.leases ? options.leases(stores.leases) : stores.leases;
  const leases: LeaseStore = {
    acquire: (...a) => real.acquire(...a),
    renew: (...a) => real.renew(...a),
    async release(...a) {
      const r = await real.release(...a);
      run.released.push(r);
      return r;
    },
    async takeDirty(lease) {
      try {
        const r = await real.takeDirty(lease);
        run.polls.push(`${now - T0}:${r === false ? false : JSON.stringify(r)}`);
        return r;
      } catch (e) {
        run.polls.push(`${now - T0}:${(e as Error).name}`);
        throw e;
      }
    },
  };
  let slept = 0;
  const deps: LoopDeps = {
    leases,
    requeue: { requeueAfter: async () => undefined },
    log: silentLogger,
    clock: () => now,
    holder: 'req-1/1',
    sleep: async (ms) => {
      run.sleeps.push(ms);
      now += ms;
      slept += ms;
      await options.during?.(slept, stores);
    },
    deadlineMs: T0 + 60_000,
    leaseDurationMs: 900_000,
    maxInlineWaitSeconds: 10,
    maxPasses: 5,
    ...(options.dirtyPollMs !== undefined ? { dirtyPollMs: options.dirtyPollMs } : {}),
  };
  run.result = (await reconcileObject(deps, reconciler, REQUEST)).result;
  return run;
}

/** Another invocation's event for the object after `atMs` of sleep: its refused acquire marks the lease dirty. */
const markAfter =
  (atMs: number) =>
  async (sleptMs: number, stores: ReturnType<typeof createMemoryStores>): Promise<void> => {
    if (sleptMs === atMs) await stores.leases.acquire(KEY, 'req-2/1', 900_000, T0 + sleptMs);
  };

describe('an inline wait woken by a dirty mark', () => {
  it('without a poll interval the whole wait is slept, and the mark is read at the release', async () => {
    const run = await invoke({ during: markAfter(2000) });
    expect(run.sleeps).toEqual([2000]);
    expect(run.passesAt).toEqual([0, 2000, 2000]);
    expect(run.polls).toEqual([]);
    expect(run.released).toEqual(['dirty', 'released']);
  });

  it('a mark during the wait starts the next pass at the next poll, and the flag it cleared does not run another', async () => {
    const run = await invoke({ dirtyPollMs: 250, during: markAfter(500) });
    expect(run.sleeps).toEqual([250, 250]);
    expect(run.polls).toEqual(['250:false', '500:{"quorum":true}']);
    expect(run.passesAt).toEqual([0, 500]);
    expect(run.released).toEqual(['released']);
    expect(run.result).toBe('reconciled');
  });

  it('a wait after a woken one ends no later than the woken one would have (the earliest timer stands)', async () => {
    // pass 1 waits 2 s; a mark at 500 ms wakes pass 2, which asks for 2 s again: the first wait's end, 2,000 ms,
    // still stands, as a workqueue keeps the earliest AddAfter (CloneSet min-ready-timer: a scale during the
    // minReadySeconds wait pushed the status of the older pods past the checkpoint)
    const run = await invoke({ dirtyPollMs: 250, during: markAfter(500), waits: [2, 2] });
    expect(run.passesAt).toEqual([0, 500, 2000]);
    expect(run.sleeps).toEqual([250, 250, 250, 250, 250, 250, 250, 250]);
  });

  it('a later wait shorter than the woken one is kept', async () => {
    const run = await invoke({ dirtyPollMs: 250, during: markAfter(500), waits: [2, 0.5] });
    expect(run.passesAt).toEqual([0, 500, 1000]);
  });

  it('no mark: the wait is slept out in polls and the last step is not polled', async () => {
    const run = await invoke({ dirtyPollMs: 300 });
    expect(run.sleeps).toEqual([300, 300, 300, 300, 300, 300, 200]);
    expect(run.polls).toEqual([
      '300:false',
      '600:false',
      '900:false',
      '1200:false',
      '1500:false',
      '1800:false',
    ]);
    expect(run.passesAt).toEqual([0, 2000]);
  });

  it('a poll that fails in DynamoDB is logged and the wait goes on', async () => {
    let fail = 1;
    const run = await invoke({
      dirtyPollMs: 1000,
      leases: (real) => ({
        ...real,
        acquire: real.acquire.bind(real),
        renew: real.renew.bind(real),
        release: real.release.bind(real),
        takeDirty: (lease) =>
          fail-- > 0
            ? Promise.reject(new StateStoreError('lease.takeDirty (GetItem)', 'lease', 'throttled'))
            : real.takeDirty(lease),
      }),
    });
    expect(run.sleeps).toEqual([1000, 1000]);
    expect(run.polls).toEqual(['1000:StateStoreError']);
    expect(run.passesAt).toEqual([0, 2000]);
  });

  it('a takeover during the wait ends the invocation fenced, without another pass', async () => {
    const run = await invoke({
      dirtyPollMs: 250,
      during: async (slept, stores) => {
        // the lease is taken by another execution as if ours had run out
        if (slept === 250) await stores.leases.acquire(KEY, 'req-9/1', 900_000, T0 + 900_000 + 1);
      },
    });
    expect(run.polls).toEqual(['250:FencedOutError']);
    expect(run.passesAt).toEqual([0]);
    expect(run.result).toBe('fenced');
  });
});
