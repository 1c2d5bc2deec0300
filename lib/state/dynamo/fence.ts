/**
 * Fencing of the bookkeeping items `expectations` and `scaledown` (docs/architecture.md#lease: every write of a
 * holder is conditioned on its token). Each such item stores `fence`, the lease token of its last writer; a
 * write is accepted only when the stored fence is absent or not greater than the writer's token.
 */
import { FencedOutError } from '../errors.js';
import { itemKey } from '../itemKeys.js';
import type { ItemWrite } from './itemWrite.js';
import { gcTtl, type Item } from './table.js';

/** Condition of every fenced write; uses `#fence` and `:token`. */
export const FENCE_CONDITION = 'attribute_not_exists(#fence) OR #fence <= :token';

/**
 * Replaces bookkeeping item `at` with `attrs` if the writer's token is not fenced out; stores `fence = token` and
 * `ttl = now + 1 day` (epoch s).
 * @param token the writer's lease token
 * @throws FencedOutError when the stored fence is greater than `token`
 * @throws StateStoreError on any other DynamoDB failure
 */
export async function fencedPut(at: ItemWrite, token: number, attrs: Item): Promise<void> {
  const { table, operation, pk, sk } = at;
  const ok = await table.put(
    operation,
    pk,
    sk,
    { ...attrs, fence: token, ttl: gcTtl(table.clock()) },
    { condition: FENCE_CONDITION, names: { '#fence': 'fence' }, values: { ':token': token } },
  );
  if (!ok)
    throw new FencedOutError(operation, itemKey(pk, sk), token, 'a newer lease holder wrote this item');
}

/**
 * Raises `fence` of bookkeeping item `at` to `token`, keeping its content (creating a content-less item if
 * absent). Called right after a lease takeover so that the previous holder's later writes fail even before the new
 * holder writes anything itself. A condition failure (a still newer token is stored) is not an error.
 * @param token the new holder's lease token
 * @param opts.force overwrite whatever fence is stored: used when the lease item itself was absent (first acquire,
 *   or the lease item was garbage-collected and its token restarted at 1), so a stale higher fence cannot lock the
 *   new holder out
 * @throws StateStoreError on any DynamoDB failure other than the condition
 */
export async function raiseFence(at: ItemWrite, token: number, opts: { force: boolean }): Promise<void> {
  const { table, operation, pk, sk } = at;
  const { force } = opts;
  await table.update(operation, pk, sk, 'SET #fence = :token, #ttl = :ttl', {
    condition: force ? undefined : 'attribute_not_exists(#fence) OR #fence < :token',
    names: { '#fence': 'fence', '#ttl': 'ttl' },
    values: { ':token': token, ':ttl': gcTtl(table.clock()) },
  });
}
