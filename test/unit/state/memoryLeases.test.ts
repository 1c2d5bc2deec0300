/**
 * The in-memory lease store keeps the DynamoDB adapter's protocol (lib/state/leaseProtocol.ts) where the reconciler's
 * unit tests rely on it; the DynamoDB adapter's own suite is test/integration/state/leases.test.ts.
 */
import { describe, expect, it } from '@jest/globals';
import { createMemoryStores, FencedOutError, type Lease } from '../../../lib/state/index.js';

const KEY = { cluster: 'prod', kind: 'apps.kruise.io/CloneSet', namespace: 'shop', name: 'web' };
const T0 = 1_700_000_000_000;
const DURATION = 60_000;

async function acquired(
  stores: ReturnType<typeof createMemoryStores>,
  holder: string,
  now: number,
): Promise<Lease> {
  const r = await stores.leases.acquire(KEY, holder, DURATION, now);
  if (!r.acquired) throw new Error(`expected ${holder} to acquire, held by ${r.heldBy}`);
  return r.lease;
}

describe('memory LeaseStore.renew', () => {
  it('extends a live lease of its holder', async () => {
    const stores = createMemoryStores();
    const lease = await acquired(stores, 'inv-a', T0);
    await expect(stores.leases.renew(lease, DURATION, T0 + 1000)).resolves.toEqual({
      ...lease,
      expiresAt: T0 + 1000 + DURATION,
    });
  });

  it('after the release throws FencedOutError and leaves the lease free for the next holder', async () => {
    const stores = createMemoryStores();
    const lease = await acquired(stores, 'inv-a', T0);
    await expect(stores.leases.release(lease)).resolves.toBe('released');
    const renew = stores.leases.renew(lease, DURATION, T0 + 1000);
    await expect(renew).rejects.toBeInstanceOf(FencedOutError);
    await expect(renew).rejects.toMatchObject({ operation: 'lease.renew', token: 1 });
    await expect(stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 2000)).resolves.toMatchObject({
      acquired: true,
      lease: { holder: 'inv-b', token: 2 },
    });
  });

  it('after a takeover throws FencedOutError', async () => {
    const stores = createMemoryStores();
    const old = await acquired(stores, 'inv-a', T0);
    await acquired(stores, 'inv-b', T0 + DURATION);
    await expect(stores.leases.renew(old, DURATION, T0 + DURATION + 1)).rejects.toBeInstanceOf(
      FencedOutError,
    );
  });
});

describe('memory LeaseStore.release after a requeue (requeued: true, review finding 18)', () => {
  it('frees a dirty lease at once, clearing the flag, so the next acquire starts clean', async () => {
    const stores = createMemoryStores();
    const lease = await acquired(stores, 'inv-a', T0);
    await stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 1000); // marks dirty
    await expect(stores.leases.release(lease, 3, { requeued: true })).resolves.toBe('released');
    const next = await acquired(stores, 'inv-b', T0 + 2000);
    expect(next).toEqual({ key: KEY, holder: 'inv-b', token: 2, expiresAt: T0 + 2000 + DURATION });
    await expect(stores.leases.release(next)).resolves.toBe('released');
    await expect(stores.leases.release(lease, undefined, { requeued: true })).rejects.toBeInstanceOf(
      FencedOutError,
    );
  });
});

describe('memory LeaseStore LIST floors (docs/architecture.md#list-floors)', () => {
  it('come back only with an acquire of a released lease; a release without them removes them', async () => {
    const stores = createMemoryStores();
    const a = await acquired(stores, 'inv-a', T0);
    await stores.leases.release(a, 0, { listFloors: 'f1' });
    const b = await stores.leases.acquire(KEY, 'inv-b', 1_000, T0 + 1);
    expect(b).toMatchObject({ acquired: true, listFloors: 'f1' });
    // inv-b dies holding the lease: its successor gets none
    const c = await stores.leases.acquire(KEY, 'inv-c', DURATION, T0 + 2_000);
    expect(c.acquired).toBe(true);
    expect(c).not.toHaveProperty('listFloors');
    if (!c.acquired) return;
    await stores.leases.release(c.lease, 0);
    const d = await stores.leases.acquire(KEY, 'inv-d', DURATION, T0 + 3_000);
    expect(d).not.toHaveProperty('listFloors');
  });
});

describe('memory LeaseStore dirty marks (docs/architecture.md#list-floors, #kept-object)', () => {
  it("fold as the DynamoDB adapter's attributes do: the newest of each kind; a quorum mark, or a mark that is not a decimal revision, wins", async () => {
    const stores = createMemoryStores();
    const lease = await acquired(stores, 'inv-a', T0);
    const mark = (m: Parameters<typeof stores.leases.acquire>[4]) =>
      stores.leases.acquire(KEY, 'inv-b', DURATION, T0 + 1, m);
    await mark({ objectResourceVersion: '1500' });
    await mark({ objectResourceVersion: '999' });
    await mark({ resourceVersion: '1200' });
    await mark({ resourceVersion: '80' });
    await mark('none');
    await expect(stores.leases.takeDirty(lease)).resolves.toEqual({
      quorum: false,
      resourceVersion: '1200',
      objectResourceVersion: '1500',
    });
    await mark({ objectResourceVersion: '1600' });
    await expect(stores.leases.takeDirty(lease)).resolves.toEqual({
      quorum: false,
      objectResourceVersion: '1600',
    });
    await mark({ objectResourceVersion: '1700' });
    await mark({ objectResourceVersion: 'x' });
    await expect(stores.leases.takeDirty(lease)).resolves.toEqual({ quorum: true });
  });
});
