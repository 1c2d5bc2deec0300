/**
 * Watch-pump checkpoints on the state table: item `cluster#<name>` / `watch#<resource>` holding the resume
 * `resourceVersion` and the pump's own lease: `holder`, `token` (fencing token, +1 per acquire), `expiresAt`
 * (epoch ms; 0 once released) and `ttl` (epoch s, `expiresAt` + 1 day; GC only — losing the item only costs a
 * relist). The lease follows lib/state/leaseProtocol.ts through ./leaseItem.ts, like the object lease.
 */
import * as z from 'zod';
import { clusterKeyString, SK } from '../itemKeys.js';
import type { WatchCheckpoints } from '../ports.js';
import { lostLease, RELEASE_UPDATE, takeLease, updateIfOwned } from './leaseItem.js';
import { decodeItem, type StateTable } from './table.js';

const WatchItem = z.object({
  holder: z.string().optional(),
  token: z.number().int().optional(),
  expiresAt: z.number().optional(),
  resourceVersion: z.string().optional(),
});

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
    const pk = clusterKeyString(cluster);
    const sk = SK.watch(resource);
    const res = await takeLease(
      { table: this.table, operation: op, pk, sk },
      { holder, durationMs, nowMs, returnValues: 'ALL_NEW' },
    );
    if (res.ok && res.attributes) {
      const w = decodeItem(WatchItem, res.attributes, op, pk, sk);
      return {
        acquired: true,
        token: w.token ?? 1,
        ...(w.resourceVersion === undefined ? {} : { resourceVersion: w.resourceVersion }),
      };
    }
    // Held by another live pump: report its token (one read; the pump then waits and asks again).
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
    const at = { table: this.table, operation: op, pk, sk };
    const res = await updateIfOwned(
      at,
      { holder, token },
      {
        expression: 'SET #rv = :rv',
        names: { '#rv': 'resourceVersion' },
        values: { ':rv': resourceVersion },
      },
    );
    if (!res.ok) throw lostLease(at, { holder, token });
  }

  async release(cluster: string, resource: string, holder: string, token: number): Promise<void> {
    const op = 'watch.release';
    const pk = clusterKeyString(cluster);
    const sk = SK.watch(resource);
    const at = { table: this.table, operation: op, pk, sk };
    const res = await updateIfOwned(at, { holder, token }, RELEASE_UPDATE);
    if (!res.ok) throw lostLease(at, { holder, token });
  }
}
