import { testDynamoBackend } from '../support/dynamo.js';
import { FencedOutError, type Lease } from '../../../lib/state/index.js';
import { DURATION, KEY, PK, T0, ttlOf, useStateFixture } from './fixtures.js';

const fx = useStateFixture();

async function acquired(
  leases: Awaited<ReturnType<typeof fx.fresh>>['stores']['leases'],
  holder: string,
  now: number,
): Promise<Lease> {
  const r = await leases.acquire(KEY, holder, DURATION, now);
  if (!r.acquired) throw new Error(`expected ${holder} to acquire, held by ${r.heldBy}`);
  return r.lease;
}

describe(`LeaseStore on ${testDynamoBackend()} (docs/architecture.md#lease)`, () => {
  test('a free lease is acquired with token 1 and a clean release frees it, keeping the token', async () => {
    const { stores, item } = await fx.fresh();
    const r = await stores.leases.acquire(KEY, 'inv-a', DURATION, T0);
    expect(r).toEqual({
      acquired: true,
      lease: { key: KEY, holder: 'inv-a', token: 1, expiresAt: T0 + DURATION },
      failures: 0,
    });
    expect(await item(PK, 'lease')).toEqual({
      holder: 'inv-a',
      token: 1,
      expiresAt: T0 + DURATION,
      dirty: false,
      ttl: ttlOf(T0 + DURATION),
    });
    if (!r.acquired) return;
    await expect(stores.leases.release(r.lease)).resolves.toBe('released');
    expect(await item(PK, 'lease')).toEqual({
      holder: 'inv-a',
      token: 1,
      expiresAt: 0,
      dirty: false,
      ttl: ttlOf(T0 + DURATION),
    });
  });

  test('a released lease is acquired at once by the next holder with token 2', async () => {
    const { stores } = await fx.fresh();
    await stores.leases.release(await acquired(stores.leases, 'inv-a', T0));
    await expect(stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 1)).resolves.toEqual({
      acquired: true,
      lease: { key: KEY, holder: 'inv-b', token: 2, expiresAt: T0 + 1 + DURATION },
      failures: 0,
    });
  });

  test('a second holder is refused with the live holder and its expiry, and marks the lease dirty', async () => {
    const { stores, item } = await fx.fresh();
    await acquired(stores.leases, 'inv-a', T0);
    await expect(stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 1000)).resolves.toEqual({
      acquired: false,
      heldBy: 'inv-a',
      expiresAt: T0 + DURATION,
    });
    expect(await item(PK, 'lease')).toMatchObject({ holder: 'inv-a', token: 1, dirty: true });
  });

  test("the holder's release returns 'dirty' once after a refused acquire, then 'released'", async () => {
    const { stores, item } = await fx.fresh();
    const lease = await acquired(stores.leases, 'inv-a', T0);
    await stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 1000);
    await expect(stores.leases.release(lease)).resolves.toBe('dirty');
    expect(await item(PK, 'lease')).toMatchObject({
      holder: 'inv-a',
      token: 1,
      expiresAt: T0 + DURATION,
      dirty: false,
    });
    await expect(stores.leases.release(lease)).resolves.toBe('released');
    expect(await item(PK, 'lease')).toMatchObject({ holder: 'inv-a', token: 1, expiresAt: 0, dirty: false });
  });

  test('takeDirty: false while unmarked; after a refused acquire true once (clearing the flag), then false; the release is then clean', async () => {
    const { stores, item } = await fx.fresh();
    const lease = await acquired(stores.leases, 'inv-a', T0);
    await expect(stores.leases.takeDirty(lease)).resolves.toBe(false);
    await stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 1000);
    // a mark without a change of its own to read asks for a quorum read, as before marks existed
    await expect(stores.leases.takeDirty(lease)).resolves.toEqual({ quorum: true });
    expect(await item(PK, 'lease')).toMatchObject({
      holder: 'inv-a',
      token: 1,
      expiresAt: T0 + DURATION,
      dirty: false,
    });
    await expect(stores.leases.takeDirty(lease)).resolves.toBe(false);
    await expect(stores.leases.release(lease)).resolves.toBe('released');
  });

  test('marks fold to the newest resourceVersion of an owned change; a quorum mark wins; the take and the release clear them (docs/architecture.md#list-floors)', async () => {
    const { stores, item } = await fx.fresh();
    const lease = await acquired(stores.leases, 'inv-a', T0);
    const mark = (holder: string, m: Parameters<typeof stores.leases.acquire>[4]) =>
      stores.leases.acquire(KEY, holder, DURATION, T0 + 1000, m);
    await mark('inv-b', { resourceVersion: '1200' });
    await mark('inv-c', { resourceVersion: '999' }); // older, and shorter as text: kept below 1200
    await mark('inv-d', 'none');
    expect(await item(PK, 'lease')).toMatchObject({ dirty: true, markRv: '00000000000000001200' });
    await expect(stores.leases.takeDirty(lease)).resolves.toEqual({ quorum: false, resourceVersion: '1200' });
    expect(await item(PK, 'lease')).not.toHaveProperty('markRv');
    // a change of the object itself alone asks nothing of the LISTs
    await mark('inv-e', 'none');
    await expect(stores.leases.takeDirty(lease)).resolves.toEqual({ quorum: false });
    // a resync's mark (or a resourceVersion that is not etcd's decimal revision) asks for a quorum read
    await mark('inv-f', { resourceVersion: '1300' });
    await mark('inv-g', { resourceVersion: 'abc' });
    let taken: unknown;
    await expect(stores.leases.release(lease, undefined, { onMarks: (m) => (taken = m) })).resolves.toBe(
      'dirty',
    );
    expect(taken).toEqual({ quorum: true });
    expect(await item(PK, 'lease')).not.toHaveProperty('markQuorum');
    // a new holder starts without the old marks
    await mark('inv-h', 'quorum');
    await expect(stores.leases.release(lease, undefined, { requeued: true })).resolves.toBe('released');
    const next = await acquired(stores.leases, 'inv-i', T0 + 2000);
    expect(await item(PK, 'lease')).not.toHaveProperty('markQuorum');
    await stores.leases.acquire(KEY, 'inv-j', DURATION, T0 + 2001, { resourceVersion: '1400' });
    await expect(stores.leases.takeDirty(next)).resolves.toEqual({ quorum: false, resourceVersion: '1400' });
  });

  test("object marks keep the newest change of the object itself beside the LISTs' marks; taken and cleared with them (docs/architecture.md#kept-object)", async () => {
    const { stores, item } = await fx.fresh();
    const lease = await acquired(stores.leases, 'inv-a', T0);
    const mark = (holder: string, m: Parameters<typeof stores.leases.acquire>[4]) =>
      stores.leases.acquire(KEY, holder, DURATION, T0 + 1000, m);
    await mark('inv-b', { objectResourceVersion: '1500' });
    await mark('inv-c', { objectResourceVersion: '999' }); // older, and shorter as text: kept below 1500
    await mark('inv-d', { resourceVersion: '1200' });
    expect(await item(PK, 'lease')).toMatchObject({
      dirty: true,
      markRv: '00000000000000001200',
      markObjRv: '00000000000000001500',
    });
    await expect(stores.leases.takeDirty(lease)).resolves.toEqual({
      quorum: false,
      resourceVersion: '1200',
      objectResourceVersion: '1500',
    });
    expect(await item(PK, 'lease')).not.toHaveProperty('markObjRv');
    // an object mark alone asks nothing of the LISTs (zeros, as 'none')
    await mark('inv-e', { objectResourceVersion: '1600' });
    expect(await item(PK, 'lease')).toMatchObject({
      markRv: '00000000000000000000',
      markObjRv: '00000000000000001600',
    });
    let taken: unknown;
    await expect(stores.leases.release(lease, undefined, { onMarks: (m) => (taken = m) })).resolves.toBe(
      'dirty',
    );
    expect(taken).toEqual({ quorum: false, objectResourceVersion: '1600' });
    // one that is not etcd's decimal revision asks for a quorum read
    await mark('inv-f', { objectResourceVersion: 'abc' });
    await expect(stores.leases.takeDirty(lease)).resolves.toEqual({ quorum: true });
    // a release that frees the lease clears them, and a new holder starts without them
    await mark('inv-g', { objectResourceVersion: '1700' });
    await expect(stores.leases.release(lease, undefined, { requeued: true })).resolves.toBe('released');
    expect(await item(PK, 'lease')).not.toHaveProperty('markObjRv');
  });

  test('takeDirty throws FencedOutError once the lease was taken over, and leaves the new holder its flag', async () => {
    const { stores, item } = await fx.fresh();
    const lease = await acquired(stores.leases, 'inv-a', T0);
    await acquired(stores.leases, 'inv-b', T0 + DURATION + 1);
    await stores.leases.acquire(KEY, 'inv-c', DURATION, T0 + DURATION + 2);
    await expect(stores.leases.takeDirty(lease)).rejects.toBeInstanceOf(FencedOutError);
    expect(await item(PK, 'lease')).toMatchObject({ holder: 'inv-b', token: 2, dirty: true });
  });

  test('a release after a requeue (requeued: true) frees a dirty lease in one write, clearing the flag and storing the failure count (review finding 18)', async () => {
    const { stores, item } = await fx.fresh();
    const lease = await acquired(stores.leases, 'inv-a', T0);
    await stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 1000); // marks dirty
    await expect(stores.leases.release(lease, 2, { requeued: true })).resolves.toBe('released');
    expect(await item(PK, 'lease')).toMatchObject({
      holder: 'inv-a',
      token: 1,
      expiresAt: 0,
      dirty: false,
      failures: 2,
    });
    await expect(stores.leases.release(lease, undefined, { requeued: true })).resolves.toBe('released');
    const next = await stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 2000);
    expect(next).toMatchObject({ acquired: true, lease: { holder: 'inv-b', token: 2 }, failures: 2 });
    if (!next.acquired) throw new Error('unreachable');
    await expect(stores.leases.release(lease, undefined, { requeued: true })).rejects.toBeInstanceOf(
      FencedOutError,
    );
  });

  test('a lease is not taken over one millisecond before it expires', async () => {
    const { stores } = await fx.fresh();
    await acquired(stores.leases, 'inv-a', T0);
    await expect(stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + DURATION - 1)).resolves.toEqual({
      acquired: false,
      heldBy: 'inv-a',
      expiresAt: T0 + DURATION,
    });
  });

  test('an expired lease is taken over with token + 1 and dirty reset', async () => {
    const { stores, item } = await fx.fresh();
    await acquired(stores.leases, 'inv-a', T0);
    await stores.leases.acquire(KEY, 'inv-c', DURATION, T0 + 1); // marks dirty
    const now = T0 + DURATION; // expiresAt <= now: expired
    await expect(stores.leases.acquire(KEY, 'inv-b', DURATION, now)).resolves.toEqual({
      acquired: true,
      lease: { key: KEY, holder: 'inv-b', token: 2, expiresAt: now + DURATION },
      failures: 0,
    });
    expect(await item(PK, 'lease')).toEqual({
      holder: 'inv-b',
      token: 2,
      expiresAt: now + DURATION,
      dirty: false,
      ttl: ttlOf(now + DURATION),
    });
  });

  test("the old holder's renew and release throw FencedOutError after a takeover", async () => {
    const { stores, item } = await fx.fresh();
    const old = await acquired(stores.leases, 'inv-a', T0);
    await acquired(stores.leases, 'inv-b', T0 + DURATION);
    const renew = stores.leases.renew(old, DURATION, T0 + DURATION + 5);
    await expect(renew).rejects.toBeInstanceOf(FencedOutError);
    await expect(renew).rejects.toMatchObject({ operation: 'lease.renew', key: `${PK}/lease`, token: 1 });
    await expect(stores.leases.release(old)).rejects.toMatchObject({
      name: 'FencedOutError',
      operation: 'lease.release',
      token: 1,
    });
    expect(await item(PK, 'lease')).toMatchObject({
      holder: 'inv-b',
      token: 2,
      expiresAt: T0 + 2 * DURATION,
    });
  });

  test('renew moves expiresAt to now + duration and keeps token and dirty flag', async () => {
    const { stores, item } = await fx.fresh();
    const lease = await acquired(stores.leases, 'inv-a', T0);
    await stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 1);
    await expect(stores.leases.renew(lease, 2 * DURATION, T0 + 10_000)).resolves.toEqual({
      key: KEY,
      holder: 'inv-a',
      token: 1,
      expiresAt: T0 + 10_000 + 2 * DURATION,
    });
    expect(await item(PK, 'lease')).toEqual({
      holder: 'inv-a',
      token: 1,
      expiresAt: T0 + 10_000 + 2 * DURATION,
      dirty: true,
      markQuorum: true, // the refused acquire named no mark: a quorum read
      ttl: ttlOf(T0 + 10_000 + 2 * DURATION),
    });
  });

  test('an expired but not taken-over lease can still be renewed and released by its holder', async () => {
    const { stores } = await fx.fresh();
    const lease = await acquired(stores.leases, 'inv-a', T0);
    const renewed = await stores.leases.renew(lease, DURATION, T0 + 5 * DURATION);
    expect(renewed.expiresAt).toBe(T0 + 6 * DURATION);
    await expect(stores.leases.release(renewed)).resolves.toBe('released');
  });

  test('a renew after the release throws FencedOutError and leaves the lease free for the next holder', async () => {
    const { stores, item } = await fx.fresh();
    const lease = await acquired(stores.leases, 'inv-a', T0);
    await expect(stores.leases.release(lease)).resolves.toBe('released');
    const renew = stores.leases.renew(lease, DURATION, T0 + 1000);
    await expect(renew).rejects.toBeInstanceOf(FencedOutError);
    await expect(renew).rejects.toMatchObject({ operation: 'lease.renew', key: `${PK}/lease`, token: 1 });
    expect(await item(PK, 'lease')).toMatchObject({ holder: 'inv-a', token: 1, expiresAt: 0 });
    await expect(stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 2000)).resolves.toMatchObject({
      acquired: true,
      lease: { holder: 'inv-b', token: 2 },
    });
  });

  test('the holder acquiring again while its lease is live gets token + 1, fencing its earlier lease', async () => {
    const { stores } = await fx.fresh();
    const first = await acquired(stores.leases, 'inv-a', T0);
    const second = await acquired(stores.leases, 'inv-a', T0 + 1);
    expect(second).toEqual({ key: KEY, holder: 'inv-a', token: 2, expiresAt: T0 + 1 + DURATION });
    await expect(stores.leases.release(first)).rejects.toBeInstanceOf(FencedOutError);
    await expect(stores.leases.release(second)).resolves.toBe('released');
  });

  test('of 10 concurrent acquires exactly one succeeds and the other 9 are told who holds it', async () => {
    const { stores, item } = await fx.fresh();
    const holders = Array.from({ length: 10 }, (_, i) => `inv-${i}`);
    const results = await Promise.all(holders.map((h) => stores.leases.acquire(KEY, h, DURATION, T0)));
    const winners = results.flatMap((r) => (r.acquired ? [r.lease] : []));
    expect(winners).toHaveLength(1);
    const [winner] = winners;
    expect(winner.token).toBe(1);
    expect(winner.expiresAt).toBe(T0 + DURATION);
    expect(results.filter((r) => !r.acquired)).toEqual(
      Array.from({ length: 9 }, () => ({ acquired: false, heldBy: winner.holder, expiresAt: T0 + DURATION })),
    );
    expect(await item(PK, 'lease')).toMatchObject({ holder: winner.holder, token: 1, dirty: true });
    await expect(stores.leases.release(winner)).resolves.toBe('dirty');
    await expect(stores.leases.release(winner)).resolves.toBe('released');
  });

  test('leases of different CloneSets are independent', async () => {
    const { stores } = await fx.fresh();
    await acquired(stores.leases, 'inv-a', T0);
    const other = await stores.leases.acquire({ ...KEY, name: 'api' }, 'inv-b', DURATION, T0);
    expect(other).toEqual({
      acquired: true,
      lease: { key: { ...KEY, name: 'api' }, holder: 'inv-b', token: 1, expiresAt: T0 + DURATION },
      failures: 0,
    });
  });

  test('the failure count rides on the release write (either step) and comes back with the next acquire (docs/reliability.md#backoff)', async () => {
    const { stores, item } = await fx.fresh();
    await expect(stores.leases.release(await acquired(stores.leases, 'inv-a', T0), 3)).resolves.toBe(
      'released',
    );
    expect(await item(PK, 'lease')).toMatchObject({ expiresAt: 0, failures: 3 });
    const b = await stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 1);
    expect(b).toMatchObject({ acquired: true, failures: 3 });
    if (!b.acquired) return;
    // a release without a count keeps the stored one
    await stores.leases.release(b.lease);
    const c = await stores.leases.acquire(KEY, 'inv-c', DURATION, T0 + 2);
    expect(c).toMatchObject({ acquired: true, failures: 3 });
    if (!c.acquired) return;
    // the dirty step stores it too
    await stores.leases.acquire(KEY, 'inv-d', DURATION, T0 + 3);
    await expect(stores.leases.release(c.lease, 4)).resolves.toBe('dirty');
    expect(await item(PK, 'lease')).toMatchObject({ dirty: false, failures: 4 });
    await expect(stores.leases.release(c.lease, 0)).resolves.toBe('released');
    expect(await item(PK, 'lease')).toMatchObject({ expiresAt: 0, failures: 0 });
    await expect(stores.leases.release(c.lease, -1)).rejects.toThrow(
      'lease.release: failures must be an integer ≥ 0, got -1',
    );
  });

  test('the Event correlation text rides on the release write (either step), comes back with the next acquire, and null removes it (docs/reliability.md#event-folding)', async () => {
    const { stores, item } = await fx.fresh();
    const a = await acquired(stores.leases, 'inv-a', T0);
    await expect(stores.leases.release(a, 0, { eventCorrelation: '{"s":1}' })).resolves.toBe('released');
    expect(await item(PK, 'lease')).toMatchObject({ expiresAt: 0, failures: 0, eventCorrelation: '{"s":1}' });
    const b = await stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 1);
    expect(b).toMatchObject({ acquired: true, failures: 0, eventCorrelation: '{"s":1}' });
    if (!b.acquired) return;
    // absent keeps the stored text; the dirty step stores a new one
    await stores.leases.acquire(KEY, 'inv-c', DURATION, T0 + 2);
    await expect(stores.leases.release(b.lease, 1)).resolves.toBe('dirty');
    expect(await item(PK, 'lease')).toMatchObject({ dirty: false, failures: 1, eventCorrelation: '{"s":1}' });
    await stores.leases.acquire(KEY, 'inv-c', DURATION, T0 + 3);
    await expect(stores.leases.release(b.lease, 1, { eventCorrelation: '{"s":2}' })).resolves.toBe('dirty');
    expect(await item(PK, 'lease')).toMatchObject({ eventCorrelation: '{"s":2}' });
    // null removes it, on the one-write release of a requeued run too
    await stores.leases.acquire(KEY, 'inv-c', DURATION, T0 + 4);
    await expect(stores.leases.release(b.lease, 0, { requeued: true, eventCorrelation: null })).resolves.toBe(
      'released',
    );
    const stored = await item(PK, 'lease');
    expect(stored).toMatchObject({ expiresAt: 0, dirty: false, failures: 0 });
    expect(stored).not.toHaveProperty('eventCorrelation');
    const c = await stores.leases.acquire(KEY, 'inv-d', DURATION, T0 + 5);
    expect(c).toEqual({
      acquired: true,
      lease: { key: KEY, holder: 'inv-d', token: 3, expiresAt: T0 + 5 + DURATION },
      failures: 0,
    });
  });

  test('the LIST floors ride on the release write (either step), come back only with an acquire of a released lease, and a release without them removes them (docs/architecture.md#list-floors)', async () => {
    const { stores, item } = await fx.fresh();
    const a = await acquired(stores.leases, 'inv-a', T0);
    await expect(stores.leases.release(a, 0, { listFloors: '{"pods.":["10",1]}' })).resolves.toBe('released');
    expect(await item(PK, 'lease')).toMatchObject({ expiresAt: 0, listFloors: '{"pods.":["10",1]}' });
    const b = await stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 1);
    expect(b).toMatchObject({ acquired: true, listFloors: '{"pods.":["10",1]}' });
    if (!b.acquired) return;
    // the dirty step stores them too; a release without them removes them
    await stores.leases.acquire(KEY, 'inv-c', DURATION, T0 + 2);
    await expect(stores.leases.release(b.lease, 0, { listFloors: '{"pods.":["20",1]}' })).resolves.toBe(
      'dirty',
    );
    expect(await item(PK, 'lease')).toMatchObject({ listFloors: '{"pods.":["20",1]}' });
    await expect(stores.leases.release(b.lease, 0)).resolves.toBe('released');
    expect(await item(PK, 'lease')).not.toHaveProperty('listFloors');
    // a holder whose lease ran out without a release: its successor gets no floors, though some are stored
    const c = await stores.leases.acquire(KEY, 'inv-c', 1_000, T0 + 3);
    if (!c.acquired) throw new Error('not acquired');
    await expect(stores.leases.release(c.lease, 0, { listFloors: '{"pods.":["30",1]}' })).resolves.toBe(
      'released',
    );
    const d = await stores.leases.acquire(KEY, 'inv-d', 1_000, T0 + 4);
    expect(d).toMatchObject({ acquired: true, listFloors: '{"pods.":["30",1]}' });
    const e = await stores.leases.acquire(KEY, 'inv-e', DURATION, T0 + 5_000);
    expect(e.acquired).toBe(true);
    expect(e).not.toHaveProperty('listFloors');
    expect(await item(PK, 'lease')).toMatchObject({ holder: 'inv-e', listFloors: '{"pods.":["30",1]}' });
  });

  test('a non-positive duration is rejected before any write', async () => {
    const { stores, item } = await fx.fresh();
    await expect(stores.leases.acquire(KEY, 'inv-a', 0, T0)).rejects.toThrow(
      'lease.acquire: durationMs must be a positive number of ms, got 0',
    );
    expect(await item(PK, 'lease')).toBeUndefined();
  });
});
