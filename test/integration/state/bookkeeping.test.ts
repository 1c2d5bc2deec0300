import { testDynamoBackend } from '../support/dynamo.js';
import {
  FencedOutError,
  type Expectations,
  type Lease,
  type ScaleDownIntent,
} from '../../../lib/state/index.js';
import { DURATION, KEY, PK, T0, ttlOf, useStateFixture, type StateFixture } from './fixtures.js';

const fx = useStateFixture();
/** Wall clock of the stores in these tests (drives `ttl` of bookkeeping items), epoch ms. */
const WALL = 1_750_000_000_000;

async function lease(f: StateFixture, holder: string, now: number): Promise<Lease> {
  const r = await f.stores.leases.acquire(KEY, holder, DURATION, now);
  if (!r.acquired) throw new Error(`expected ${holder} to acquire`);
  return r.lease;
}

const EXPECTATIONS: Expectations = {
  creates: [{ name: 'web-abcde', at: T0 + 1 }],
  deletes: [{ name: 'web-fghij', at: T0 + 2, uid: 'uid-1' }],
  updates: [{ name: 'web-klmno', at: T0 + 3, uid: 'uid-2', resourceVersion: '4711' }],
};

const INTENT: ScaleDownIntent = {
  intentId: 'intent-1',
  createdAt: T0 + 5,
  pods: [
    { name: 'web-fghij', uid: 'uid-1', reason: 'specified-delete' },
    { name: 'web-pqrst', uid: 'uid-3', reason: 'not-ready' },
  ],
};

describe(`ExpectationStore on ${testDynamoBackend()} (docs/architecture.md#expectations)`, () => {
  test('expectations are three empty lists when nothing is stored', async () => {
    const f = await fx.fresh(() => WALL);
    await expect(f.stores.expectations.get(KEY)).resolves.toEqual({ creates: [], deletes: [], updates: [] });
  });

  test('put then get returns exactly what was stored, with fence = token and ttl one day after the write', async () => {
    const f = await fx.fresh(() => WALL);
    const l = await lease(f, 'inv-a', T0);
    await f.stores.expectations.put(l, EXPECTATIONS);
    await expect(f.stores.expectations.get(KEY)).resolves.toEqual(EXPECTATIONS);
    expect(await f.item(PK, 'expectations')).toEqual({ ...EXPECTATIONS, fence: 1, ttl: ttlOf(WALL) });
  });

  test("a controller's retry delays are stored with the expectations, and dropped by a put without them", async () => {
    const f = await fx.fresh(() => WALL);
    const l = await lease(f, 'inv-a', T0);
    const withDelays = { ...EXPECTATIONS, backoffs: [{ key: '3/node-a', delayMs: 4000, at: T0 + 1 }] };
    await f.stores.expectations.put(l, withDelays);
    await expect(f.stores.expectations.get(KEY)).resolves.toEqual(withDelays);
    expect(await f.item(PK, 'expectations')).toEqual({ ...withDelays, fence: 1, ttl: ttlOf(WALL) });
    await f.stores.expectations.put(l, EXPECTATIONS);
    await expect(f.stores.expectations.get(KEY)).resolves.toEqual(EXPECTATIONS);
  });

  test('whether the object may own PVCs is stored with the expectations (both values), and read as not known when absent', async () => {
    const f = await fx.fresh(() => WALL);
    const l = await lease(f, 'inv-a', T0);
    for (const ownsClaims of [false, true]) {
      await f.stores.expectations.put(l, { ...EXPECTATIONS, ownsClaims });
      await expect(f.stores.expectations.get(KEY)).resolves.toEqual({ ...EXPECTATIONS, ownsClaims });
      expect(await f.item(PK, 'expectations')).toEqual({
        ...EXPECTATIONS,
        ownsClaims,
        fence: 1,
        ttl: ttlOf(WALL),
      });
    }
    await f.stores.expectations.put(l, EXPECTATIONS);
    expect('ownsClaims' in (await f.stores.expectations.get(KEY))).toBe(false);
  });

  test('the UID of the object they were recorded for is stored with the expectations, and absent when not given', async () => {
    const f = await fx.fresh(() => WALL);
    const l = await lease(f, 'inv-a', T0);
    await f.stores.expectations.put(l, { ...EXPECTATIONS, ownerUid: 'uid-1' });
    await expect(f.stores.expectations.get(KEY)).resolves.toEqual({ ...EXPECTATIONS, ownerUid: 'uid-1' });
    expect(await f.item(PK, 'expectations')).toEqual({
      ...EXPECTATIONS,
      ownerUid: 'uid-1',
      fence: 1,
      ttl: ttlOf(WALL),
    });
    await f.stores.expectations.put(l, EXPECTATIONS);
    expect('ownerUid' in (await f.stores.expectations.get(KEY))).toBe(false);
  });

  test('put replaces the whole item', async () => {
    const f = await fx.fresh(() => WALL);
    const l = await lease(f, 'inv-a', T0);
    await f.stores.expectations.put(l, EXPECTATIONS);
    await f.stores.expectations.put(l, {
      creates: [],
      deletes: [],
      updates: [{ name: 'web-x', at: T0 + 9 }],
    });
    await expect(f.stores.expectations.get(KEY)).resolves.toEqual({
      creates: [],
      deletes: [],
      updates: [{ name: 'web-x', at: T0 + 9 }],
    });
  });

  test("after a takeover the old holder's put throws FencedOutError even before the new holder writes", async () => {
    const f = await fx.fresh(() => WALL);
    const old = await lease(f, 'inv-a', T0);
    await f.stores.expectations.put(old, EXPECTATIONS);
    const successor = await lease(f, 'inv-b', T0 + DURATION);
    const put = f.stores.expectations.put(old, { creates: [], deletes: [], updates: [] });
    await expect(put).rejects.toBeInstanceOf(FencedOutError);
    await expect(put).rejects.toMatchObject({
      operation: 'expectations.put',
      key: `${PK}/expectations`,
      token: 1,
    });
    // The successor sees the old holder's expectations and may replace them.
    await expect(f.stores.expectations.get(KEY)).resolves.toEqual(EXPECTATIONS);
    await f.stores.expectations.put(successor, { creates: [], deletes: [], updates: [] });
    expect(await f.item(PK, 'expectations')).toEqual({
      creates: [],
      deletes: [],
      updates: [],
      fence: 2,
      ttl: ttlOf(WALL),
    });
  });

  test('a put with a token below the stored fence is rejected and leaves the item unchanged', async () => {
    const f = await fx.fresh(() => WALL);
    await f.putItem({ pk: PK, sk: 'expectations', ...EXPECTATIONS, fence: 7, ttl: 1 });
    const stale: Lease = { key: KEY, holder: 'inv-z', token: 6, expiresAt: T0 + DURATION };
    await expect(f.stores.expectations.put(stale, { creates: [], deletes: [], updates: [] })).rejects.toThrow(
      `expectations.put on ${PK}/expectations was fenced out: token 6 is no longer current (a newer lease holder wrote this item)`,
    );
    expect(await f.item(PK, 'expectations')).toEqual({ ...EXPECTATIONS, fence: 7, ttl: 1 });
  });

  test('a lease item lost to garbage collection restarts tokens at 1 without locking the new holder out', async () => {
    const f = await fx.fresh(() => WALL);
    // Left behind by a holder with token 7 whose lease item has since been deleted by TTL.
    await f.putItem({ pk: PK, sk: 'expectations', ...EXPECTATIONS, fence: 7, ttl: 1 });
    await f.putItem({ pk: PK, sk: 'scaledown', ...INTENT, fence: 7, ttl: 1 });
    const l = await lease(f, 'inv-a', T0);
    expect(l.token).toBe(1);
    await expect(f.stores.expectations.get(KEY)).resolves.toEqual(EXPECTATIONS);
    await expect(f.stores.ledger.get(KEY)).resolves.toEqual(INTENT);
    await f.stores.expectations.put(l, { creates: [], deletes: [], updates: [] });
    await f.stores.ledger.clear(l, INTENT.intentId);
    await expect(f.stores.ledger.get(KEY)).resolves.toBeUndefined();
  });
});

describe(`ScaleDownLedger on ${testDynamoBackend()} (docs/architecture.md#ledger)`, () => {
  test('no intent is reported when nothing was recorded', async () => {
    const f = await fx.fresh(() => WALL);
    await expect(f.stores.ledger.get(KEY)).resolves.toBeUndefined();
    await lease(f, 'inv-a', T0); // creates a content-less, fenced item
    await expect(f.stores.ledger.get(KEY)).resolves.toBeUndefined();
  });

  test('record then get returns the intent with every pod and its reason', async () => {
    const f = await fx.fresh(() => WALL);
    const l = await lease(f, 'inv-a', T0);
    await f.stores.ledger.record(l, INTENT);
    await expect(f.stores.ledger.get(KEY)).resolves.toEqual(INTENT);
    expect(await f.item(PK, 'scaledown')).toEqual({ ...INTENT, fence: 1, ttl: ttlOf(WALL) });
  });

  test('the generation and the UID the pods were chosen for are recorded with the intent and cleared with it', async () => {
    const f = await fx.fresh(() => WALL);
    const l = await lease(f, 'inv-a', T0);
    const owned = { ...INTENT, generation: 4, ownerUid: 'cs-uid' };
    await f.stores.ledger.record(l, owned);
    await expect(f.stores.ledger.get(KEY)).resolves.toEqual(owned);
    expect(await f.item(PK, 'scaledown')).toEqual({ ...owned, fence: 1, ttl: ttlOf(WALL) });
    await f.stores.ledger.clear(l, 'intent-1');
    expect(await f.item(PK, 'scaledown')).toEqual({ fence: 1, ttl: ttlOf(WALL) });
  });

  test('clear with another intentId leaves the recorded intent in place', async () => {
    const f = await fx.fresh(() => WALL);
    const l = await lease(f, 'inv-a', T0);
    await f.stores.ledger.record(l, INTENT);
    await f.stores.ledger.clear(l, 'intent-2');
    await expect(f.stores.ledger.get(KEY)).resolves.toEqual(INTENT);
  });

  test('clear with the matching intentId removes the intent but keeps the fence; a repeat is a no-op', async () => {
    const f = await fx.fresh(() => WALL);
    const l = await lease(f, 'inv-a', T0);
    await f.stores.ledger.record(l, INTENT);
    await f.stores.ledger.clear(l, 'intent-1');
    await expect(f.stores.ledger.get(KEY)).resolves.toBeUndefined();
    expect(await f.item(PK, 'scaledown')).toEqual({ fence: 1, ttl: ttlOf(WALL) });
    await f.stores.ledger.clear(l, 'intent-1');
    expect(await f.item(PK, 'scaledown')).toEqual({ fence: 1, ttl: ttlOf(WALL) });
  });

  test("after a takeover the old holder's record and clear throw FencedOutError and the intent survives", async () => {
    const f = await fx.fresh(() => WALL);
    const old = await lease(f, 'inv-a', T0);
    await f.stores.ledger.record(old, INTENT);
    const successor = await lease(f, 'inv-b', T0 + DURATION);
    await expect(f.stores.ledger.record(old, { ...INTENT, intentId: 'intent-2' })).rejects.toMatchObject({
      name: 'FencedOutError',
      operation: 'ledger.record',
      key: `${PK}/scaledown`,
      token: 1,
    });
    await expect(f.stores.ledger.clear(old, 'intent-1')).rejects.toMatchObject({
      name: 'FencedOutError',
      operation: 'ledger.clear',
      token: 1,
    });
    // The successor finishes the recorded intent instead of choosing new victims.
    await expect(f.stores.ledger.get(KEY)).resolves.toEqual(INTENT);
    await f.stores.ledger.clear(successor, 'intent-1');
    await expect(f.stores.ledger.get(KEY)).resolves.toBeUndefined();
  });

  test('an older holder cannot record after the successor cleared the ledger', async () => {
    const f = await fx.fresh(() => WALL);
    const old = await lease(f, 'inv-a', T0);
    const successor = await lease(f, 'inv-b', T0 + DURATION);
    await f.stores.ledger.record(successor, INTENT);
    await f.stores.ledger.clear(successor, INTENT.intentId);
    await expect(f.stores.ledger.record(old, { ...INTENT, intentId: 'zombie' })).rejects.toBeInstanceOf(
      FencedOutError,
    );
    await expect(f.stores.ledger.get(KEY)).resolves.toBeUndefined();
  });

  test('a released lease does not fence its holder out of nothing: the next holder overwrites its items', async () => {
    const f = await fx.fresh(() => WALL);
    const a = await lease(f, 'inv-a', T0);
    await f.stores.ledger.record(a, INTENT);
    await f.stores.leases.release(a);
    const b = await lease(f, 'inv-b', T0 + 1);
    expect(await f.item(PK, 'scaledown')).toEqual({ ...INTENT, fence: 1, ttl: ttlOf(WALL) });
    await f.stores.ledger.record(b, { ...INTENT, intentId: 'intent-2' });
    expect(await f.item(PK, 'scaledown')).toMatchObject({ intentId: 'intent-2', fence: 2 });
  });
});
