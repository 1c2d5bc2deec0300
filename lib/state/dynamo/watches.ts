/**
 * Watch-pump checkpoints on the state table: item `cluster#<name>` / `watches` holding the pump's lease of the
 * cluster — `holder`, `token` (fencing token, +1 per acquire), `expiresAt` (epoch ms; 0 once released) and `ttl`
 * (epoch s, `expiresAt` + 1 day; GC only — losing the item only costs a relist) — and `resumePoints`, a map of each
 * stream's resume resourceVersion. The lease follows lib/state/leaseProtocol.ts through ./leaseItem.ts, like the
 * object lease. Items `watch#<resource>` are the one-per-stream checkpoints of earlier versions, read only by
 * {@link DynamoWatchCheckpoints.legacyResumePoint}.
 */
import * as z from 'zod';
import { clusterKeyString, SK } from '../itemKeys.js';
import type { ResumePoints, WatchCheckpoints } from '../ports.js';
import { lostLease, RELEASE_UPDATE, takeLease, updateIfOwned } from './leaseItem.js';
import { decodeItem, type StateTable } from './table.js';

const ClusterWatchItem = z.object({
  holder: z.string().optional(),
  token: z.number().int().optional(),
  expiresAt: z.number().optional(),
  resumePoints: z.record(z.string(), z.string()).optional(),
});

const LegacyWatchItem = z.object({ resourceVersion: z.string().optional() });

/** The clause (for a `SET`) storing the resume points, with its names and values: a save's, and a release's too. */
function storePoints(resumePoints: ResumePoints) {
  return {
    clause: '#resumePoints = :resumePoints',
    names: { '#resumePoints': 'resumePoints' },
    values: { ':resumePoints': { ...resumePoints } },
  };
}

/** {@link WatchCheckpoints} on the state table. */
export class DynamoWatchCheckpoints implements WatchCheckpoints {
  constructor(private readonly table: StateTable) {}

  async acquire(
    cluster: string,
    holder: string,
    durationMs: number,
    nowMs: number,
  ): Promise<{ acquired: boolean; token: number; resumePoints?: ResumePoints }> {
    const op = 'watch.acquire';
    const pk = clusterKeyString(cluster);
    const sk = SK.watches;
    const res = await takeLease(
      { table: this.table, operation: op, pk, sk },
      { holder, durationMs, nowMs, returnValues: 'ALL_NEW' },
    );
    if (res.ok && res.attributes) {
      const w = decodeItem(ClusterWatchItem, res.attributes, op, pk, sk);
      return {
        acquired: true,
        token: w.token ?? 1,
        ...(w.resumePoints === undefined ? {} : { resumePoints: w.resumePoints }),
      };
    }
    // Held by another live pump: report its token (one read; the pump then waits and asks again).
    const item = await this.table.get(op, pk, sk);
    const cur = item ? decodeItem(ClusterWatchItem, item, op, pk, sk) : undefined;
    return { acquired: false, token: cur?.token ?? 0 };
  }

  async save(cluster: string, holder: string, token: number, resumePoints: ResumePoints): Promise<void> {
    const op = 'watch.save';
    const at = { table: this.table, operation: op, pk: clusterKeyString(cluster), sk: SK.watches };
    const { clause, names, values } = storePoints(resumePoints);
    const res = await updateIfOwned(at, { holder, token }, { expression: `SET ${clause}`, names, values });
    if (!res.ok) throw lostLease(at, { holder, token });
  }

  async release(cluster: string, holder: string, token: number, resumePoints?: ResumePoints): Promise<void> {
    const op = 'watch.release';
    const at = { table: this.table, operation: op, pk: clusterKeyString(cluster), sk: SK.watches };
    const store = resumePoints === undefined ? undefined : storePoints(resumePoints);
    const update = store
      ? {
          expression: `${RELEASE_UPDATE.expression}, ${store.clause}`,
          names: { ...RELEASE_UPDATE.names, ...store.names },
          values: { ...RELEASE_UPDATE.values, ...store.values },
        }
      : RELEASE_UPDATE;
    const res = await updateIfOwned(at, { holder, token }, update);
    if (!res.ok) throw lostLease(at, { holder, token });
  }

  async legacyResumePoint(cluster: string, resource: string): Promise<string | undefined> {
    const op = 'watch.legacy';
    const pk = clusterKeyString(cluster);
    const sk = SK.watch(resource);
    const item = await this.table.get(op, pk, sk);
    return item ? decodeItem(LegacyWatchItem, item, op, pk, sk).resourceVersion : undefined;
  }
}
