/**
 * The last part of review finding 10 (docs/reliability.md#backoff): a lease `acquire` or `release` that fails in
 * DynamoDB after the SDK's retries (`StateStoreError`: throttled, unavailable, timed out) takes the backoff path of
 * every other store failure — requeued, counted, nothing thrown to Lambda, whose two retries would end in the
 * dead-letter queue. A lost race is not a failure (`deferred`, reconcile.test.ts); a takeover still returns
 * `fenced`; an error of another kind is still thrown.
 */
import { reconcileCloneSet } from '../../../../../lib/controllers/cloneset/index.js';
import type { ReconcileDeps } from '../../../../../lib/controllers/cloneset/index.js';
import { StateStoreError } from '../../../../../lib/state/errors.js';
import type { LeaseStore } from '../../../../../lib/state/index.js';
import { internalError } from './support/recordingKube.js';
import { harness, REQUEST, seedCloneSet, type Harness } from './support/harness.js';

const KEY = {
  cluster: REQUEST.cluster,
  kind: REQUEST.kind,
  namespace: REQUEST.namespace,
  name: REQUEST.name,
};
const LEASE_ITEM = 'obj#test#apps.kruise.io/CloneSet#default#cs-no-pvc-sample/lease';
const A = 'cs-no-pvc-sample-aaaaa';
const B = 'cs-no-pvc-sample-bbbbb';

/** What the DynamoDB adapter throws after the SDK's retries. */
function storeError(call: 'acquire' | 'release', why: 'throttled' | 'timeout'): StateStoreError {
  const cause =
    why === 'throttled'
      ? Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
          name: 'ProvisionedThroughputExceededException',
        })
      : Object.assign(new Error('socket timed out'), { name: 'TimeoutError' });
  return new StateStoreError(`lease.${call} (UpdateItem)`, LEASE_ITEM, cause);
}

/**
 * The harness's (recorded) lease store, with the first `n` calls of `call` failing with `error`; a failed call
 * is journalled as `lease.<call> failed` and never reaches the store.
 */
function failingLeases(
  h: Harness,
  deps: ReconcileDeps,
  call: 'acquire' | 'release',
  error: Error,
  n = 1,
): LeaseStore {
  const leases = deps.leases;
  let left = n;
  const fail = (): Promise<never> => {
    left--;
    h.journal.push(`lease.${call} failed`);
    return Promise.reject(error);
  };
  return {
    acquire: (...args) => (call === 'acquire' && left > 0 ? fail() : leases.acquire(...args)),
    renew: (...args) => leases.renew(...args),
    release: (...args) => (call === 'release' && left > 0 ? fail() : leases.release(...args)),
    takeDirty: (...args) => leases.takeDirty(...args),
  };
}

/** Stores `failures` on the CloneSet's lease as a release would, leaving it free. */
async function storeFailures(h: Harness, failures: number): Promise<void> {
  const r = await h.stores.leases.acquire(KEY, 'earlier', 1000, h.clock.now - 10_000);
  if (!r.acquired) throw new Error('lease');
  await h.stores.leases.release(r.lease, failures);
}

/** Two Ready pods, settled; the journal cleared and the clock 30 s on. */
async function seedTwoReadyPods(h: Harness): Promise<void> {
  h.kube.apply(seedCloneSet());
  await reconcileCloneSet(h.deps({ holder: 'seed' }), REQUEST);
  h.kube.kubelet();
  await reconcileCloneSet(h.deps({ holder: 'seed-2' }), REQUEST);
  h.journal.length = 0;
  h.requeues.length = 0;
  h.clock.now += 30_000;
}

describe('a lease acquire that fails in DynamoDB (finding 10)', () => {
  test('throttled: no pass runs, nothing is thrown, requeued after the backoff’s first step (1 s); the stored count is kept; the requeue then reconciles', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    await storeFailures(h, 3);
    const error = storeError('acquire', 'throttled');
    const deps = h.deps();
    const out = await reconcileCloneSet(
      { ...deps, leases: failingLeases(h, deps, 'acquire', error) },
      REQUEST,
    );
    expect(out).toEqual({
      result: 'failed',
      passes: 0,
      writes: 0,
      error: error.message,
      requeuedAfterSeconds: 1,
      leaseFailure: 'acquire',
    });
    expect(h.journal).toEqual(['lease.acquire failed', 'requeue 1s']);
    expect(h.kube.pods.size).toBe(0);

    h.clock.now += 1000;
    const next = await reconcileCloneSet(h.deps({ holder: 'inv-2' }), REQUEST);
    expect([next.result, next.error]).toEqual(['reconciled', undefined]);
    expect([...h.kube.pods.keys()]).toEqual([A, B]);
  });

  test('the first step is the configured base (5 s), whatever count the lease item holds', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    await storeFailures(h, 6);
    const deps = h.deps({ backoff: { baseSeconds: 5, maxSeconds: 100 } });
    const leases = failingLeases(h, deps, 'acquire', storeError('acquire', 'timeout'));
    const out = await reconcileCloneSet({ ...deps, leases }, REQUEST);
    expect([out.result, out.requeuedAfterSeconds, out.failures]).toEqual(['failed', 5, undefined]);
    const probe = await h.stores.leases.acquire(KEY, 'probe', 1000, h.clock.now);
    expect(probe).toMatchObject({ acquired: true, failures: 6 });
  });

  test('an acquire error that is not a DynamoDB failure is still thrown, with no requeue', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    const boom = new Error('a bug');
    const deps = h.deps();
    await expect(
      reconcileCloneSet({ ...deps, leases: failingLeases(h, deps, 'acquire', boom) }, REQUEST),
    ).rejects.toBe(boom);
    expect(h.requeues).toEqual([]);
  });
});

describe('a lease release that fails in DynamoDB (finding 10)', () => {
  test('after a pass with nothing to do: nothing thrown, failures 1, requeued for 1 s after the lease’s end, when the next holder takes the expired lease and proceeds', async () => {
    const h = harness();
    await seedTwoReadyPods(h);
    const error = storeError('release', 'throttled');
    const deps = h.deps();
    const out = await reconcileCloneSet(
      { ...deps, leases: failingLeases(h, deps, 'release', error) },
      { ...REQUEST, reason: 'Resync' },
    );
    // the lease was taken at h.clock.now for 120 s: free at +120 s, looked at again at +121 s
    expect(out).toEqual({
      result: 'reconciled',
      passes: 1,
      writes: 0,
      error: error.message,
      failures: 1,
      requeuedAfterSeconds: 121,
      leaseFailure: 'release',
      plan: out.plan,
    });
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'ledger.get',
      'lease.release failed',
      'requeue 121s',
    ]);

    // the lease stays this invocation's until it runs out: a change meanwhile only marks it
    h.clock.now += 60_000;
    const meanwhile = await reconcileCloneSet(h.deps({ holder: 'inv-2' }), REQUEST);
    expect(meanwhile).toEqual({ result: 'deferred', passes: 0, writes: 0 });
    // at the requeue the lease has run out: taken over (the count stored before, 0), the pass runs, released
    h.clock.now += 61_000;
    h.kube.pods.delete(A); // someone deleted a pod meanwhile
    const deps3 = h.deps({ holder: 'inv-3', deadlineMs: h.clock.now + 60_000 });
    const requeued = await reconcileCloneSet(deps3, { ...REQUEST, reason: 'Requeue' });
    expect([requeued.result, requeued.error, requeued.failures]).toEqual([
      'reconciled',
      undefined,
      undefined,
    ]);
    expect(h.kube.pods.size).toBe(2);
    const probe = await h.stores.leases.acquire(KEY, 'probe', 1000, h.clock.now);
    expect(probe).toMatchObject({ acquired: true, failures: 0 });
  });

  test('after a pass that asked for a requeue (finding 17): that timer is scheduled before the release, and the failed release adds one for after the lease', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    const taken = await h.stores.leases.acquire(KEY, 'old', 1000, h.clock.now);
    if (!taken.acquired) throw new Error('lease');
    await h.stores.expectations.put(taken.lease, {
      creates: [{ name: 'cs-no-pvc-sample-slow1', at: h.clock.now }],
      deletes: [],
      updates: [],
    });
    await h.stores.leases.release(taken.lease);
    const deps = h.deps({ maxPasses: 1, maxInlineWaitSeconds: 0 });
    const error = storeError('release', 'timeout');
    const out = await reconcileCloneSet(
      { ...deps, leases: failingLeases(h, deps, 'release', error) },
      REQUEST,
    );
    expect([out.result, out.error, out.failures, out.requeuedAfterSeconds, out.leaseFailure]).toEqual([
      'reconciled',
      error.message,
      1,
      121,
      'release',
    ]);
    expect(h.journal.filter((l) => l.startsWith('lease') || l.startsWith('requeue'))).toEqual([
      'lease.acquire',
      'requeue 2s',
      'lease.release failed',
      'requeue 121s',
    ]);
  });

  test('after a failed write with 9 failures stored: the count reaches 11 (the write, the release) and the delay is the backoff’s cap (1000 s), beyond the lease', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    await storeFailures(h, 9);
    h.kube.failOn((call) => (call === `create pod ${A}` ? internalError(call) : undefined));
    const deps = h.deps();
    const error = storeError('release', 'throttled');
    const out = await reconcileCloneSet(
      { ...deps, leases: failingLeases(h, deps, 'release', error) },
      REQUEST,
    );
    expect([out.result, out.error, out.failures, out.requeuedAfterSeconds]).toEqual([
      'reconciled',
      error.message,
      11,
      1000,
    ]);
    expect(h.journal.filter((l) => l.startsWith('lease') || l.startsWith('requeue'))).toEqual([
      'lease.acquire',
      'requeue 512s',
      'lease.release failed',
      'requeue 1000s',
    ]);
    // not stored (the write failed): the next holder, after the lease, reads the 9 stored before
    const probe = await h.stores.leases.acquire(KEY, 'probe', 1000, h.clock.now + 121_000);
    expect(probe).toMatchObject({ acquired: true, failures: 9 });
  });

  test('the unconditional release at the pass budget fails: nothing thrown, the 1 s hand-off stays and one more requeue for after the lease', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    const deps = h.deps({ maxPasses: 1 });
    const error = storeError('release', 'throttled');
    let releases = 0;
    const leases: LeaseStore = {
      acquire: (...args) => deps.leases.acquire(...args),
      renew: (...args) => deps.leases.renew(...args),
      takeDirty: (...args) => deps.leases.takeDirty(...args),
      async release(lease, failures, options) {
        if (++releases === 1) {
          await h.stores.leases.acquire(KEY, 'marker', 120_000, h.clock.now); // marks it dirty
          return deps.leases.release(lease, failures, options);
        }
        h.journal.push('lease.release failed');
        throw error;
      },
    };
    const out = await reconcileCloneSet({ ...deps, leases }, REQUEST);
    expect([out.result, out.passes, out.error, out.failures, out.requeuedAfterSeconds]).toEqual([
      'reconciled',
      1,
      error.message,
      1,
      121,
    ]);
    expect(h.journal.filter((l) => l.startsWith('lease') || l.startsWith('requeue'))).toEqual([
      'lease.acquire',
      'requeue 1s',
      'lease.release',
      'lease.release failed',
      'requeue 121s',
    ]);
  });
});
