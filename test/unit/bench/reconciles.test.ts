/**
 * What the bench counts of the pipeline's reconciles: the real reconcile handler (lib/runtime/handlers/reconcile.ts)
 * runs over the in-memory harness and logs through {@link BenchLogger}, as in the bench. The summary must arrive
 * whole (key, result, writes) and under the key the bench's scenarios look for: both were lost before, when the
 * handler's `withKeys` logger passed its keys ahead of the summary and the key format changed, so the fleet step
 * crashed (`Cannot read properties of undefined (reading 'includes')`) and coalescing reported 0 invocations.
 */
import { describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { reconcileHandler } from '../../../lib/runtime/handlers/reconcile.js';
import type { Runtime } from '../../../lib/runtime/types.js';
import type { StateStores } from '../../../lib/state/index.js';
import {
  BenchLogger,
  cloneSetKey,
  coalescingOf,
  invocationsOf,
  reconcileSummaryOf,
  type FinishedReconcile,
} from '../../../bench/support/reconciles.js';
import { DETAIL_TYPE, SOURCE } from '../../../lib/requests/index.js';
import {
  harness,
  NAMESPACE,
  REQUEST,
  seedCloneSet,
  type Harness,
} from '../controllers/cloneset/reconcile/support/harness.js';

/** A runtime over the harness: its API server and stores, one cluster named as the request's. */
function runtimeOf(h: Harness): Runtime {
  const unused = <T extends object>(): T =>
    new Proxy({} as T, {
      get: (_t, prop) => {
        throw new Error(`the reconcile handler must not use ${String(prop)} here`);
      },
    });
  const stores: StateStores = {
    ...h.stores,
    clusters: unused<StateStores['clusters']>(),
    watches: unused<StateStores['watches']>(),
  };
  return {
    stores,
    publisher: unused<Runtime['publisher']>(),
    requeue: { requeueAfter: async () => undefined },
    clusterNames: async () => [REQUEST.cluster],
    cluster: async (name) => ({ name, kc: new KubeConfig(), kube: h.kube }),
    admissionSecret: async () => undefined,
  };
}

/** One reconcile of the seed CloneSet (2 pods to create) by the real handler, logged through a BenchLogger. */
async function reconcileOnce(): Promise<{ logger: BenchLogger; returned: unknown }> {
  const h = harness();
  h.kube.apply(seedCloneSet());
  const logger = new BenchLogger();
  const handler = reconcileHandler(() => runtimeOf(h), logger);
  const returned = await handler({ id: 'ev-1', 'detail-type': DETAIL_TYPE, source: SOURCE, detail: REQUEST });
  return { logger, returned };
}

describe('BenchLogger and the reconcile handler', () => {
  it('records the whole summary of a finished reconcile: key, result, passes, writes', async () => {
    const { logger, returned } = await reconcileOnce();
    expect(logger.finished).toHaveLength(1);
    const { at, ...summary } = logger.finished[0];
    expect(summary).toEqual(returned);
    expect(summary.writes).toBeGreaterThan(0);
    expect(typeof at).toBe('number');
  });

  it('records it under the key the bench derives for the CloneSet', async () => {
    const { logger } = await reconcileOnce();
    const key = cloneSetKey(NAMESPACE, REQUEST.name, REQUEST.cluster);
    expect(logger.finished.map((f) => f.key)).toEqual([key]);
    expect(coalescingOf(logger.finished, key, 4)).toEqual({
      podEvents: 4,
      invocations: 1,
      withWrites: 1,
      deferred: 0,
      ratio: 0.25,
    });
  });
});

describe('reconcileSummaryOf', () => {
  it('merges the invocation keys and the summary, later arguments winning', () => {
    expect(
      reconcileSummaryOf([
        { key: 'k', correlation_id: 'c' },
        { key: 'k', result: 'done', passes: 2, writes: 3, requeuedAfterSeconds: 5 },
      ]),
    ).toEqual({ key: 'k', result: 'done', passes: 2, writes: 3, requeuedAfterSeconds: 5 });
  });
  it('is undefined for a line that is no summary (the keys alone)', () => {
    expect(reconcileSummaryOf([{ key: 'k', correlation_id: 'c' }])).toBeUndefined();
    expect(reconcileSummaryOf(['text', 3])).toBeUndefined();
  });
});

describe('invocationsOf', () => {
  const f = (key: string, writes: number, result = 'done'): FinishedReconcile => ({
    key,
    result,
    passes: 1,
    writes,
    at: 0,
  });
  it('counts only the given keys, and those that wrote or were deferred', () => {
    const a = cloneSetKey('bench-fleet-0-x', 'fleet');
    const b = cloneSetKey('bench-fleet-1-x', 'fleet');
    const finished = [f(a, 1), f(a, 0, 'deferred'), f(b, 2), f(cloneSetKey('other', 'fleet'), 5)];
    expect(invocationsOf(finished, new Set([a, b]))).toEqual({ invocations: 3, withWrites: 2, deferred: 1 });
  });
});
