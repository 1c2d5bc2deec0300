/**
 * Durable expectations (DESIGN §2 step 3): item `cs#<cluster>#<ns>#<name>` / `expectations` with the creates,
 * deletes and in-place updates this controller issued but has not yet observed, plus `fence` (token of the last
 * writer) and `ttl` (epoch s, 1 day after the last write; GC only).
 */
import { z } from 'zod';
import { fencedPut } from './fence.js';
import { cloneSetKeyString, SK, type CloneSetKey } from './keys.js';
import type { Lease } from './leases.js';
import { decodeItem, type StateTable } from './table.js';

/** One issued but not yet observed write. */
export interface PendingOp {
  /** Pod (or PVC) name. */
  name: string;
  /** When the write was issued, epoch ms; expectations older than the timeout (5 min) are given up. */
  at: number;
  /** UID of the object, once known (deletes and in-place updates). */
  uid?: string;
  /** resourceVersion returned by the write: observed once the cache is at least this new (in-place updates). */
  resourceVersion?: string;
}

/** All pending writes of one CloneSet (DESIGN §2 step 3), in the order the caller stored them. */
export interface Expectations {
  creates: PendingOp[];
  deletes: PendingOp[];
  updates: PendingOp[];
}

/** The expectations port (DESIGN §2 step 3). */
export interface ExpectationStore {
  /**
   * Strongly consistent read.
   * @returns the stored expectations; empty lists when the item (or a list) is absent
   * @throws StateStoreError on DynamoDB failures or a malformed stored item
   */
  get(key: CloneSetKey): Promise<Expectations>;
  /**
   * Replace the whole expectations item, conditioned on fence: stored fence absent or <= `lease.token` (then
   * stores `lease.token`). Record expectations *before* each cluster write (DESIGN §2 step 6).
   * @throws FencedOutError when a newer lease holder wrote (or took over) the item
   * @throws StateStoreError on DynamoDB failures
   */
  put(lease: Lease, expectations: Expectations): Promise<void>;
}

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
});

function copyOps(ops: readonly PendingOp[]): PendingOp[] {
  return ops.map(({ name, at, uid, resourceVersion }) => ({
    name,
    at,
    ...(uid === undefined ? {} : { uid }),
    ...(resourceVersion === undefined ? {} : { resourceVersion }),
  }));
}

/** {@link ExpectationStore} on the state table. */
export class DynamoExpectationStore implements ExpectationStore {
  constructor(private readonly table: StateTable) {}

  async get(key: CloneSetKey): Promise<Expectations> {
    const op = 'expectations.get';
    const pk = cloneSetKeyString(key);
    const item = await this.table.get(op, pk, SK.expectations);
    const e = item ? decodeItem(ExpectationsItem, item, op, pk, SK.expectations) : {};
    return {
      creates: copyOps(e.creates ?? []),
      deletes: copyOps(e.deletes ?? []),
      updates: copyOps(e.updates ?? []),
    };
  }

  async put(lease: Lease, expectations: Expectations): Promise<void> {
    const pk = cloneSetKeyString(lease.key);
    await fencedPut(this.table, 'expectations.put', pk, SK.expectations, lease.token, {
      creates: copyOps(expectations.creates),
      deletes: copyOps(expectations.deletes),
      updates: copyOps(expectations.updates),
    });
  }
}
