/**
 * The read scope after dirty marks (lib/reconcile/reconcile.ts `MARKED_CHANGE_REASON`): an invocation started by a
 * `Requeue` reads narrowly (a CloneSet's pods by its selector), but the changes other invocations marked on its
 * lease while it held it may be a pod that left the selector, so the passes after the marks read as after an
 * observed change. Real loop, in-memory state store, a scripted reconciler recording each pass's scope, and a clock
 * the sleeps move.
 */
import { describe, expect, it } from '@jest/globals';
import { silentLogger } from '../../../lib/core/logger.js';
import {
  MARKED_CHANGE_REASON,
  reconcileObject,
  type LoopDeps,
  type PassResult,
  type Reconciler,
} from '../../../lib/reconcile/reconcile.js';
import { EVENT_VERSION, type ReconcileReason, type ReconcileRequest } from '../../../lib/requests/index.js';
import { createMemoryStores } from '../../../lib/state/memory.js';

const T0 = Date.parse('2026-12-06T19:00:00Z');
const KEY = { cluster: 'c1', kind: 'example.kruiseless.io/Widget', namespace: 'ns', name: 'w' };
const request = (reason: ReconcileReason): ReconcileRequest => ({
  version: EVENT_VERSION,
  ...KEY,
  reason,
});

type Scope = 'selector' | 'owned';

/**
 * One invocation of `reason` whose passes ask for the given waits (seconds; undefined ends the run), with another
 * invocation's event marking the lease after `markAtMs` of sleep (or, with `markAtRelease`, during the first release).
 */
async function invoke(
  reason: ReconcileReason,
  waits: (number | undefined)[],
  mark: { atMs?: number; atRelease?: boolean },
  maxPasses = 5,
): Promise<{ scopes: Scope[]; handedOff: string[] }> {
  const stores = createMemoryStores();
  let now = T0;
  const scopes: Scope[] = [];
  const handedOff: string[] = [];
  const reconciler: Reconciler<LoopDeps, string, Scope> = {
    readScope: (r) => (r === 'Requeue' ? 'selector' : 'owned'),
    async pass(_deps, _key, env): Promise<PassResult<string>> {
      scopes.push(env.scope);
      const wait = waits[scopes.length - 1];
      return {
        gone: false,
        writes: 0,
        acted: false,
        ...(wait === undefined ? {} : { requeueAfterSeconds: wait }),
      };
    },
  };
  let marked = false;
  const markOnce = async () => {
    if (marked) return;
    marked = true;
    await stores.leases.acquire(KEY, 'req-2/1', 900_000, now);
  };
  let slept = 0;
  const deps: LoopDeps = {
    leases: {
      acquire: (...a) => stores.leases.acquire(...a),
      renew: (...a) => stores.leases.renew(...a),
      takeDirty: (...a) => stores.leases.takeDirty(...a),
      async release(...a) {
        if (mark.atRelease) await markOnce();
        return stores.leases.release(...a);
      },
    },
    requeue: { requeueAfter: async () => undefined },
    handOff: async (next) => void handedOff.push(next.reason),
    log: silentLogger,
    clock: () => now,
    holder: 'req-1/1',
    sleep: async (ms) => {
      now += ms;
      slept += ms;
      if (mark.atMs !== undefined && slept >= mark.atMs) await markOnce();
    },
    deadlineMs: T0 + 60_000,
    leaseDurationMs: 900_000,
    maxInlineWaitSeconds: 10,
    maxPasses,
    dirtyPollMs: 250,
  };
  await reconcileObject(deps, reconciler, request(reason));
  return { scopes, handedOff };
}

describe('the read scope after dirty marks', () => {
  it('is the marked change reason', () => {
    expect(MARKED_CHANGE_REASON).toBe('OwnedObjectChanged');
  });

  it('a Requeue reads by selector until a mark wakes its wait, then as after a change', async () => {
    const run = await invoke('Requeue', [2, 2, undefined], { atMs: 500 });
    expect(run.scopes).toEqual(['selector', 'owned', 'owned']);
  });

  it('a Requeue whose release finds the lease marked runs again as after a change', async () => {
    const run = await invoke('Requeue', [undefined, undefined], { atRelease: true });
    expect(run.scopes).toEqual(['selector', 'owned']);
  });

  it('a Requeue with no mark reads by selector throughout', async () => {
    const run = await invoke('Requeue', [2, undefined], {});
    expect(run.scopes).toEqual(['selector', 'selector']);
  });

  it('the marked events handed on at the end of the budget are read as a change by the next invocation', async () => {
    const run = await invoke('Requeue', [undefined], { atRelease: true }, 1);
    expect(run.scopes).toEqual(['selector']);
    expect(run.handedOff).toEqual(['OwnedObjectChanged']);
  });
});
