/**
 * The per-object lease on the state table: item `obj#<cluster>#<group>/<Kind>#<ns>#<name>` / `lease` holding `holder`, `token`
 * (monotonic fencing token), `expiresAt` (epoch ms), `dirty`, `failures` (consecutive failed passes, written by a
 * release, docs/reliability.md#backoff), `eventCorrelation` (the holder's Event correlation state as opaque text,
 * written by a release, docs/reliability.md#event-folding), `listFloors` (the holder's LIST floors as opaque text,
 * written by a release, docs/architecture.md#list-floors), `markRv` / `markQuorum` / `markObjRv` (what the dirty flag's
 * marks ask of the holder's next reads, lib/state/leaseProtocol.ts; cleared with the flag) and `ttl` (epoch s, GC only). Single-item conditional
 * UpdateItems only; the protocol is lib/state/leaseProtocol.ts, written as DynamoDB expressions in ./leaseItem.ts.
 *
 * A released lease keeps its item (with `expiresAt = 0`) so the token keeps counting up; deleting it would
 * restart tokens at 1 below the fences already stored on the bookkeeping items.
 */
import * as z from 'zod';
import type { ObjectKey } from '../../core/objectKey.js';
import { StateStoreError } from '../errors.js';
import { objectKeyString, itemKey, SK } from '../itemKeys.js';
import {
  checkFailures,
  checkLeaseTiming,
  marksOf,
  RELEASED_AT,
  storedMarkVersion,
  storedObjectMarkVersion,
} from '../leaseProtocol.js';
import type { AcquireResult, DirtyMark, DirtyMarks, Lease, LeaseStore, ReleaseOptions } from '../ports.js';
import { raiseFence } from './fence.js';
import { lostLease, RELEASE_UPDATE, takeLease, updateIfOwned } from './leaseItem.js';
import type { ItemWrite } from './itemWrite.js';
import { decodeItem, gcTtl, type Item, type StateTable } from './table.js';

/** How often acquire retries when the lease is freed between its two writes. */
const MAX_ATTEMPTS = 5;

const LeaseItem = z.object({
  holder: z.string(),
  token: z.number().int(),
  expiresAt: z.number(),
  dirty: z.boolean().optional(),
  failures: z.number().int().nonnegative().optional(),
  eventCorrelation: z.string().optional(),
  listFloors: z.string().optional(),
  markRv: z.string().optional(),
  markQuorum: z.boolean().optional(),
  markObjRv: z.string().optional(),
});

/**
 * The marks' attributes (lib/state/leaseProtocol.ts `storedMarkVersion`, `storedObjectMarkVersion`), removed whenever
 * the flag is cleared.
 */
const MARK_NAMES = { '#markRv': 'markRv', '#markQuorum': 'markQuorum', '#markObjRv': 'markObjRv' };
const MARKS_REMOVED = '#markRv, #markQuorum, #markObjRv';
/** What a {@link LeaseStore.takeDirty} clears besides the flag: the marks alone (the floors stay as the item has them). */
const MARKS_ONLY = { set: '', remove: ` REMOVE ${MARKS_REMOVED}`, names: MARK_NAMES, values: {} };

/** An update expression's parts: ` , #a = :a` for its SET clause, ` REMOVE #b` after it, and their names and values. */
interface UpdateParts {
  set: string;
  remove: string;
  names: Record<string, string>;
  values: Item;
}

/**
 * What a release stores besides the release itself, riding on whichever of its two writes succeeds (no extra
 * DynamoDB operation): the failure count, the Event correlation text ({@link ReleaseOptions.eventCorrelation}) and the
 * LIST floors ({@link ReleaseOptions.listFloors}: set when given, else removed).
 */
function carriedParts(
  failures: number | undefined,
  eventCorrelation: string | null | undefined,
  listFloors: string | undefined,
): UpdateParts {
  const parts: UpdateParts = { set: '', remove: '', names: {}, values: {} };
  if (failures !== undefined) {
    parts.set += ', #failures = :failures';
    parts.names['#failures'] = 'failures';
    parts.values[':failures'] = failures;
  }
  // every write that clears the flag clears its marks (a release, a cleared flag)
  const removed: string[] = [MARKS_REMOVED];
  Object.assign(parts.names, MARK_NAMES);
  if (eventCorrelation === null) {
    removed.push('#eventCorrelation');
    parts.names['#eventCorrelation'] = 'eventCorrelation';
  } else if (eventCorrelation !== undefined) {
    parts.set += ', #eventCorrelation = :eventCorrelation';
    parts.names['#eventCorrelation'] = 'eventCorrelation';
    parts.values[':eventCorrelation'] = eventCorrelation;
  }
  parts.names['#listFloors'] = 'listFloors';
  if (listFloors === undefined) removed.push('#listFloors');
  else {
    parts.set += ', #listFloors = :listFloors';
    parts.values[':listFloors'] = listFloors;
  }
  parts.remove = ` REMOVE ${removed.join(', ')}`;
  return parts;
}

/**
 * Clears the lease's dirty flag and its marks while `lease` still holds it and the flag is set, with `carried` in the
 * same write: the second step of a release, and a {@link LeaseStore.takeDirty} that found the flag set.
 * @returns the marks it cleared, or `undefined` when not owned or not dirty
 * @throws StateStoreError on DynamoDB failures
 */
async function clearDirtyIfOwned(
  at: ItemWrite,
  lease: Lease,
  carried: UpdateParts,
): Promise<DirtyMarks | undefined> {
  const cleared = await updateIfOwned(
    at,
    lease,
    {
      expression: 'SET #dirty = :false' + carried.set + carried.remove,
      names: { '#dirty': 'dirty', ...carried.names },
      values: { ':false': false, ':true': true, ...carried.values },
    },
    '#dirty = :true',
    'ALL_OLD',
  );
  if (!cleared.ok) return undefined;
  const old = cleared.attributes
    ? decodeItem(LeaseItem, cleared.attributes, at.operation, at.pk, at.sk)
    : undefined;
  return marksOf(old?.markQuorum, old?.markRv, old?.markObjRv);
}

/**
 * Sets the dirty flag of a lease another live holder has, folding `mark` into its marks (lib/state/leaseProtocol.ts):
 * a `quorum` mark (or one whose resourceVersion is not decimal) sets `markQuorum`; a resourceVersion replaces an
 * older stored one, and where a newer one is stored already (or the write raced a clear) a second write keeps
 * whichever is there; `none` stores zeros unless something is stored; an object mark does what `none` does to
 * `markRv` and keeps the newest of its resourceVersions in `markObjRv` the same way.
 * @returns the item after the mark, or `undefined` when the lease was free by then (the caller takes it)
 * @throws StateStoreError on DynamoDB failures
 */
async function markHeld(
  table: StateTable,
  op: string,
  pk: string,
  holder: string,
  nowMs: number,
  mark: DirtyMark,
): Promise<Item | undefined> {
  const base = {
    condition: 'attribute_exists(#pk) AND #expiresAt > :now AND #holder <> :me',
    names: { '#pk': 'pk', '#expiresAt': 'expiresAt', '#holder': 'holder', '#dirty': 'dirty' },
    values: { ':true': true, ':now': nowMs, ':me': holder },
  };
  const stored = mark === 'quorum' ? undefined : storedMarkVersion(mark);
  const write = (update: string, names: Record<string, string>, values: Item, also = '') =>
    table.update(
      op,
      pk,
      SK.lease,
      update,
      {
        condition: base.condition + also,
        names: { ...base.names, ...names },
        values: { ...base.values, ...values },
      },
      'ALL_NEW',
    );
  if (stored === undefined) {
    const marked = await write(
      'SET #dirty = :true, #markQuorum = :true',
      { '#markQuorum': 'markQuorum' },
      {},
    );
    return marked.ok ? marked.attributes : undefined;
  }
  /**
   * One attribute of the marks (`#markRv` or `#markObjRv`) raised to `value` where it is older or absent, else kept
   * as stored (a newer one is there, or the write raced a clear); `raise: false` only keeps. An object mark also
   * sets `#markRv` to `stored` — its zeros, a mark that asks nothing of the LISTs — unless one is stored.
   */
  const raiseOrKeep = async (attr: '#markRv' | '#markObjRv', value: string, raise: boolean) => {
    const object = attr === '#markObjRv';
    // DynamoDB refuses a name or value the expression does not use
    const names = { [attr]: attr.slice(1), ...(object ? { '#markRv': 'markRv' } : {}) };
    const values = { ':v': value, ...(object ? { ':rv': stored } : {}) };
    const zeros = object ? ', #markRv = if_not_exists(#markRv, :rv)' : '';
    if (raise) {
      const raised = await write(
        `SET #dirty = :true${zeros}, ${attr} = :v`,
        names,
        values,
        ` AND (attribute_not_exists(${attr}) OR ${attr} < :v)`,
      );
      if (raised.ok) return raised.attributes;
    }
    const kept = await write(
      `SET #dirty = :true${zeros}, ${attr} = if_not_exists(${attr}, :v)`,
      names,
      values,
    );
    return kept.ok ? kept.attributes : undefined;
  };
  const storedObject = storedObjectMarkVersion(mark);
  if (storedObject !== undefined) return raiseOrKeep('#markObjRv', storedObject, true);
  return raiseOrKeep('#markRv', stored, mark !== 'none');
}

/** {@link LeaseStore} on the state table. */
export class DynamoLeaseStore implements LeaseStore {
  constructor(private readonly table: StateTable) {}

  async acquire(
    key: ObjectKey,
    holder: string,
    durationMs: number,
    nowMs: number,
    mark: DirtyMark = 'quorum',
  ): Promise<AcquireResult> {
    const op = 'lease.acquire';
    checkLeaseTiming(op, durationMs, nowMs);
    const pk = objectKeyString(key);
    const expiresAt = nowMs + durationMs;
    const at = { table: this.table, operation: op, pk, sk: SK.lease };
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const taken = await takeLease(at, {
        holder,
        durationMs,
        nowMs,
        returnValues: 'ALL_OLD',
        extraSet: {
          set: '#dirty = :false',
          remove: MARKS_REMOVED,
          names: { '#dirty': 'dirty', ...MARK_NAMES },
          values: { ':false': false },
        },
      });
      if (taken.ok) {
        const old = taken.attributes ? decodeItem(LeaseItem, taken.attributes, op, pk, SK.lease) : undefined;
        const token = (old?.token ?? 0) + 1;
        if (old === undefined || old.expiresAt !== RELEASED_AT) {
          const force = old === undefined;
          await Promise.all([
            raiseFence({ ...at, sk: SK.expectations }, token, { force }),
            raiseFence({ ...at, sk: SK.scaledown }, token, { force }),
          ]);
        }
        return {
          acquired: true,
          lease: { key: { ...key }, holder, token, expiresAt },
          failures: old?.failures ?? 0,
          ...(old?.eventCorrelation === undefined ? {} : { eventCorrelation: old.eventCorrelation }),
          // floors only from a release: after a takeover the dead holder may have seen more than was stored
          ...(old?.listFloors === undefined || old.expiresAt !== RELEASED_AT
            ? {}
            : { listFloors: old.listFloors }),
        };
      }
      const marked = await markHeld(this.table, op, pk, holder, nowMs, mark);
      if (marked) {
        const cur = decodeItem(LeaseItem, marked, op, pk, SK.lease);
        return { acquired: false, heldBy: cur.holder, expiresAt: cur.expiresAt };
      }
      // The holder released (or its lease expired) between the two writes: try to take it again.
    }
    throw new StateStoreError(
      op,
      itemKey(pk, SK.lease),
      undefined,
      `the lease changed hands ${MAX_ATTEMPTS} times during one acquire`,
    );
  }

  async renew(lease: Lease, durationMs: number, nowMs: number): Promise<Lease> {
    const op = 'lease.renew';
    checkLeaseTiming(op, durationMs, nowMs);
    const pk = objectKeyString(lease.key);
    const expiresAt = nowMs + durationMs;
    const at = { table: this.table, operation: op, pk, sk: SK.lease };
    // `<> :released`: a released lease is free for anyone (its holder has returned); a late renew must not make it
    // live again. An expired lease nobody took is still its holder's (the token did not move), so it may be renewed.
    const res = await updateIfOwned(
      at,
      lease,
      {
        expression: 'SET #expiresAt = :exp, #ttl = :ttl',
        names: { '#expiresAt': 'expiresAt', '#ttl': 'ttl' },
        values: { ':exp': expiresAt, ':ttl': gcTtl(expiresAt), ':released': RELEASED_AT },
      },
      '#expiresAt <> :released',
    );
    if (!res.ok) throw lostLease(at, lease);
    return { ...lease, key: { ...lease.key }, expiresAt };
  }

  async release(lease: Lease, failures?: number, options?: ReleaseOptions): Promise<'released' | 'dirty'> {
    const op = 'lease.release';
    if (failures !== undefined) checkFailures(op, failures);
    const pk = objectKeyString(lease.key);
    const dirty = { '#dirty': 'dirty' };
    const count = carriedParts(failures, options?.eventCorrelation, options?.listFloors);
    const at = { table: this.table, operation: op, pk, sk: SK.lease };
    // a requeue is arranged: one write, whatever the dirty flag says (and clearing it)
    const released = await updateIfOwned(
      at,
      lease,
      {
        expression:
          RELEASE_UPDATE.expression +
          (options?.requeued ? ', #dirty = :false' : '') +
          count.set +
          count.remove,
        names: { ...RELEASE_UPDATE.names, ...dirty, ...count.names },
        values: { ...RELEASE_UPDATE.values, ':false': false, ...count.values },
      },
      options?.requeued ? undefined : '#dirty = :false',
    );
    if (released.ok) return 'released';
    if (options?.requeued) throw lostLease(at, lease);
    // the second step of the release protocol, taken only when the first found the dirty flag set
    // (docs/architecture.md#lib-state)
    const cleared = await clearDirtyIfOwned(at, lease, count);
    if (cleared === undefined) throw lostLease(at, lease);
    options?.onMarks?.(cleared);
    return 'dirty';
  }

  async takeDirty(lease: Lease): Promise<DirtyMarks | false> {
    const op = 'lease.takeDirty';
    const pk = objectKeyString(lease.key);
    const at = { table: this.table, operation: op, pk, sk: SK.lease };
    // a read first: a poll that finds nothing costs one read unit, no write
    const raw = await this.table.get(op, pk, SK.lease);
    const cur = raw ? decodeItem(LeaseItem, raw, op, pk, SK.lease) : undefined;
    if (!cur || cur.holder !== lease.holder || cur.token !== lease.token) throw lostLease(at, lease);
    if (!cur.dirty) return false;
    const cleared = await clearDirtyIfOwned(at, lease, MARKS_ONLY);
    // only the holder clears the flag: a refused clear means the lease changed hands since the read
    if (cleared !== undefined) return cleared;
    throw lostLease(at, lease);
  }
}
