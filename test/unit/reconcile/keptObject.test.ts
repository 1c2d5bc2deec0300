/**
 * The reconciled object kept across an invocation's passes (lib/kube/keptObject.ts, docs/architecture.md#kept-object)
 * through the real loop and `guardedReconciler`, in-memory state store: a pass after a woken wait or a `'dirty'`
 * release reads the object again only when a mark said it changed after the copy (an `ObjectChanged` request's mark,
 * lib/reconcile/reconcile.ts `markOf`) or asked for a quorum read; an owned object's change, or a change the copy
 * already has, leaves the copy. Each new invocation reads it.
 */
import { describe, expect, it } from '@jest/globals';
import type { Pod } from '../../../lib/api/types.js';
import { CLONESET_RESOURCE } from '../../../lib/controllers/cloneset/api/resource.js';
import type { KubeObject } from '../../../lib/kube/resource.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import type { KubeClient, Listed } from '../../../lib/kube/types.js';
import { guardedReconciler } from '../../../lib/reconcile/guardedReconciler.js';
import { markOf, reconcileObject, type LoopDeps } from '../../../lib/reconcile/reconcile.js';
import type { ReconcileRequest } from '../../../lib/requests/index.js';
import { createMemoryStores } from '../../../lib/state/memory.js';
import { loopDeps, requestFor } from './support/loop.js';

const T0 = Date.parse('2026-12-06T01:00:00Z');
const KEY = { cluster: 'c1', kind: 'apps.kruise.io/CloneSet', namespace: 'ns', name: 'web' };

const request = requestFor(KEY);

/** One CloneSet at resourceVersion 300 (`bump` changes it); every GET is recorded with what it answered. */
function world() {
  const stores = createMemoryStores();
  const gets: string[] = [];
  const seen: string[] = [];
  let rv = 300;
  let now = T0;
  const kube = {
    get: async (): Promise<KubeObject> => {
      gets.push(`get ${rv}`);
      return { metadata: { name: 'web', namespace: 'ns', resourceVersion: String(rv) } };
    },
    list: async (): Promise<Listed<never>> => ({ items: [], resourceVersion: '400' }),
  } as unknown as KubeClient;
  /**
   * Two passes: the first reads and asks to look again in 2 s (or, with `acting`, acts, taking `acting.ms`, so the
   * second follows at once), the second reads; `duringWait` runs in the wait.
   */
  const invoke = async (req: ReconcileRequest, duringWait?: () => Promise<void>, acting?: { ms: number }) => {
    let passes = 0;
    const reconciler = guardedReconciler<LoopDeps & { kube: KubeClient }, undefined, 'all'>(
      () => 'all',
      async (deps) => {
        const cs = await deps.kube.get(CLONESET_RESOURCE, { namespace: 'ns', name: 'web' });
        seen.push(`pass ${++passes} sees ${cs?.metadata.resourceVersion ?? '-'}`);
        await deps.kube.list<Pod>(RESOURCES.pods, { namespace: 'ns' });
        if (passes === 1 && acting) {
          now += acting.ms;
          return { gone: false, writes: 1, acted: true };
        }
        return passes === 1
          ? { gone: false, writes: 0, acted: false, requeueAfterSeconds: 2 }
          : { gone: false, writes: 0, acted: false };
      },
      [RESOURCES.pods],
      [],
      [],
      CLONESET_RESOURCE,
    );
    let slept = false;
    const deps = loopDeps({
      kube,
      leases: stores.leases,
      now,
      clock: () => now,
      sleep: async (ms: number) => {
        now += ms;
        if (!slept) await duringWait?.();
        slept = true;
      },
    });
    return reconcileObject(deps, reconciler, req);
  };
  /** Another invocation finds the lease held and marks it with what `req` asks of the holder. */
  const markBy = (req: ReconcileRequest) => stores.leases.acquire(KEY, 'req-9/9', 900_000, now, markOf(req));
  return { gets, seen, invoke, markBy, bump: () => (rv += 10) };
}

describe('the reconciled object kept across passes (docs/architecture.md#kept-object)', () => {
  it("marks: a change of the object itself names its resourceVersion; an owned change the LISTs'; a timer nothing", () => {
    expect(markOf(request('ObjectChanged', '310'))).toEqual({ objectResourceVersion: '310' });
    expect(markOf(request('OwnedObjectChanged', '310'))).toEqual({ resourceVersion: '310' });
    expect(markOf(request('Requeue', '310'))).toBe('none');
    expect(markOf(request('ObjectChanged'))).toBe('quorum');
    expect(markOf(request('Resync', '310'))).toBe('quorum');
  });

  it("without a mark of its change, the second pass plans with the first one's copy; a pod's change does not drop it", async () => {
    const w = world();
    await w.invoke(
      request('ObjectChanged', '300'),
      async () => void (await w.markBy(request('OwnedObjectChanged', '350'))),
    );
    expect(w.seen).toEqual(['pass 1 sees 300', 'pass 2 sees 300']);
    expect(w.gets).toEqual(['get 300']);
  });

  it('an ObjectChanged mark newer than the copy makes the next pass read the object, and see the change', async () => {
    const w = world();
    await w.invoke(request('ObjectChanged', '300'), async () => {
      w.bump();
      await w.markBy(request('ObjectChanged', '310'));
    });
    expect(w.seen).toEqual(['pass 1 sees 300', 'pass 2 sees 310']);
    expect(w.gets).toEqual(['get 300', 'get 310']);
  });

  it('a late ObjectChanged mark of a change the copy already has leaves it; a resync mark drops it', async () => {
    const late = world();
    await late.invoke(
      request('ObjectChanged', '300'),
      async () => void (await late.markBy(request('ObjectChanged', '300'))),
    );
    expect(late.gets).toEqual(['get 300']);
    const resync = world();
    await resync.invoke(
      request('ObjectChanged', '300'),
      async () => void (await resync.markBy(request('Resync'))),
    );
    expect(resync.gets).toEqual(['get 300', 'get 300']);
  });

  it('a pass right after one that acted uses the copy within 250 ms of the acquire, and reads the object after that', async () => {
    const quick = world();
    await quick.invoke(request('OwnedObjectChanged', '300'), undefined, { ms: 250 });
    expect(quick.gets).toEqual(['get 300']);
    const slow = world();
    await slow.invoke(request('OwnedObjectChanged', '300'), undefined, { ms: 251 });
    expect(slow.gets).toEqual(['get 300', 'get 300']);
  });

  it('each invocation reads the object again: no copy is carried across', async () => {
    const w = world();
    await w.invoke(request('OwnedObjectChanged', '300'));
    await w.invoke(request('OwnedObjectChanged', '301'));
    expect(w.gets).toEqual(['get 300', 'get 300']);
  });
});
