/**
 * LIST floors across invocations (lib/reconcile/reconcile.ts `startingFloors`, lib/kube/listFloors.ts,
 * docs/architecture.md#list-floors): a release stores what the invocation listed, the next invocation lists
 * `NotOlderThan` that raised to the resourceVersion of the change that woke it; a resync, a request without a
 * resourceVersion, a takeover of a lease that was not released and a dirty mark (woken wait or `'dirty'` release) all
 * read by quorum. Real loop and `guardedReconciler`, in-memory state store, a client that records every LIST.
 */
import { describe, expect, it } from '@jest/globals';
import type { Pod } from '../../../lib/api/types.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import type { KubeClient, Listed, ListOptions } from '../../../lib/kube/types.js';
import { guardedReconciler } from '../../../lib/reconcile/guardedReconciler.js';
import { reconcileObject, type LoopDeps } from '../../../lib/reconcile/reconcile.js';
import type { ReconcileRequest } from '../../../lib/requests/index.js';
import { createMemoryStores } from '../../../lib/state/memory.js';
import { loopDeps, requestFor } from './support/loop.js';

const T0 = Date.parse('2026-12-05T02:00:00Z');
const KEY = { cluster: 'c1', kind: 'apps.kruise.io/StatefulSet', namespace: 'ns', name: 'web' };

const request = requestFor(KEY);

/**
 * A world of one object: every pods LIST is recorded as `quorum` or `notOlderThan <rv>` and answers a resourceVersion
 * one newer than the last answer (200 first), at least the one asked for; `onList` runs before each answer.
 */
function world() {
  const stores = createMemoryStores();
  const lists: string[] = [];
  const hooks: { onList?: () => Promise<void> } = {};
  let rv = 200;
  let now = T0;
  const kube = {
    list: async (_r: unknown, options: ListOptions = {}): Promise<Listed<never>> => {
      const asked = options.resourceVersionMatch === 'NotOlderThan' ? options.resourceVersion : undefined;
      lists.push(asked === undefined ? 'quorum' : `notOlderThan ${asked}`);
      await hooks.onList?.();
      rv = Math.max(rv, Number(asked ?? 0));
      return { items: [], resourceVersion: String(rv++) };
    },
  } as unknown as KubeClient;
  /** Passes: the first asks to look again in `firstWaitSeconds` (if given), the later ones are done. */
  const reconcilerOf = (firstWaitSeconds?: number) => {
    let passes = 0;
    return guardedReconciler<LoopDeps & { kube: KubeClient }, undefined, 'all'>(
      () => 'all',
      async (deps) => {
        await deps.kube.list<Pod>(RESOURCES.pods, { namespace: 'ns' });
        passes++;
        return passes === 1 && firstWaitSeconds !== undefined
          ? { gone: false, writes: 0, acted: false, requeueAfterSeconds: firstWaitSeconds }
          : { gone: false, writes: 0, acted: false };
      },
      [RESOURCES.pods],
    );
  };
  const invoke = async (
    req: ReconcileRequest,
    options: { holder?: string; firstWaitSeconds?: number; afterSleep?: () => Promise<void> } = {},
  ) => {
    const deps = loopDeps({
      kube,
      leases: stores.leases,
      now,
      clock: () => now,
      ...(options.holder ? { holder: options.holder } : {}),
      sleep: async (ms: number) => {
        now += ms;
        await options.afterSleep?.();
      },
    });
    return reconcileObject(deps, reconcilerOf(options.firstWaitSeconds), req);
  };
  return { stores, lists, hooks, invoke, tick: (ms: number) => (now += ms) };
}

describe('LIST floors carried by the lease', () => {
  it('the next invocation lists NotOlderThan the newer of what the last one saw and the change that woke it', async () => {
    const w = world();
    await w.invoke(request('OwnedObjectChanged', '150')); // nothing carried: quorum, answers 200
    await w.invoke(request('OwnedObjectChanged', '300')); // woken by 300, newer than 200; answers 300
    await w.invoke(request('OwnedObjectChanged', '250')); // an older change: the floor 300 stands; answers 301
    await w.invoke(request('Requeue', '100'));
    expect(w.lists).toEqual(['quorum', 'notOlderThan 300', 'notOlderThan 300', 'notOlderThan 301']);
  });

  it('a resync and a request without a resourceVersion read by quorum', async () => {
    const w = world();
    await w.invoke(request('OwnedObjectChanged', '150'));
    await w.invoke(request('Resync', '400'));
    await w.invoke(request('ObjectChanged'));
    await w.invoke(request('ObjectChanged', '150'));
    expect(w.lists).toEqual(['quorum', 'quorum', 'quorum', 'notOlderThan 202']);
  });

  it('after a takeover of a lease that was never released, quorum: the dead holder may have seen more', async () => {
    const w = world();
    await w.invoke(request('OwnedObjectChanged', '150'));
    // a holder takes the lease and dies holding it; its lease runs out
    await w.stores.leases.acquire(KEY, 'dead/1', 1_000, T0);
    w.tick(2_000);
    await w.invoke(request('OwnedObjectChanged', '150'), { holder: 'req-2/1' });
    await w.invoke(request('OwnedObjectChanged', '150'), { holder: 'req-3/1' });
    expect(w.lists).toEqual(['quorum', 'quorum', 'notOlderThan 201']);
  });

  it('a floor 10 s after its quorum read is read by quorum again, across invocations', async () => {
    const w = world();
    await w.invoke(request('OwnedObjectChanged', '150'));
    w.tick(9_999);
    await w.invoke(request('OwnedObjectChanged', '150'));
    w.tick(1);
    await w.invoke(request('OwnedObjectChanged', '150'));
    expect(w.lists).toEqual(['quorum', 'notOlderThan 200', 'quorum']);
  });

  it('a dirty mark that ends an inline wait makes the next pass read by quorum; its floor is carried on', async () => {
    const w = world();
    await w.invoke(request('OwnedObjectChanged', '150'));
    let marked = false;
    await w.invoke(request('OwnedObjectChanged', '150'), {
      firstWaitSeconds: 2,
      afterSleep: async () => {
        if (marked) return;
        marked = true;
        await w.stores.leases.acquire(KEY, 'req-9/1', 900_000, T0 + 1);
      },
    });
    await w.invoke(request('OwnedObjectChanged', '150'));
    expect(w.lists).toEqual(['quorum', 'notOlderThan 200', 'quorum', 'notOlderThan 202']);
  });

  it("a mark read at the release (a 'dirty' release) makes the next pass read by quorum", async () => {
    const w = world();
    await w.invoke(request('OwnedObjectChanged', '150'));
    // the mark arrives while the only pass runs: no wait to end, so the release finds it
    let marked = false;
    w.hooks.onList = async () => {
      if (marked) return;
      marked = true;
      await w.stores.leases.acquire(KEY, 'req-9/1', 900_000, T0 + 1);
    };
    await w.invoke(request('OwnedObjectChanged', '150'));
    expect(w.lists).toEqual(['quorum', 'notOlderThan 200', 'quorum']);
  });

  it("a mark of an owned change raises the next pass's floor to that change; of the object itself, keeps it (woken wait)", async () => {
    const w = world();
    await w.invoke(request('OwnedObjectChanged', '150'));
    const marks = [
      { resourceVersion: '500' },
      { resourceVersion: '450' }, // older than the first: the floor stays at 500
      'none' as const,
    ];
    let sleeps = 0;
    await w.invoke(request('OwnedObjectChanged', '150'), {
      firstWaitSeconds: 2,
      afterSleep: async () => {
        if (sleeps++ > 0) return;
        for (const [i, mark] of marks.entries())
          await w.stores.leases.acquire(KEY, `req-9/${i}`, 900_000, T0 + 1, mark);
      },
    });
    expect(w.lists).toEqual(['quorum', 'notOlderThan 200', 'notOlderThan 500']);
  });

  it("a mark of the object's own change alone keeps the floor; a resync's mark among others reads by quorum ('dirty' release)", async () => {
    const w = world();
    await w.invoke(request('OwnedObjectChanged', '150'));
    const marksOf = [['none'], ['none', { resourceVersion: '900' }, 'quorum']] as const;
    let invocation = 0;
    w.hooks.onList = async () => {
      const marks = marksOf[invocation++];
      for (const [i, mark] of (marks ?? []).entries())
        await w.stores.leases.acquire(KEY, `req-9/${i}`, 900_000, T0 + 1, mark);
    };
    await w.invoke(request('OwnedObjectChanged', '150'));
    expect(w.lists).toEqual([
      'quorum',
      'notOlderThan 200', // marked 'none' while it ran: the release is dirty, the floor kept
      'notOlderThan 201', // marked 'none', 900 and 'quorum' while it ran: the quorum mark wins
      'quorum',
    ]);
  });
});
