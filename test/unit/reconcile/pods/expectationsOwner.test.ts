/**
 * Expectations read and written for one object (lib/reconcile/pods/expectationsOwner.ts): another object's of the
 * same name read as none, every write carries the owner's UID, and items from before owners were recorded are kept.
 */
import { ownedExpectationStore, ownExpectations } from '../../../../lib/reconcile/pods/expectationsOwner.js';
import { createMemoryStores, type Expectations } from '../../../../lib/state/index.js';

const KEY = { cluster: 'c', kind: 'apps.kruise.io/DaemonSet', namespace: 'ns', name: 'agent' };
const OLD: Expectations = {
  creates: [{ name: 'agent-a', at: 1 }],
  deletes: [{ name: 'agent-b', uid: 'uid-b', at: 2 }],
  updates: [],
  backoffs: [{ key: '1/n0', delayMs: 1000, at: 3 }],
  ownsClaims: false,
  ownerUid: 'ds-1',
};

describe('ownExpectations', () => {
  test("another object's read as none: no writes pending, no delays, whether it owns claims not known", () => {
    expect(ownExpectations(OLD, 'ds-2')).toEqual({ creates: [], deletes: [], updates: [], ownerUid: 'ds-2' });
  });

  test('its own read as stored', () => {
    expect(ownExpectations(OLD, 'ds-1')).toEqual(OLD);
  });

  test('an item without an owner (written before owners were recorded) is taken as the reader’s', () => {
    const { ownerUid: _, ...unowned } = OLD;
    expect(ownExpectations(unowned, 'ds-2')).toEqual({ ...unowned, ownerUid: 'ds-2' });
  });

  test('a reader without a UID reads the item as stored', () => {
    expect(ownExpectations(OLD, '')).toBe(OLD);
  });
});

describe('ownedExpectationStore', () => {
  test('every put carries the owner, whatever the caller built; a later object of the name reads none', async () => {
    const stores = createMemoryStores();
    const got = await stores.leases.acquire(KEY, 'inv', 60_000, Date.parse('2024-05-01T08:00:00Z'));
    if (!got.acquired) throw new Error('lease');
    const first = ownedExpectationStore(stores.expectations, 'ds-1');
    await first.put(got.lease, { creates: [{ name: 'agent-a', at: 1 }], deletes: [], updates: [] });
    expect(await stores.expectations.get(KEY)).toEqual({
      creates: [{ name: 'agent-a', at: 1 }],
      deletes: [],
      updates: [],
      ownerUid: 'ds-1',
    });
    expect((await first.get(KEY)).creates).toHaveLength(1);
    const second = ownedExpectationStore(stores.expectations, 'ds-2');
    expect(await second.get(KEY)).toEqual({ creates: [], deletes: [], updates: [], ownerUid: 'ds-2' });
  });

  test('without a UID the store itself', () => {
    const { expectations } = createMemoryStores();
    expect(ownedExpectationStore(expectations, '')).toBe(expectations);
  });
});
