/**
 * Expectations belong to one object, not to its name (docs/architecture.md#expectations). The state item is keyed by
 * the object's name, so an object deleted and created again under that name before any pass saw it gone would
 * otherwise inherit its predecessor's pending creates, deletes, updates and retry delays, and hold back its own passes
 * until they time out (5 min). Upstream clears a controller's expectations on the object's delete event
 * (`DeleteExpectations` in OpenKruise's and Kubernetes' DaemonSet, ReplicaSet and CloneSet handlers); a stateless pass
 * may never see that event (a delete and a create folded into one reconcile), so each write is stamped with the UID
 * of the object it was recorded for and a pass of another UID reads the item as empty.
 */
import type { ExpectationStore, Expectations } from '../../state/index.js';
import { noExpectations } from './observeExpectations.js';

/**
 * The stored expectations as the object of `uid` sees them: another object's (a stored `ownerUid` that differs) read
 * as none — no pending writes, no retry delays, `ownsClaims` not known — and what is returned carries `ownerUid: uid`.
 * An item written before owners were recorded (no `ownerUid`) is taken as this object's, as it was before. An empty
 * `uid` (an object read without one) leaves `stored` as it is.
 * @param stored what {@link ExpectationStore.get} returned for the object's key
 * @param uid `metadata.uid` of the object the pass read
 */
export function ownExpectations(stored: Expectations, uid: string): Expectations {
  if (!uid) return stored;
  if (stored.ownerUid !== undefined && stored.ownerUid !== uid) return { ...noExpectations(), ownerUid: uid };
  return { ...stored, ownerUid: uid };
}

/**
 * `store` seen by the object of `uid`: `get` as {@link ownExpectations}, and every `put` stamps `ownerUid: uid`
 * whatever the caller built, so a pass's later reads can tell its writes from a same-named predecessor's. An empty
 * `uid` returns `store` itself.
 * @param store the state port (its errors pass through: StateStoreError, FencedOutError)
 * @param uid `metadata.uid` of the object the pass read
 */
export function ownedExpectationStore(store: ExpectationStore, uid: string): ExpectationStore {
  if (!uid) return store;
  return {
    get: async (key) => ownExpectations(await store.get(key), uid),
    put: (lease, expectations) => store.put(lease, { ...expectations, ownerUid: uid }),
  };
}
