/**
 * The reconcile loop carries an object's Event correlation state from one invocation to the next on its lease item
 * (lib/reconcile/reconcile.ts, docs/reliability.md#event-folding), as client-go keeps it in a controller's memory:
 * Events spread over several invocations are aggregated and filtered as OpenKruise's recorder does them in one
 * process (the Advanced DaemonSet parity scenario `ads-event-aggregation`: its creates span invocations). Real loop,
 * in-memory state store, a recording fake of the API client's `recordEvent` (the loop under test makes no API call).
 */
import { describe, expect, it } from '@jest/globals';
import type { Logger } from '../../../lib/core/logger.js';
import { silentLogger } from '../../../lib/core/logger.js';
import { AGGREGATE_PREFIX } from '../../../lib/kube/eventCorrelation.js';
import type { Resource } from '../../../lib/kube/resource.js';
import type { KubeEvent, KubeObject, RecordEventOptions } from '../../../lib/kube/types.js';
import { reconcileObject, type LoopDeps, type Reconciler } from '../../../lib/reconcile/reconcile.js';
import { recordObjectEvents } from '../../../lib/reconcile/pods/recordEvents.js';
import { EVENT_VERSION, type ReconcileRequest } from '../../../lib/requests/index.js';
import { createMemoryStores } from '../../../lib/state/memory.js';
import type { ReleaseOptions } from '../../../lib/state/index.js';

const T0 = Date.parse('2026-12-03T08:00:00Z');
const WIDGETS: Resource = {
  group: 'example.kruiseless.io',
  version: 'v1',
  plural: 'widgets',
  namespaced: true,
  kind: 'Widget',
};
const WIDGET: KubeObject = {
  apiVersion: 'example.kruiseless.io/v1',
  kind: 'Widget',
  metadata: { namespace: 'ns', name: 'w', uid: 'u-1' },
};
const REQUEST: ReconcileRequest = {
  version: EVENT_VERSION,
  cluster: 'c1',
  kind: 'example.kruiseless.io/Widget',
  namespace: 'ns',
  name: 'w',
  reason: 'ObjectChanged',
};

/** What an invocation's one pass records: `SuccessfulCreate` for each pod number. */
type Pods = number[];

interface Harness {
  /** Runs one invocation at `at` ms after T0 whose pass records a create Event per pod of `pods`. */
  invoke(pods: Pods, at: number, log?: Logger): Promise<void>;
  /** Messages written, in order, the aggregates with their prefix. */
  written: string[];
  /** The eventCorrelation option of every release, in order. */
  releases: (string | null | undefined)[];
  stores: ReturnType<typeof createMemoryStores>;
}

function harness(): Harness {
  const stores = createMemoryStores();
  const written: string[] = [];
  const releases: (string | null | undefined)[] = [];
  let now = T0;
  let toRecord: Pods = [];
  const kube = {
    async recordEvent<T extends KubeObject>(
      _r: Resource<T>,
      _o: T,
      ev: KubeEvent,
      opts?: RecordEventOptions,
    ) {
      written.push(opts?.aggregate ? `aggregate: ${ev.message}` : ev.message);
    },
  };
  const reconciler: Reconciler<LoopDeps, string, 'all'> = {
    readScope: () => 'all',
    async pass(deps, _key, env) {
      const events = toRecord.map((i) => ({
        type: 'Normal' as const,
        reason: 'SuccessfulCreate',
        message: `create Pod w-${i} in Widget w successful`,
      }));
      toRecord = [];
      await recordObjectEvents(
        { ...env, kube, resource: WIDGETS, object: WIDGET, clock: deps.clock },
        events,
      );
      return { gone: false, writes: events.length, acted: false };
    },
  };
  const leases = {
    ...stores.leases,
    release: (
      lease: Parameters<typeof stores.leases.release>[0],
      failures?: number,
      options?: ReleaseOptions,
    ) => {
      releases.push(options?.eventCorrelation);
      return stores.leases.release(lease, failures, options);
    },
  };
  let execution = 0;
  return {
    written,
    releases,
    stores,
    async invoke(pods, at, log = silentLogger) {
      now = T0 + at;
      toRecord = pods;
      const deps: LoopDeps = {
        leases,
        requeue: { requeueAfter: async () => undefined },
        log,
        clock: () => now,
        holder: `req-${++execution}/1`,
        sleep: async () => undefined,
        deadlineMs: now + 60_000,
        leaseDurationMs: 900_000,
        maxInlineWaitSeconds: 0,
        maxPasses: 5,
      };
      const out = await reconcileObject(deps, reconciler, REQUEST);
      expect(out.result).toBe('reconciled');
    },
  };
}

const msg = (i: number): string => `create Pod w-${i} in Widget w successful`;
const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, k) => from + k);

describe('Event correlation across invocations', () => {
  it('aggregates from the 10th distinct message even when the creates span two invocations', async () => {
    const h = harness();
    await h.invoke(range(1, 6), 0);
    await h.invoke(range(7, 12), 5_000);
    expect(h.written).toEqual([
      ...range(1, 9).map(msg),
      ...range(10, 12).map((i) => `aggregate: ${AGGREGATE_PREFIX}${msg(i)}`),
    ]);
  });

  it('filters spam across invocations: 25 tokens per type for the object, not per invocation', async () => {
    const h = harness();
    await h.invoke(range(1, 20), 0);
    await h.invoke(range(21, 30), 1_000);
    // 9 plain, 16 aggregated (10..25), 26..30 dropped: the bucket was emptied over two invocations
    expect(h.written).toHaveLength(25);
    expect(h.written.at(-1)).toBe(`aggregate: ${AGGREGATE_PREFIX}${msg(25)}`);
  });

  it('stores nothing for an object without Events, and removes the state once none of it is live', async () => {
    const h = harness();
    await h.invoke([], 0);
    expect(h.releases).toEqual([undefined]);
    await h.invoke([1, 2], 1_000);
    expect(typeof h.releases[1]).toBe('string');
    // 2 tokens used at 1 s: the bucket is full again 600 s later; the group's window ends 600 s after 1 s
    await h.invoke([], 1_000 + 600_001);
    expect(h.releases[2]).toBeNull();
    await h.invoke([], 1_000 + 700_000);
    expect(h.releases[3]).toBeUndefined();
    // a new series starts from none: 9 more distinct messages are written as they are
    await h.invoke(range(3, 11), 1_000 + 800_000);
    expect(h.written).toEqual(range(1, 11).map(msg));
  });

  it('starts from none, with a warning, when the stored state is unreadable', async () => {
    const h = harness();
    await h.invoke(range(1, 9), 0);
    // the next release stores a text that is not a correlation state (a hand-edited item)
    const acquired = await h.stores.leases.acquire(
      { cluster: 'c1', kind: REQUEST.kind, namespace: 'ns', name: 'w' },
      'editor/1',
      1_000,
      T0 + 1_000,
    );
    if (!acquired.acquired) throw new Error('not acquired');
    await h.stores.leases.release(acquired.lease, undefined, { eventCorrelation: '{"spam":' });
    const warnings: string[] = [];
    const log: Logger = { ...silentLogger, warn: (m) => void warnings.push(m) };
    await h.invoke([10], 2_000, log);
    expect(warnings).toEqual(['stored Event correlation state unreadable; starting from none']);
    expect(h.written.at(-1)).toBe(msg(10));
  });
});
