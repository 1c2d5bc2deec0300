/**
 * One pump run's hold on a cluster's watch checkpoint (docs/architecture.md#watch-pump): the run takes the cluster's
 * pump lease once, and every stream of the cluster keeps its resume point here, in memory, written to the cluster's
 * one item at most once per interval and with the release — so a run writes a few items a minute per cluster
 * however many streams it follows (it was one lease item per stream, each written at its acquire, its release and
 * its saves).
 */
import type { Clock } from '../core/clock.js';
import { realTimer, type Timer } from '../core/deadline.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { FencedOutError, type WatchCheckpoints } from '../state/index.js';
import type { ResumePoints } from '../state/ports.js';

/**
 * What a stream of the pump (./pump.ts `pumpStream`) asks of its checkpoint: take it, move its resume point, give it
 * back. {@link ClusterCheckpoint} is the one a run's streams share; tests give a stream one of its own.
 */
export interface StreamCheckpoints {
  /**
   * Take the stream's checkpoint for `holder`.
   * @returns `acquired: true` with the fencing token and the stream's resume point (absent: none, relist); `acquired:
   *   false` when it is not this run's to take (the pump asks again until its deadline)
   */
  acquire(
    cluster: string,
    resource: string,
    holder: string,
    durationMs: number,
    nowMs: number,
  ): Promise<{ acquired: boolean; token: number; resourceVersion?: string }>;
  /**
   * Move the stream's resume point: every change up to `resourceVersion` has been published.
   * @throws FencedOutError when the checkpoint is no longer this run's
   */
  save(
    cluster: string,
    resource: string,
    holder: string,
    token: number,
    resourceVersion: string,
  ): Promise<void>;
  /** Give the stream's checkpoint back (the pump ignores its failure). */
  release(cluster: string, resource: string, holder: string, token: number): Promise<void>;
}

/** What {@link ClusterCheckpoint} needs. */
export interface ClusterCheckpointDeps {
  watches: WatchCheckpoints;
  cluster: string;
  holder: string;
  clock: Clock;
  /** Least time between two writes of the resume points before the release, ms. */
  intervalMs: number;
  log: Logger;
  /**
   * What waits out the interval before a write, on `clock`'s time: default lib/core/deadline.ts `realTimer` (the
   * global setTimeout); a simulation that moves `clock` itself gives its own.
   */
  timer?: Timer;
}

/**
 * The cluster's checkpoint while a run holds its pump lease, as each of the run's streams sees it
 * ({@link StreamCheckpoints}): `acquire` gives the stream its stored resume point at once, `save` records the new one
 * and has it written with the others within `intervalMs` (so a crashed run's successor replays at most that, plus
 * the stream's own save interval: the reconciler is idempotent), `release` leaves the lease held until
 * {@link ClusterCheckpoint.close}, which stores the last resume points and releases it in one write. When a write
 * finds the lease taken by another run, every later `save` throws that `FencedOutError` and `onLost` is called (the
 * run stops its streams); any other failed write is logged and tried again at the next interval.
 */
export class ClusterCheckpoint implements StreamCheckpoints {
  readonly #deps: ClusterCheckpointDeps;
  readonly #token: number;
  readonly #points: Record<string, string>;
  readonly #onLost: (e: FencedOutError) => void;
  /** Resume points recorded since the last write began. */
  #dirty = false;
  #lastWriteAt: number;
  /** Cancels the scheduled write, when one is. */
  #cancelWrite: (() => void) | undefined;
  #writes: Promise<void> = Promise.resolve();
  #lost: FencedOutError | undefined;
  #closed = false;

  /**
   * @param token the fencing token the cluster's lease was taken with
   * @param resumePoints the stored resume points, by stream name
   * @param onLost called once when a write finds the lease another run's
   */
  constructor(
    deps: ClusterCheckpointDeps,
    token: number,
    resumePoints: ResumePoints,
    onLost: (e: FencedOutError) => void,
  ) {
    this.#deps = deps;
    this.#token = token;
    this.#points = { ...resumePoints };
    this.#onLost = onLost;
    this.#lastWriteAt = deps.clock();
  }

  /** The fencing token the lease is held with. */
  get token(): number {
    return this.#token;
  }

  /** The resume points as recorded so far (a copy). */
  get resumePoints(): ResumePoints {
    return { ...this.#points };
  }

  acquire(
    _cluster: string,
    resource: string,
  ): Promise<{ acquired: boolean; token: number; resourceVersion?: string }> {
    if (this.#lost || this.#closed) return Promise.resolve({ acquired: false, token: this.#token });
    const resourceVersion = this.#points[resource];
    return Promise.resolve({
      acquired: true,
      token: this.#token,
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
    });
  }

  save(
    _cluster: string,
    resource: string,
    _holder: string,
    _token: number,
    resourceVersion: string,
  ): Promise<void> {
    if (this.#lost) return Promise.reject(this.#lost);
    if (this.#points[resource] === resourceVersion) return Promise.resolve();
    this.#points[resource] = resourceVersion;
    this.#dirty = true;
    this.#schedule();
    return Promise.resolve();
  }

  release(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Store the resume points and release the lease (one write), after any write under way; nothing when the lease was
   * lost. Later saves are still recorded but never written.
   * @throws FencedOutError when the release finds the lease another run's; StateStoreError when it fails
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#cancelWrite?.();
    this.#cancelWrite = undefined;
    await this.#writes;
    if (this.#lost) return;
    const { watches, cluster, holder } = this.#deps;
    await watches.release(cluster, holder, this.#token, { ...this.#points });
  }

  /** Have the recorded resume points written once the interval since the last write is up. */
  #schedule(): void {
    if (this.#cancelWrite !== undefined || this.#closed) return;
    const wait = Math.max(0, this.#lastWriteAt + this.#deps.intervalMs - this.#deps.clock());
    this.#cancelWrite = (this.#deps.timer ?? realTimer)(() => {
      this.#cancelWrite = undefined;
      this.#writes = this.#writes.then(() => this.#write());
    }, wait);
  }

  async #write(): Promise<void> {
    if (!this.#dirty || this.#lost || this.#closed) return;
    const { watches, cluster, holder, clock, log } = this.#deps;
    this.#dirty = false;
    this.#lastWriteAt = clock();
    try {
      await watches.save(cluster, holder, this.#token, { ...this.#points });
    } catch (e) {
      if (e instanceof FencedOutError) {
        this.#lost = e;
        this.#onLost(e);
        return;
      }
      this.#dirty = true;
      log.warn('watch checkpoint write failed; trying again at the next interval', {
        cluster,
        error: errorMessage(e),
      });
      this.#schedule();
    }
  }
}
