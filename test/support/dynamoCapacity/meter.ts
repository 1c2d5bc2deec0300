/**
 * Per-second accounting of DynamoDB capacity by item and by partition key, over a clock the caller gives (real or
 * simulated). Test-only, pure: ./middleware.ts charges it for every request (docs/reliability.md#dynamodb-capacity).
 *
 * A request is admitted when the units consumed in the last second (the window `(now − 1000 ms, now]`) by its item,
 * and by its partition key, plus its own units stay within the limit (./units.ts: 1,000 WCU and 3,000 RCU); a
 * refused request consumes nothing, as a throttled one costs nothing in DynamoDB. AWS does not publish its
 * algorithm (it is a token bucket with some burst); a sliding second without burst is the stricter reading, and
 * the one the reliability review used.
 */
import { RCU_PER_SECOND, WCU_PER_SECOND } from './units.js';

/** Reads and writes are limited separately. */
export type CapacityKind = 'read' | 'write';

/** What the meter has seen, for assertions and the printed figures. */
export interface CapacityStats {
  /** Units consumed in total, by kind. */
  total: Record<CapacityKind, number>;
  /** Requests admitted and charged, by kind. */
  requests: Record<CapacityKind, number>;
  /** Requests refused (enforcing) or that would have been refused (counting only), by kind. */
  throttled: Record<CapacityKind, number>;
  /** Highest units consumed within one second by one item (`<pk>/<sk>`) and by one partition key, by kind. */
  peakPerItem: Record<CapacityKind, number>;
  peakPerPartition: Record<CapacityKind, number>;
  /** The item and partition key of those peaks (`''` before any charge). */
  peakItem: Record<CapacityKind, string>;
  peakPartition: Record<CapacityKind, string>;
  /** Units consumed by each item and its requests, by kind, keyed `<pk>/<sk>`. */
  byItem: Record<string, { units: Record<CapacityKind, number>; requests: Record<CapacityKind, number> }>;
  /** The largest item size seen before or after any request, bytes. */
  largestItemBytes: number;
}

interface Charge {
  at: number;
  units: number;
}

const WINDOW_MS = 1000;
const LIMITS: Record<CapacityKind, number> = { read: RCU_PER_SECOND, write: WCU_PER_SECOND };

const zero = (): Record<CapacityKind, number> => ({ read: 0, write: 0 });

/** Sliding one-second windows per item and per partition key. */
export class CapacityMeter {
  private readonly windows = new Map<string, Charge[]>();
  readonly stats: CapacityStats = {
    total: zero(),
    requests: zero(),
    throttled: zero(),
    peakPerItem: zero(),
    peakPerPartition: zero(),
    peakItem: { read: '', write: '' },
    peakPartition: { read: '', write: '' },
    byItem: {},
    largestItemBytes: 0,
  };

  /**
   * @param clock epoch ms (or any monotonic ms) at which a request is charged
   * @param enforce refuse a request over the limit (else admit it and only count it in `throttled`)
   */
  constructor(
    private readonly clock: () => number,
    readonly enforce: boolean,
  ) {}

  /** Units in the window of `bucket` at `now`, dropping what has left it. */
  private inWindow(bucket: string, now: number): Charge[] {
    const list = (this.windows.get(bucket) ?? []).filter((c) => c.at > now - WINDOW_MS);
    this.windows.set(bucket, list);
    return list;
  }

  /**
   * Charges one request of `units` against its item and partition.
   * @param pk partition key; `sk` sort key (absent for a Query: the partition alone)
   * @returns false when the request is refused (enforcing and over a limit): nothing was charged
   */
  charge(kind: CapacityKind, pk: string, sk: string | undefined, units: number): boolean {
    const now = this.clock();
    const buckets = [`${kind}|p|${pk}`, ...(sk === undefined ? [] : [`${kind}|i|${pk}/${sk}`])];
    const sums = buckets.map((b) => this.inWindow(b, now).reduce((s, c) => s + c.units, 0) + units);
    if (sums.some((s) => s > LIMITS[kind])) {
      this.stats.throttled[kind]++;
      if (this.enforce) return false;
    }
    for (const b of buckets) this.windows.get(b)?.push({ at: now, units });
    this.stats.total[kind] += units;
    this.stats.requests[kind]++;
    if (sums[0] > this.stats.peakPerPartition[kind]) {
      this.stats.peakPerPartition[kind] = sums[0];
      this.stats.peakPartition[kind] = pk;
    }
    if (sk !== undefined) {
      const item = `${pk}/${sk}`;
      if (sums[1] > this.stats.peakPerItem[kind]) {
        this.stats.peakPerItem[kind] = sums[1];
        this.stats.peakItem[kind] = item;
      }
      const used = (this.stats.byItem[item] ??= { units: zero(), requests: zero() });
      used.units[kind] += units;
      used.requests[kind]++;
    }
    return true;
  }

  /** Notes an item size seen (bytes). */
  sawItem(bytes: number): void {
    this.stats.largestItemBytes = Math.max(this.stats.largestItemBytes, bytes);
  }
}
