/**
 * In-memory watch checkpoints with the DynamoDB adapter's lease rules (lib/state/dynamo/watches.ts: free when never
 * taken, released or expired, or already the caller's; token +1 per acquire; save and release only by the current
 * holder and token), recording every call with the time it was made: {@link MemoryCheckpoints}, the cluster's one
 * lease and item a watch run takes (the runtime's store), and {@link MemoryStreamCheckpoints}, a lease per stream,
 * for tests that drive one stream (`pumpStream`) alone.
 */
import type { Clock } from '../../../../lib/core/clock.js';
import { FencedOutError } from '../../../../lib/state/index.js';
import type { WatchCheckpoints } from '../../../../lib/state/index.js';
import type { ResumePoints } from '../../../../lib/state/ports.js';
import type { StreamCheckpoints } from '../../../../lib/source/clusterCheckpoint.js';

/** One recorded call of {@link MemoryCheckpoints}. */
export type ClusterCheckpointCall =
  | { op: 'acquire'; at: number; holder: string; acquired: boolean; durationMs: number }
  | { op: 'save'; at: number; holder: string; resumePoints: ResumePoints }
  | { op: 'release'; at: number; holder: string; resumePoints?: ResumePoints };

interface ClusterItem {
  holder?: string;
  token: number;
  expiresAt: number;
  resumePoints?: Record<string, string>;
}

/** The cluster-level fake; `calls` in call order, `stored(resource)` a stream's resume point. */
export class MemoryCheckpoints implements WatchCheckpoints {
  readonly calls: ClusterCheckpointCall[] = [];
  readonly #items = new Map<string, ClusterItem>();
  readonly #legacy = new Map<string, string>();

  constructor(private readonly clock: Clock) {}

  /** The stored resume point of `resource` (any cluster: tests use one). */
  stored(resource: string): string | undefined {
    for (const item of this.#items.values()) {
      const rv = item.resumePoints?.[resource];
      if (rv !== undefined) return rv;
    }
    return undefined;
  }

  /** Seed a resume point, as an earlier run would have left it (released). */
  seed(cluster: string, resource: string, resourceVersion: string): void {
    const item = this.#items.get(cluster) ?? { token: 1, expiresAt: 0 };
    item.resumePoints = { ...item.resumePoints, [resource]: resourceVersion };
    this.#items.set(cluster, item);
  }

  /** Seed a stream's own item as versions before the cluster's one item left it. */
  seedLegacy(cluster: string, resource: string, resourceVersion: string): void {
    this.#legacy.set(`${cluster}#${resource}`, resourceVersion);
  }

  acquire(
    cluster: string,
    holder: string,
    durationMs: number,
    nowMs: number,
  ): Promise<{ acquired: boolean; token: number; resumePoints?: ResumePoints }> {
    const item = this.#items.get(cluster) ?? { token: 0, expiresAt: 0 };
    const free = item.holder === undefined || item.expiresAt <= nowMs || item.holder === holder;
    this.calls.push({ op: 'acquire', at: this.clock(), holder, acquired: free, durationMs });
    if (!free) return Promise.resolve({ acquired: false, token: item.token });
    const next: ClusterItem = { ...item, holder, token: item.token + 1, expiresAt: nowMs + durationMs };
    this.#items.set(cluster, next);
    return Promise.resolve({
      acquired: true,
      token: next.token,
      ...(next.resumePoints === undefined ? {} : { resumePoints: { ...next.resumePoints } }),
    });
  }

  save(cluster: string, holder: string, token: number, resumePoints: ResumePoints): Promise<void> {
    const item = this.#owned('watch.save', cluster, holder, token);
    this.calls.push({ op: 'save', at: this.clock(), holder, resumePoints: { ...resumePoints } });
    item.resumePoints = { ...resumePoints };
    return Promise.resolve();
  }

  release(cluster: string, holder: string, token: number, resumePoints?: ResumePoints): Promise<void> {
    const item = this.#owned('watch.release', cluster, holder, token);
    this.calls.push({
      op: 'release',
      at: this.clock(),
      holder,
      ...(resumePoints === undefined ? {} : { resumePoints: { ...resumePoints } }),
    });
    if (resumePoints !== undefined) item.resumePoints = { ...resumePoints };
    item.expiresAt = 0;
    return Promise.resolve();
  }

  legacyResumePoint(cluster: string, resource: string): Promise<string | undefined> {
    return Promise.resolve(this.#legacy.get(`${cluster}#${resource}`));
  }

  #owned(op: string, cluster: string, holder: string, token: number): ClusterItem {
    const item = this.#items.get(cluster);
    if (!item || item.holder !== holder || item.token !== token || item.expiresAt === 0)
      throw new FencedOutError(op, cluster, token, `holder ${holder}`);
    return item;
  }
}

/** One recorded call of {@link MemoryStreamCheckpoints}. */
export type CheckpointCall =
  | { op: 'acquire'; at: number; holder: string; acquired: boolean; durationMs: number }
  | { op: 'save'; at: number; holder: string; resourceVersion: string }
  | { op: 'release'; at: number; holder: string };

interface Item {
  holder?: string;
  token: number;
  expiresAt: number;
  resourceVersion?: string;
}

/** The per-stream fake; `calls` in call order, `stored(resource)` the resume point. */
export class MemoryStreamCheckpoints implements StreamCheckpoints {
  readonly calls: CheckpointCall[] = [];
  readonly #items = new Map<string, Item>();

  constructor(private readonly clock: Clock) {}

  /** The stored resume point of `resource` (any cluster: tests use one). */
  stored(resource: string): string | undefined {
    return [...this.#items.entries()].find(([k]) => k.endsWith(`#${resource}`))?.[1].resourceVersion;
  }

  /** Seed a resume point, as an earlier run would have left it (released). */
  seed(cluster: string, resource: string, resourceVersion: string): void {
    this.#items.set(`${cluster}#${resource}`, { token: 1, expiresAt: 0, resourceVersion });
  }

  acquire(
    cluster: string,
    resource: string,
    holder: string,
    durationMs: number,
    nowMs: number,
  ): Promise<{ acquired: boolean; token: number; resourceVersion?: string }> {
    const key = `${cluster}#${resource}`;
    const item = this.#items.get(key) ?? { token: 0, expiresAt: 0 };
    const free = item.holder === undefined || item.expiresAt <= nowMs || item.holder === holder;
    this.calls.push({ op: 'acquire', at: this.clock(), holder, acquired: free, durationMs });
    if (!free) return Promise.resolve({ acquired: false, token: item.token });
    const next: Item = { ...item, holder, token: item.token + 1, expiresAt: nowMs + durationMs };
    this.#items.set(key, next);
    return Promise.resolve({
      acquired: true,
      token: next.token,
      ...(next.resourceVersion === undefined ? {} : { resourceVersion: next.resourceVersion }),
    });
  }

  save(
    cluster: string,
    resource: string,
    holder: string,
    token: number,
    resourceVersion: string,
  ): Promise<void> {
    const item = this.#owned('watch.save', cluster, resource, holder, token);
    this.calls.push({ op: 'save', at: this.clock(), holder, resourceVersion });
    item.resourceVersion = resourceVersion;
    return Promise.resolve();
  }

  release(cluster: string, resource: string, holder: string, token: number): Promise<void> {
    const item = this.#owned('watch.release', cluster, resource, holder, token);
    this.calls.push({ op: 'release', at: this.clock(), holder });
    item.expiresAt = 0;
    return Promise.resolve();
  }

  #owned(op: string, cluster: string, resource: string, holder: string, token: number): Item {
    const key = `${cluster}#${resource}`;
    const item = this.#items.get(key);
    if (!item || item.holder !== holder || item.token !== token || item.expiresAt === 0)
      throw new FencedOutError(op, key, token, `holder ${holder}`);
    return item;
  }
}
