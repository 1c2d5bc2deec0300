/**
 * Backoff of a CloneSet whose writes keep failing (docs/reliability.md#backoff), on the recording API server and
 * the in-memory state stores: the schedule itself, and the evicted-pod case — a 1-replica CloneSet with a
 * volumeClaimTemplates entry whose pod was evicted, so the create of its replacement (same instance id, the PVC's)
 * meets the evicted pod's name: a real AlreadyExists, no injected fault.
 */
import { failedCreateMessage } from './support/failedCreate.js';
import { backoffSeconds, checkBackoff, DEFAULT_BACKOFF } from '../../../../../lib/reconcile/backoff.js';
import { reconcileCloneSet } from '../../../../../lib/controllers/cloneset/index.js';
import type { ReconcileOutcome } from '../../../../../lib/reconcile/reconcile.js';
import { harness, REQUEST, seedCloneSet, type Harness } from './support/harness.js';

const POD = 'cs-no-pvc-sample-aaaaa';
const PVC = 'data-cs-no-pvc-sample-aaaaa';

describe('backoffSeconds', () => {
  test('the default schedule: 1 s doubling per consecutive failure, capped at 1000 s; 0 without a failure', () => {
    expect(Array.from({ length: 13 }, (_, n) => backoffSeconds(n, DEFAULT_BACKOFF))).toEqual([
      0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000, 1000,
    ]);
    expect(backoffSeconds(5000, DEFAULT_BACKOFF)).toBe(1000);
  });

  test("client-go's DefaultControllerRateLimiter numbers (5 ms to 1000 s) give its per-item schedule", () => {
    const upstream = { baseSeconds: 0.005, maxSeconds: 1000 };
    expect([1, 2, 3, 10, 18, 19, 30].map((n) => backoffSeconds(n, upstream))).toEqual([
      0.005, 0.01, 0.02, 2.56, 655.36, 1000, 1000,
    ]);
  });

  test('a failure count that is negative or not an integer is refused', () => {
    expect(() => backoffSeconds(-1, DEFAULT_BACKOFF)).toThrow(
      new RangeError('failures must be an integer ≥ 0, got -1'),
    );
    expect(() => backoffSeconds(1.5, DEFAULT_BACKOFF)).toThrow(RangeError);
  });

  test('settings: base > 0 and max ≥ base', () => {
    expect(() => checkBackoff({ baseSeconds: 0, maxSeconds: 10 })).toThrow(
      new RangeError('backoff base must be a number of seconds > 0, got 0'),
    );
    expect(() => checkBackoff({ baseSeconds: 10, maxSeconds: 5 })).toThrow(
      new RangeError('backoff max must be a number of seconds ≥ the base (10), got 5'),
    );
    expect(() => checkBackoff({ baseSeconds: Number.NaN, maxSeconds: 5 })).toThrow(RangeError);
    expect(() => checkBackoff(DEFAULT_BACKOFF)).not.toThrow();
  });
});

/** The seed CloneSet with 1 replica and a PVC per pod, reconciled once; then its pod is evicted. */
async function evictedPodCase(): Promise<Harness> {
  const h = harness();
  const cs = seedCloneSet();
  cs.spec.replicas = 1;
  cs.spec.volumeClaimTemplates = [
    {
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    },
  ];
  h.kube.apply(cs);
  await reconcileCloneSet(h.deps(), REQUEST);
  expect([...h.kube.pods.keys()]).toEqual([POD]);
  expect([...h.kube.pvcs.keys()]).toEqual([PVC]);
  const pod = h.kube.pods.get(POD)!;
  pod.status = { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' };
  h.journal.length = 0;
  h.kube.eventCalls.length = 0;
  h.clock.now += 60_000;
  return h;
}

/** One invocation, `holder` unique, run when the previous one's requeue fires. */
async function invoke(h: Harness, n: number, overrides = {}): Promise<ReconcileOutcome> {
  return reconcileCloneSet(h.deps({ holder: `inv-${n}`, deadlineMs: h.clock.now + 60_000, ...overrides }), {
    ...REQUEST,
    reason: 'Requeue',
  });
}

const ALREADY_EXISTS = `create pod ${POD}: 409 AlreadyExists: pods "${POD}" already exists`;

/** Every attempt begins so: the lease, the reads of the state, the create expectation, the create, its rollback. */
const FAILED_CREATE = [
  'lease.acquire',
  'expectations.get',
  'ledger.get',
  `expectations.put creates[${POD}]`,
  `create pod ${POD}`,
  'expectations.put (none)',
];

/** The stored FailedCreate Event objects (the setup's SuccessfulCreate Event is stored too). */
function failedCreates(h: Harness): { name: string; count: unknown }[] {
  return [...h.kube.eventObjects.values()]
    .filter((e) => e.reason === 'FailedCreate')
    .map((e) => ({ name: String((e.metadata as { name: string }).name), count: e.count }));
}

describe('reconcileCloneSet: an evicted pod whose name the replacement needs', () => {
  test('first failure: FailedScale condition written, FailedCreate Event created, failures 1 stored with the release, requeue after 1 s', async () => {
    const h = await evictedPodCase();
    const out = await invoke(h, 1);
    expect({ ...out, plan: undefined }).toEqual({
      result: 'reconciled',
      passes: 1,
      writes: 1,
      error: ALREADY_EXISTS,
      failures: 1,
      requeuedAfterSeconds: 1,
      plan: undefined,
    });
    expect(h.journal).toEqual([
      ...FAILED_CREATE,
      'replace cloneset status cs-no-pvc-sample',
      failedCreateMessage(`pods "${POD}" already exists`, POD, 'event FailedCreate: '),
      'requeue 1s',
      'lease.release (failures 1)',
    ]);
    const [event] = failedCreates(h);
    expect(event).toEqual({ name: expect.stringMatching(/^cs-no-pvc-sample\.[0-9a-f]{16}$/), count: 1 });
    expect(h.kube.eventCalls).toEqual([`create event ${event.name}`]);
  });

  test('every retry: the same failed create, no status write, an Event (aggregated from the tenth); delays 1, 2, 4 … 512, 1000, 1000 s', async () => {
    const h = await evictedPodCase();
    const delays: (number | undefined)[] = [];
    for (let n = 1; n <= 12; n++) {
      const out = await invoke(h, n);
      expect(out.failures).toBe(n);
      delays.push(out.requeuedAfterSeconds);
      if (n === 2) {
        // the condition already says this: nothing but the create, the Event and the lease
        expect(h.journal).toEqual([
          ...FAILED_CREATE,
          failedCreateMessage(`pods "${POD}" already exists`, POD, 'event FailedCreate: '),
          'requeue 2s',
          'lease.release (failures 2)',
        ]);
      }
      h.journal.length = 0;
      h.clock.now += (out.requeuedAfterSeconds ?? 0) * 1000;
    }
    expect(delays).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000, 1000]);
    // each attempt's pod carries that attempt's lifecycle timestamp, so its FailedCreate message (which dumps the
    // pod, as OpenKruise's does) is new each time: nine Events, then the tenth and eleventh distinct messages within
    // 10 minutes of the previous one go to one aggregate Event (client-go's EventAggregator), and the twelfth,
    // 1000 s after the eleventh, starts a new group with an Event of its own
    const events = failedCreates(h);
    expect(events.map((e) => e.count)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1]);
    const aggregate = events[9].name;
    const calls = h.kube.eventCalls.map((c) =>
      c.replace(/ lastTimestamp=\S+| firstTimestamp=\S+/g, '').replace(/ message=.*/, ' message=…'),
    );
    // the aggregate's second Event is one PATCH of the count the invocation before it wrote, carried on the lease
    // item (lib/kube/eventFolding.ts): before, a POST that met AlreadyExists and a GET came first
    expect(calls).toEqual([
      ...events.slice(0, 10).map((e) => `create event ${e.name}`),
      `patch event ${aggregate} count=2 message=…`,
      `create event ${events[10].name}`,
    ]);
    const message = (name: string): string => h.kube.eventObjects.get(name)?.message as string;
    expect(message(aggregate)).toEqual(
      failedCreateMessage(`pods "${POD}" already exists`, POD, '(combined from similar events): '),
    );
  });

  test('a pass without a failed write resets the count: the next failure waits 1 s again', async () => {
    const h = await evictedPodCase();
    for (let n = 1; n <= 3; n++) {
      const out = await invoke(h, n);
      h.clock.now += (out.requeuedAfterSeconds ?? 0) * 1000;
    }
    // the evicted pod is removed: the replacement is created, nothing fails, failures 0 stored
    h.kube.pods.delete(POD);
    h.journal.length = 0;
    const ok = await invoke(h, 4);
    expect(ok.error).toBeUndefined();
    expect(ok.failures).toBeUndefined();
    expect(h.journal.filter((l) => l.startsWith('lease.release'))).toEqual(['lease.release']);
    const acquired = await h.stores.leases.acquire(
      { cluster: REQUEST.cluster, kind: REQUEST.kind, namespace: REQUEST.namespace, name: REQUEST.name },
      'probe',
      1000,
      h.clock.now,
    );
    expect(acquired).toMatchObject({ acquired: true, failures: 0 });
    if (acquired.acquired) await h.stores.leases.release(acquired.lease);
    // evicted again: the first failure of a new series
    h.kube.pods.get(POD)!.status = { phase: 'Failed', reason: 'Evicted' };
    h.clock.now += 10_000;
    const again = await invoke(h, 5);
    expect([again.failures, again.requeuedAfterSeconds]).toEqual([1, 1]);
  });

  test('base and cap come from the deps: 5 ms to 1000 s as upstream', async () => {
    const h = await evictedPodCase();
    const backoff = { baseSeconds: 0.005, maxSeconds: 1000 };
    const delays: (number | undefined)[] = [];
    for (let n = 1; n <= 4; n++) {
      const out = await invoke(h, n, { backoff });
      delays.push(out.requeuedAfterSeconds);
      h.clock.now += 1000;
    }
    expect(delays).toEqual([0.005, 0.01, 0.02, 0.04]);
  });
});
