/**
 * The per-CloneSet lease (DESIGN §2 step 1; ecosystem-notes §6.6): item `cs#<cluster>#<ns>#<name>` / `lease`
 * holding `holder`, `token` (monotonic fencing token), `expiresAt` (epoch ms), `dirty` and `ttl` (epoch s, GC
 * only). Single-item conditional UpdateItems only.
 *
 * A released lease keeps its item (with `expiresAt = 0`) so the token keeps counting up; deleting it would
 * restart tokens at 1 below the fences already stored on the bookkeeping items.
 */
import { z } from 'zod';
import { FencedOutError, StateStoreError } from './errors.js';
import { raiseFence } from './fence.js';
import { cloneSetKeyString, itemKey, SK, type CloneSetKey } from './keys.js';
import { decodeItem, gcTtl, type StateTable } from './table.js';

/** A lease held by one reconciler invocation (DESIGN §2 step 1). */
export interface Lease {
  key: CloneSetKey;
  /** Unique per invocation, e.g. the Lambda request id. */
  holder: string;
  /** Fencing token: strictly greater than every earlier token of this key. */
  token: number;
  /** End of the lease, epoch ms. */
  expiresAt: number;
}

/** Outcome of {@link LeaseStore.acquire}. */
export type AcquireResult =
  { acquired: true; lease: Lease } | { acquired: false; heldBy: string; /** epoch ms */ expiresAt: number };

/**
 * The lease port (DESIGN §2 step 1). Choose the duration longer than the function timeout plus a margin, so a
 * holder cannot outlive its lease without noticing (ecosystem-notes §6.6; assumes NTP-synced clocks).
 */
export interface LeaseStore {
  /**
   * Take the lease if it is free (never taken, released, or `expiresAt <= nowMs`) or already ours; the token
   * increments on every acquire and `dirty` is reset (the caller reads the world after this call). If the
   * previous lease was not released (a takeover), the `expectations` and `scaledown` fences are raised to the
   * new token, so the previous holder's later writes fail with FencedOutError.
   * If another live holder has it, set its `dirty` flag (so the holder re-runs before releasing) and return
   * `acquired: false`.
   * @param durationMs lease length in ms, > 0
   * @param nowMs the caller's clock, epoch ms
   * @throws StateStoreError on DynamoDB failures
   * @throws InvalidStateKeyError when the key has an empty part or a part containing `#`
   */
  acquire(key: CloneSetKey, holder: string, durationMs: number, nowMs: number): Promise<AcquireResult>;
  /**
   * Extend the lease to `nowMs + durationMs` (epoch ms).
   * @returns the lease with the new `expiresAt`
   * @throws FencedOutError if the lease was taken over (token or holder changed)
   * @throws StateStoreError on DynamoDB failures
   */
  renew(lease: Lease, durationMs: number, nowMs: number): Promise<Lease>;
  /**
   * Release only if `dirty` is false → `'released'`. If `dirty` is true: clear it (conditional on our token) and
   * return `'dirty'`: the caller must reconcile again before releasing, so no event is lost.
   * @throws FencedOutError if the lease was taken over
   * @throws StateStoreError on DynamoDB failures
   */
  release(lease: Lease): Promise<'released' | 'dirty'>;
}

/** `expiresAt` of a released lease: free for anyone, and distinguishable from an expired one. */
const RELEASED_AT = 0;
/** How often acquire retries when the lease is freed between its two writes. */
const MAX_ATTEMPTS = 5;

const LeaseItem = z.object({
  holder: z.string(),
  token: z.number().int(),
  expiresAt: z.number(),
  dirty: z.boolean().optional(),
});

const NAMES = {
  '#pk': 'pk',
  '#holder': 'holder',
  '#token': 'token',
  '#expiresAt': 'expiresAt',
  '#dirty': 'dirty',
  '#ttl': 'ttl',
};

function checkTiming(operation: string, durationMs: number, nowMs: number): void {
  if (!Number.isFinite(durationMs) || durationMs <= 0)
    throw new RangeError(`${operation}: durationMs must be a positive number of ms, got ${durationMs}`);
  if (!Number.isFinite(nowMs) || nowMs <= RELEASED_AT)
    throw new RangeError(`${operation}: nowMs must be a positive epoch ms, got ${nowMs}`);
}

/** {@link LeaseStore} on the state table. */
export class DynamoLeaseStore implements LeaseStore {
  constructor(private readonly table: StateTable) {}

  async acquire(key: CloneSetKey, holder: string, durationMs: number, nowMs: number): Promise<AcquireResult> {
    const op = 'lease.acquire';
    checkTiming(op, durationMs, nowMs);
    const pk = cloneSetKeyString(key);
    const expiresAt = nowMs + durationMs;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const taken = await this.table.update(
        op,
        pk,
        SK.lease,
        'SET #holder = :me, #expiresAt = :exp, #dirty = :false, #ttl = :ttl ADD #token :one',
        {
          condition: 'attribute_not_exists(#pk) OR #expiresAt <= :now OR #holder = :me',
          names: NAMES,
          values: {
            ':me': holder,
            ':exp': expiresAt,
            ':false': false,
            ':ttl': gcTtl(expiresAt),
            ':one': 1,
            ':now': nowMs,
          },
        },
        'ALL_OLD',
      );
      if (taken.ok) {
        const old = taken.attributes ? decodeItem(LeaseItem, taken.attributes, op, pk, SK.lease) : undefined;
        const token = (old?.token ?? 0) + 1;
        if (old === undefined || old.expiresAt !== RELEASED_AT) {
          const force = old === undefined;
          await Promise.all([
            raiseFence(this.table, op, pk, SK.expectations, token, force),
            raiseFence(this.table, op, pk, SK.scaledown, token, force),
          ]);
        }
        return { acquired: true, lease: { key: { ...key }, holder, token, expiresAt } };
      }
      const marked = await this.table.update(
        op,
        pk,
        SK.lease,
        'SET #dirty = :true',
        {
          condition: 'attribute_exists(#pk) AND #expiresAt > :now AND #holder <> :me',
          names: { '#pk': 'pk', '#expiresAt': 'expiresAt', '#holder': 'holder', '#dirty': 'dirty' },
          values: { ':true': true, ':now': nowMs, ':me': holder },
        },
        'ALL_NEW',
      );
      if (marked.ok && marked.attributes) {
        const cur = decodeItem(LeaseItem, marked.attributes, op, pk, SK.lease);
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
    checkTiming(op, durationMs, nowMs);
    const pk = cloneSetKeyString(lease.key);
    const expiresAt = nowMs + durationMs;
    const res = await this.table.update(op, pk, SK.lease, 'SET #expiresAt = :exp, #ttl = :ttl', {
      condition: '#holder = :me AND #token = :token',
      names: { '#holder': 'holder', '#token': 'token', '#expiresAt': 'expiresAt', '#ttl': 'ttl' },
      values: { ':me': lease.holder, ':token': lease.token, ':exp': expiresAt, ':ttl': gcTtl(expiresAt) },
    });
    if (!res.ok) throw new FencedOutError(op, itemKey(pk, SK.lease), lease.token, `holder ${lease.holder}`);
    return { ...lease, key: { ...lease.key }, expiresAt };
  }

  async release(lease: Lease): Promise<'released' | 'dirty'> {
    const op = 'lease.release';
    const pk = cloneSetKeyString(lease.key);
    const names = { '#holder': 'holder', '#token': 'token', '#dirty': 'dirty' };
    const released = await this.table.update(op, pk, SK.lease, 'SET #expiresAt = :released', {
      condition: '#holder = :me AND #token = :token AND #dirty = :false',
      names: { ...names, '#expiresAt': 'expiresAt' },
      values: { ':me': lease.holder, ':token': lease.token, ':false': false, ':released': RELEASED_AT },
    });
    if (released.ok) return 'released';
    const cleared = await this.table.update(op, pk, SK.lease, 'SET #dirty = :false', {
      condition: '#holder = :me AND #token = :token AND #dirty = :true',
      names,
      values: { ':me': lease.holder, ':token': lease.token, ':false': false, ':true': true },
    });
    if (cleared.ok) return 'dirty';
    throw new FencedOutError(op, itemKey(pk, SK.lease), lease.token, `holder ${lease.holder}`);
  }
}
