/**
 * Review finding 10's remainder (docs/reliability.md#backoff): a DynamoDB call of a pass that fails after the SDK's
 * retries (`StateStoreError`: throttled, unavailable, timed out) is a failed pass like a failed read or write —
 * counted on the lease, backed off by the loop, the lease released, nothing thrown to Lambda, whose two retries
 * (at about +1 and +2 minutes) would end in the dead-letter queue and drop the event. A takeover
 * (`FencedOutError`) still stops the invocation at once. A lease `acquire` or `release` that fails is backed off
 * too: leaseFailure.test.ts.
 */
import { reconcileCloneSet } from '../../../../../lib/controllers/cloneset/index.js';
import { StateStoreError } from '../../../../../lib/state/errors.js';
import type { ExpectationStore } from '../../../../../lib/state/index.js';
import { harness, REQUEST, seedCloneSet } from './support/harness.js';

const KEY = {
  cluster: REQUEST.cluster,
  kind: REQUEST.kind,
  namespace: REQUEST.namespace,
  name: REQUEST.name,
};
const THROTTLED = Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
  name: 'ProvisionedThroughputExceededException',
});

describe('a DynamoDB call of a pass that keeps failing (finding 10)', () => {
  test('expectations.get throttled twice: no throw, failures 1 and 2 stored with the release, requeues after 1 and 2 s; then the pass runs and the count resets', async () => {
    const h = harness();
    h.kube.apply(seedCloneSet());
    let failing = 2;
    const expectations: ExpectationStore = {
      get: async (key) => {
        if (failing-- > 0)
          throw new StateStoreError('expectations.get (GetItem)', 'obj#web/expectations', THROTTLED);
        return h.stores.expectations.get(key);
      },
      put: (lease, e) => h.stores.expectations.put(lease, e),
    };
    const outcomes: unknown[] = [];
    for (let n = 1; n <= 2; n++) {
      const out = await reconcileCloneSet(h.deps({ holder: `inv-${n}`, expectations }), REQUEST);
      outcomes.push([out.result, out.passes, out.writes, out.failures, out.requeuedAfterSeconds, out.error]);
      h.clock.now += (out.requeuedAfterSeconds ?? 0) * 1000;
    }
    const why =
      'DynamoDB expectations.get (GetItem) on obj#web/expectations failed: ProvisionedThroughputExceededException: Rate of requests exceeds the allowed throughput.';
    expect(outcomes).toEqual([
      ['reconciled', 1, 0, 1, 1, why],
      ['reconciled', 1, 0, 2, 2, why],
    ]);
    expect(h.journal.slice(0, 6)).toEqual([
      'lease.acquire',
      'requeue 1s',
      'lease.release (failures 1)',
      'lease.acquire',
      'requeue 2s',
      'lease.release (failures 2)',
    ]);
    const ok = await reconcileCloneSet(h.deps({ holder: 'inv-3', expectations }), REQUEST);
    expect([ok.result, ok.error, ok.failures]).toEqual(['reconciled', undefined, undefined]);
    expect(h.kube.pods.size).toBe(2);
    const probe = await h.stores.leases.acquire(KEY, 'probe', 1000, h.clock.now + 60_000);
    expect(probe).toMatchObject({ acquired: true, failures: 0 });
  });
});
