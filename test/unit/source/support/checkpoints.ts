/**
 * An in-memory {@link WatchCheckpoints} with the DynamoDB adapter's lease rules (lib/state/dynamo/watches.ts: free
 * when never taken, released or expired, or already the caller's; token +1 per acquire; save and release only by the
 * current holder and token), recording every call with the time it was made.
 */
import type { Clock } from '../../../../lib/core/clock.js';
import { FencedOutError } from '../../../../lib/state/index.js';
import type { WatchCheckpoints } from '../../../../lib/state/index.js';

/** One recorded call. */
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

/** The fake; `calls` in call order, `stored(resource)` the resume point. */
export class MemoryCheckpoints implements WatchCheckpoints {
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
