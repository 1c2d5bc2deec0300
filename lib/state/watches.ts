/**
 * Watch-pump checkpoints (DESIGN §1 (A), §3): item `cluster#<name>` / `watch#<resource>` holding the resume
 * `resourceVersion` and the pump's own lease: `holder`, `token` (fencing token, +1 per acquire), `expiresAt`
 * (epoch ms; 0 once released) and `ttl` (epoch s, `expiresAt` + 1 day; GC only — losing the item only costs a
 * relist).
 */
import { z } from 'zod';
import { FencedOutError } from './errors.js';
import { clusterKeyString, itemKey, SK } from './keys.js';
import { decodeItem, gcTtl, type StateTable } from './table.js';

/** The watch checkpoint port (DESIGN §1 (A), §3). `resource` is e.g. `pods` or `clonesets`, never with `#`. */
export interface WatchCheckpoints {
  /**
   * Take the pump lease of (`cluster`, `resource`) if free (never taken, released, or `expiresAt <= nowMs`) or
   * already ours.
   * @param durationMs lease length in ms, > 0
   * @param nowMs the caller's clock, epoch ms
   * @returns `acquired: true` with the new fencing token and the stored resume resourceVersion (if any);
   *   `acquired: false` with the current holder's token (and no resourceVersion) when another live pump has it
   * @throws InvalidStateKeyError when the cluster or resource is empty or contains `#`
   * @throws StateStoreError on DynamoDB failures
   */
  acquire(
    cluster: string,
    resource: string,
    holder: string,
    durationMs: number,
    nowMs: number,
  ): Promise<{ acquired: boolean; token: number; resourceVersion?: string }>;
  /**
   * Store the resume resourceVersion.
   * @throws FencedOutError when `holder`/`token` no longer own the pump lease
   * @throws StateStoreError on DynamoDB failures
   */
  save(
    cluster: string,
    resource: string,
    holder: string,
    token: number,
    resourceVersion: string,
  ): Promise<void>;
  /**
   * Release the pump lease (the resourceVersion stays).
   * @throws FencedOutError when `holder`/`token` no longer own the pump lease
   * @throws StateStoreError on DynamoDB failures
   */
  release(cluster: string, resource: string, holder: string, token: number): Promise<void>;
}

const WatchItem = z.object({
  holder: z.string().optional(),
  token: z.number().int().optional(),
  expiresAt: z.number().optional(),
  resourceVersion: z.string().optional(),
});

const NAMES = {
  '#pk': 'pk',
  '#holder': 'holder',
  '#token': 'token',
  '#expiresAt': 'expiresAt',
  '#ttl': 'ttl',
};

/** {@link WatchCheckpoints} on the state table. */
export class DynamoWatchCheckpoints implements WatchCheckpoints {
  constructor(private readonly table: StateTable) {}

  async acquire(
    cluster: string,
    resource: string,
    holder: string,
    durationMs: number,
    nowMs: number,
  ): Promise<{ acquired: boolean; token: number; resourceVersion?: string }> {
    const op = 'watch.acquire';
    if (!Number.isFinite(durationMs) || durationMs <= 0)
      throw new RangeError(`${op}: durationMs must be a positive number of ms, got ${durationMs}`);
    const pk = clusterKeyString(cluster);
    const sk = SK.watch(resource);
    const expiresAt = nowMs + durationMs;
    const res = await this.table.update(
      op,
      pk,
      sk,
      'SET #holder = :me, #expiresAt = :exp, #ttl = :ttl ADD #token :one',
      {
        condition: 'attribute_not_exists(#pk) OR #expiresAt <= :now OR #holder = :me',
        names: NAMES,
        values: { ':me': holder, ':exp': expiresAt, ':ttl': gcTtl(expiresAt), ':one': 1, ':now': nowMs },
      },
      'ALL_NEW',
    );
    if (res.ok && res.attributes) {
      const w = decodeItem(WatchItem, res.attributes, op, pk, sk);
      return {
        acquired: true,
        token: w.token ?? 1,
        ...(w.resourceVersion === undefined ? {} : { resourceVersion: w.resourceVersion }),
      };
    }
    // Held by another live pump: report its token (one read; the pump then simply exits).
    const item = await this.table.get(op, pk, sk);
    const cur = item ? decodeItem(WatchItem, item, op, pk, sk) : undefined;
    return { acquired: false, token: cur?.token ?? 0 };
  }

  async save(
    cluster: string,
    resource: string,
    holder: string,
    token: number,
    resourceVersion: string,
  ): Promise<void> {
    const op = 'watch.save';
    const pk = clusterKeyString(cluster);
    const sk = SK.watch(resource);
    const res = await this.table.update(op, pk, sk, 'SET #rv = :rv', {
      condition: '#holder = :me AND #token = :token',
      names: { '#holder': 'holder', '#token': 'token', '#rv': 'resourceVersion' },
      values: { ':me': holder, ':token': token, ':rv': resourceVersion },
    });
    if (!res.ok) throw new FencedOutError(op, itemKey(pk, sk), token, `holder ${holder}`);
  }

  async release(cluster: string, resource: string, holder: string, token: number): Promise<void> {
    const op = 'watch.release';
    const pk = clusterKeyString(cluster);
    const sk = SK.watch(resource);
    const res = await this.table.update(op, pk, sk, 'SET #expiresAt = :released', {
      condition: '#holder = :me AND #token = :token',
      names: { '#holder': 'holder', '#token': 'token', '#expiresAt': 'expiresAt' },
      values: { ':me': holder, ':token': token, ':released': 0 },
    });
    if (!res.ok) throw new FencedOutError(op, itemKey(pk, sk), token, `holder ${holder}`);
  }
}
