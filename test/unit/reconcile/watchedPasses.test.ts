/**
 * An invocation's passes list their pods from its watch (lib/reconcile/guardedReconciler.ts `watched`,
 * docs/architecture.md#watched-lists): the real loop and `guardedReconciler`, in-memory state store, a scripted API
 * server (test/unit/kube/support/scriptedApi.ts). The first three passes read the API server, the later ones the view;
 * the watch ends when the invocation does, however it ends.
 */
import { describe, expect, it } from '@jest/globals';
import type { Pod } from '../../../lib/api/types.js';
import { silentLogger } from '../../../lib/core/logger.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import type { KubeClient } from '../../../lib/kube/types.js';
import { guardedReconciler } from '../../../lib/reconcile/guardedReconciler.js';
import { reconcileObject, type LoopDeps } from '../../../lib/reconcile/reconcile.js';
import { EVENT_VERSION, type ReconcileRequest } from '../../../lib/requests/index.js';
import { createMemoryStores } from '../../../lib/state/memory.js';
import { pod, scripted } from '../kube/support/scriptedApi.js';

const T0 = Date.parse('2026-12-05T08:00:00Z');
const KEY = { cluster: 'c1', kind: 'apps.kruise.io/StatefulSet', namespace: 'ns', name: 'web' };
const REQUEST: ReconcileRequest = {
  version: EVENT_VERSION,
  ...KEY,
  reason: 'OwnedObjectChanged',
  resourceVersion: '90',
};

/** An invocation of `passes` passes (each acts, so the next runs at once), the last one throwing when `fails`. */
async function invoke(kube: KubeClient, passes: number, fails = false) {
  const seen: string[][] = [];
  /** Per pass, whether every listed pod was frozen. */
  const frozen: boolean[] = [];
  const reconciler = guardedReconciler<LoopDeps & { kube: KubeClient }, undefined, 'all'>(
    () => 'all',
    async (deps) => {
      const listed = await deps.kube.list<Pod>(RESOURCES.pods, { namespace: 'ns', limit: 500 });
      seen.push(listed.items.map((p) => p.metadata.name ?? ''));
      frozen.push(listed.items.every((p) => Object.isFrozen(p) && Object.isFrozen(p.metadata)));
      if (fails && seen.length === passes) throw new Error('a bug in the pass');
      return { gone: false, writes: 1, acted: seen.length < passes };
    },
    [RESOURCES.pods],
    [],
    [RESOURCES.pods],
  );
  const deps = {
    kube,
    leases: createMemoryStores().leases,
    requeue: { requeueAfter: async () => undefined },
    log: silentLogger,
    clock: () => T0,
    holder: 'req-1/1',
    sleep: async () => undefined,
    deadlineMs: T0 + 60_000,
    leaseDurationMs: 900_000,
    maxInlineWaitSeconds: 10,
    maxPasses: 10,
  };
  const outcome = reconcileObject(deps, reconciler, REQUEST);
  return { outcome, seen, frozen };
}

describe("an invocation's watched pods", () => {
  it('passes 1 to 3 read the API server, the 3rd starts the watch, the 4th and 5th read the view; the watch ends with the invocation', async () => {
    const api = scripted([pod('web-0', '80'), pod('web-1', '90')], '100');
    const { outcome, seen, frozen } = await invoke(api.kube, 5);
    expect((await outcome).passes).toBe(5);
    // read-only in every pass, whether the API server or the view answered
    expect(frozen).toEqual(Array(5).fill(true));
    expect(api.lists).toEqual(['quorum', 'notOlderThan 100', 'notOlderThan 100']);
    expect(seen).toEqual(Array(5).fill(['web-0', 'web-1']));
    expect(api.watches).toHaveLength(1);
    expect(api.watches[0].options.resourceVersion).toBe('100');
    expect(api.watches[0].options.signal.aborted).toBe(true);
  });

  it('a pass that throws still ends the watch', async () => {
    const api = scripted([pod('web-0', '80')], '100');
    const { outcome } = await invoke(api.kube, 3, true);
    await expect(outcome).rejects.toThrow('a bug in the pass');
    expect(api.watches).toHaveLength(1);
    expect(api.watches[0].options.signal.aborted).toBe(true);
  });
});

describe('guardedReconciler registration', () => {
  const noPass = (): Promise<never> => Promise.reject(new Error('not run'));

  it('refuses a watched resource that is not floored (its view would wait for a floor forever)', () => {
    expect(() =>
      guardedReconciler(
        () => 'all',
        noPass,
        [RESOURCES.pods],
        [],
        [RESOURCES.pods, RESOURCES.persistentvolumeclaims],
      ),
    ).toThrow('watched resources must be floored too: persistentvolumeclaims');
  });

  it('takes watched resources that are floored', () => {
    expect(() =>
      guardedReconciler(() => 'all', noPass, [RESOURCES.pods], [], [RESOURCES.pods]),
    ).not.toThrow();
  });
});
