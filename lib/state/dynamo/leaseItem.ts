/**
 * The lease protocol of lib/state/leaseProtocol.ts as DynamoDB conditional UpdateItems, for every lease item of
 * the table (`lease` of an object, `watches` of a cluster): one take, one "still ours" write.
 */
import { FencedOutError } from '../errors.js';
import { itemKey } from '../itemKeys.js';
import { checkLeaseTiming, RELEASED_AT } from '../leaseProtocol.js';
import type { ItemWrite } from './itemWrite.js';
import { gcTtl, type Item, type WriteResult } from './table.js';

/** Who holds a lease item: the invocation's holder id and the fencing token it took the lease with. */
export interface LeaseOwner {
  holder: string;
  token: number;
}

/** A take of a lease item by {@link takeLease}. */
export interface LeaseTake {
  /** The invocation taking the lease, e.g. the Lambda request id. */
  holder: string;
  /** How long the lease lasts from `nowMs`, ms (> 0). */
  durationMs: number;
  /** The invocation's clock, epoch ms. */
  nowMs: number;
  /** `ALL_OLD` (to see whether the previous lease was released) or `ALL_NEW`. */
  returnValues: 'ALL_OLD' | 'ALL_NEW';
  /**
   * More of the same `SET`, e.g. `#dirty = :false` with its names and values, and attributes to `REMOVE` (names
   * joined by `, `, e.g. `#markRv`).
   */
  extraSet?: { names: Record<string, string>; values: Item; set: string; remove?: string };
}

/**
 * Take lease item `at` for `take.holder` if it is free or already that holder's: set holder and `expiresAt`,
 * add 1 to `token`, refresh `ttl`, and apply `take.extraSet`.
 * @returns the write result: `ok: false` when another live holder has the lease
 * @throws RangeError for a bad duration or clock; StateStoreError on DynamoDB failures
 */
export async function takeLease(at: ItemWrite, take: LeaseTake): Promise<WriteResult> {
  const { table, operation, pk, sk } = at;
  const { holder, durationMs, nowMs, returnValues } = take;
  const extraSet = take.extraSet ?? { names: {}, values: {}, set: '' };
  checkLeaseTiming(operation, durationMs, nowMs);
  const expiresAt = nowMs + durationMs;
  return table.update(
    operation,
    pk,
    sk,
    `SET #holder = :me, #expiresAt = :exp, #ttl = :ttl${extraSet.set ? `, ${extraSet.set}` : ''}` +
      `${extraSet.remove ? ` REMOVE ${extraSet.remove}` : ''} ADD #token :one`,
    {
      condition: 'attribute_not_exists(#pk) OR #expiresAt <= :now OR #holder = :me',
      names: {
        '#pk': 'pk',
        '#holder': 'holder',
        '#token': 'token',
        '#expiresAt': 'expiresAt',
        '#ttl': 'ttl',
        ...extraSet.names,
      },
      values: {
        ':me': holder,
        ':exp': expiresAt,
        ':ttl': gcTtl(expiresAt),
        ':one': 1,
        ':now': nowMs,
        ...extraSet.values,
      },
    },
    returnValues,
  );
}

/**
 * An UpdateItem on lease item `at` that succeeds only while `owner` still holds it (same holder, same token).
 * @param owner e.g. the `Lease` being renewed or released (only `holder` and `token` are read)
 * @param update a `SET …` expression; its names and values are merged with the ownership condition's
 * @param extraCondition ANDed to the ownership condition (e.g. `#dirty = :false`)
 * @param returnValues `ALL_OLD` to get the item as it was before the update (none by default)
 * @returns the write result (`ok: false` when not owned, or `extraCondition` failed)
 * @throws StateStoreError on DynamoDB failures
 */
export function updateIfOwned(
  at: ItemWrite,
  owner: LeaseOwner,
  update: { expression: string; names?: Record<string, string>; values?: Item },
  extraCondition?: string,
  returnValues?: 'ALL_OLD',
): Promise<WriteResult> {
  return at.table.update(
    at.operation,
    at.pk,
    at.sk,
    update.expression,
    {
      condition: `#holder = :me AND #token = :token${extraCondition ? ` AND ${extraCondition}` : ''}`,
      names: { '#holder': 'holder', '#token': 'token', ...update.names },
      values: { ':me': owner.holder, ':token': owner.token, ...update.values },
    },
    returnValues,
  );
}

/** The error for a write to lease item `at` by an `owner` that no longer holds it. */
export function lostLease(at: ItemWrite, owner: LeaseOwner): FencedOutError {
  return new FencedOutError(at.operation, itemKey(at.pk, at.sk), owner.token, `holder ${owner.holder}`);
}

/** `SET #expiresAt = :released`: the release write of every lease. */
export const RELEASE_UPDATE = {
  expression: 'SET #expiresAt = :released',
  names: { '#expiresAt': 'expiresAt' },
  values: { ':released': RELEASED_AT },
};
