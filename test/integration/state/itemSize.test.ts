import { testDynamoBackend } from '../support/dynamo.js';
import {
  StateStoreError,
  type Expectations,
  type Lease,
  type ScaleDownIntent,
} from '../../../lib/state/index.js';
import { MAX_PENDING_PER_PASS } from '../../../lib/reconcile/pods/passLimit.js';
import { DURATION, KEY, T0, useStateFixture, type StateFixture } from './fixtures.js';

const fx = useStateFixture();

async function lease(f: StateFixture): Promise<Lease> {
  const r = await f.stores.leases.acquire(KEY, 'inv-a', DURATION, T0);
  if (!r.acquired) throw new Error('expected to acquire');
  return r.lease;
}

/** A pod name of the longest allowed length (63) and a UID of the usual 36 characters, distinct per `i`. */
const podName = (i: number): string => `web-${String(i).padStart(6, '0')}-`.padEnd(63, 'x');
const podUid = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

const deletes = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: podName(i), uid: podUid(i), at: T0 + 1_000_000 + i }));
const creates = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: podName(n + i), at: T0 + 1_000_000 + i }));
/** In-place update expectations with the longest resourceVersion an etcd revision prints (20 digits). */
const updates = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    name: podName(2 * n + i),
    uid: podUid(2 * n + i),
    resourceVersion: String(18_446_744_073_709_551_615n - BigInt(i)),
    at: T0 + 1_000_000 + i,
  }));
const intent = (n: number): ScaleDownIntent => ({
  intentId: '7f9c2b1e-3d4a-4e5f-8a6b-9c0d1e2f3a4b',
  createdAt: T0,
  generation: 12,
  pods: deletes(n).map(({ name, uid }) => ({ name, uid, reason: 'PreDeleteHookReleased' })),
});

describe(`one pass's pending writes fit a DynamoDB item on ${testDynamoBackend()} (lib/reconcile/pods/passLimit.ts)`, () => {
  test('the bound is 1,000 objects per kind', () => {
    expect(MAX_PENDING_PER_PASS).toBe(1000);
  });

  test('expectations with the bound of creates, of deletes and of in-place updates, 63-character names, are stored and read back', async () => {
    const f = await fx.fresh(() => T0);
    const l = await lease(f);
    const e: Expectations = {
      creates: creates(MAX_PENDING_PER_PASS),
      deletes: deletes(MAX_PENDING_PER_PASS),
      updates: updates(MAX_PENDING_PER_PASS),
    };
    expect(e.creates[0].name).toHaveLength(63);
    await f.stores.expectations.put(l, e);
    await expect(f.stores.expectations.get(KEY)).resolves.toEqual(e);
  });

  test('a ledger intent with the bound of victims, 63-character names, is recorded and read back', async () => {
    const f = await fx.fresh(() => T0);
    const l = await lease(f);
    await f.stores.ledger.record(l, intent(MAX_PENDING_PER_PASS));
    await expect(f.stores.ledger.get(KEY)).resolves.toEqual(intent(MAX_PENDING_PER_PASS));
  });

  test('5,000 pending deletes (an unbounded 5,000-pod scale-down) exceed the item limit in both items', async () => {
    const f = await fx.fresh(() => T0);
    const l = await lease(f);
    const tooLarge = /size/i;
    const put = f.stores.expectations.put(l, { creates: [], deletes: deletes(5000), updates: [] });
    await expect(put).rejects.toBeInstanceOf(StateStoreError);
    await expect(put).rejects.toThrow(tooLarge);
    const record = f.stores.ledger.record(l, intent(5000));
    await expect(record).rejects.toBeInstanceOf(StateStoreError);
    await expect(record).rejects.toThrow(tooLarge);
  });
});
