/**
 * The lease protocol of lib/state/leaseProtocol.ts as DynamoDB conditional UpdateItems, for every lease item of
 * the table (`lease` of an object, `watch#<resource>` of a cluster): one take, one "still ours" write.
 */
import { FencedOutError } from '../errors.js';
import { itemKey } from '../itemKeys.js';
import { checkLeaseTiming, RELEASED_AT } from '../leaseProtocol.js';
import { gcTtl, type Item, type StateTable, type WriteResult } from './table.js';

/**
 * Take the lease item `pk`/`sk` for `holder` if it is free or already `holder`'s: set holder and `expiresAt`,
 * add 1 to `token`, refresh `ttl`, and apply `extraSet` (e.g. `#dirty = :false`).
 * @param returnValues `ALL_OLD` (to see whether the previous lease was released) or `ALL_NEW`
 * @returns the write result: `ok: false` when another live holder has the lease
 * @throws RangeError for a bad duration or clock; StateStoreError on DynamoDB failures
 */
export async function takeLease(
  table: StateTable,
  operation: string,
  pk: string,
  sk: string,
  holder: string,
  durationMs: number,
  nowMs: number,
  returnValues: 'ALL_OLD' | 'ALL_NEW',
  extraSet: { names: Record<string, string>; values: Item; set: string } = { names: {}, values: {}, set: '' },
): Promise<WriteResult> {
  checkLeaseTiming(operation, durationMs, nowMs);
  const expiresAt = nowMs + durationMs;
  return table.update(
    operation,
    pk,
    sk,
    `SET #holder = :me, #expiresAt = :exp, #ttl = :ttl${extraSet.set ? `, ${extraSet.set}` : ''} ADD #token :one`,
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
 * An UpdateItem on a lease item that succeeds only while `holder` still holds it with `token`.
 * @param update a `SET …` expression; its names and values are merged with the ownership condition's
 * @param extraCondition ANDed to the ownership condition (e.g. `#dirty = :false`)
 * @returns the write result (`ok: false` when not owned, or `extraCondition` failed)
 * @throws StateStoreError on DynamoDB failures
 */
export function updateIfOwned(
  table: StateTable,
  operation: string,
  pk: string,
  sk: string,
  holder: string,
  token: number,
  update: { expression: string; names?: Record<string, string>; values?: Item },
  extraCondition?: string,
): Promise<WriteResult> {
  return table.update(operation, pk, sk, update.expression, {
    condition: `#holder = :me AND #token = :token${extraCondition ? ` AND ${extraCondition}` : ''}`,
    names: { '#holder': 'holder', '#token': 'token', ...update.names },
    values: { ':me': holder, ':token': token, ...update.values },
  });
}

/** The error for a write by a holder that no longer owns the lease item. */
export function lostLease(
  operation: string,
  pk: string,
  sk: string,
  holder: string,
  token: number,
): FencedOutError {
  return new FencedOutError(operation, itemKey(pk, sk), token, `holder ${holder}`);
}

/** `SET #expiresAt = :released`: the release write of every lease. */
export const RELEASE_UPDATE = {
  expression: 'SET #expiresAt = :released',
  names: { '#expiresAt': 'expiresAt' },
  values: { ':released': RELEASED_AT },
};
