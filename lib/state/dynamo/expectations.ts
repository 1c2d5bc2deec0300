/**
 * Durable expectations (docs/architecture.md#expectations): item `obj#<cluster>#<group>/<Kind>#<ns>#<name>` / `expectations` with the creates,
 * deletes and in-place updates this controller issued but has not yet observed, the retry delays it keeps
 * (`backoffs`, when any), whether the object may own PVCs (`ownsClaims`, when known), the UID of the object they were recorded for (`ownerUid`), plus `fence` (token of the last
 * writer) and `ttl` (epoch s, 1 day after the last write; GC only).
 */
import * as z from 'zod';
import { fencedPut } from './fence.js';
import { objectKeyString, SK } from '../itemKeys.js';
import type { ObjectKey } from '../../core/objectKey.js';
import type { BackoffEntry, ExpectationStore, Expectations, Lease, PendingOp } from '../ports.js';
import { decodeItem, type StateTable } from './table.js';

const PendingOpItem = z.object({
  name: z.string(),
  at: z.number(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
});
const ExpectationsItem = z.object({
  creates: z.array(PendingOpItem).optional(),
  deletes: z.array(PendingOpItem).optional(),
  updates: z.array(PendingOpItem).optional(),
  backoffs: z.array(z.object({ key: z.string(), delayMs: z.number(), at: z.number() })).optional(),
  ownsClaims: z.boolean().optional(),
  ownerUid: z.string().optional(),
});

function copyOps(ops: readonly PendingOp[]): PendingOp[] {
  return ops.map(({ name, at, uid, resourceVersion }) => ({
    name,
    at,
    ...(uid === undefined ? {} : { uid }),
    ...(resourceVersion === undefined ? {} : { resourceVersion }),
  }));
}

/** `{ backoffs }` when there are any, else nothing: an item without backoffs stays as it was before they existed. */
function copyBackoffs(entries: readonly BackoffEntry[] | undefined): { backoffs?: BackoffEntry[] } {
  return entries?.length ? { backoffs: entries.map(({ key, delayMs, at }) => ({ key, delayMs, at })) } : {};
}

/** `{ ownsClaims }` when known, else nothing (an item written before it was kept reads as not known). */
function copyOwnsClaims(ownsClaims: boolean | undefined): { ownsClaims?: boolean } {
  return ownsClaims === undefined ? {} : { ownsClaims };
}

/** `{ ownerUid }` when known, else nothing (lib/reconcile/pods/expectationsOwner.ts). */
function copyOwnerUid(ownerUid: string | undefined): { ownerUid?: string } {
  return ownerUid === undefined ? {} : { ownerUid };
}

/** {@link ExpectationStore} on the state table. */
export class DynamoExpectationStore implements ExpectationStore {
  constructor(private readonly table: StateTable) {}

  async get(key: ObjectKey): Promise<Expectations> {
    const op = 'expectations.get';
    const pk = objectKeyString(key);
    const item = await this.table.get(op, pk, SK.expectations);
    const e = item ? decodeItem(ExpectationsItem, item, op, pk, SK.expectations) : {};
    return {
      creates: copyOps(e.creates ?? []),
      deletes: copyOps(e.deletes ?? []),
      updates: copyOps(e.updates ?? []),
      ...copyBackoffs(e.backoffs),
      ...copyOwnsClaims(e.ownsClaims),
      ...copyOwnerUid(e.ownerUid),
    };
  }

  async put(lease: Lease, expectations: Expectations): Promise<void> {
    const pk = objectKeyString(lease.key);
    await fencedPut(
      { table: this.table, operation: 'expectations.put', pk, sk: SK.expectations },
      lease.token,
      {
        creates: copyOps(expectations.creates),
        deletes: copyOps(expectations.deletes),
        updates: copyOps(expectations.updates),
        ...copyBackoffs(expectations.backoffs),
        ...copyOwnsClaims(expectations.ownsClaims),
        ...copyOwnerUid(expectations.ownerUid),
      },
    );
  }
}
