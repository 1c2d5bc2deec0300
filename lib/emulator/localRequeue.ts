/**
 * The local requeue scheduler of the embedded default: the {@link RequeueScheduler} port on in-process timers
 * (EventBridge Scheduler's stand-in; lib/requests/requeue.ts has the AWS one).
 */
import type { EventPublisher, ReconcileRequest, RequeueScheduler } from '../requests/index.js';
import { checkRequeueDelay, requeueDetail, requeueDueMs } from '../requests/requeue.js';
import { systemClock, type Clock } from '../core/clock.js';
import { objectKeyText, type ObjectKey } from '../core/objectKey.js';

/** Timer functions, injectable for tests. */
export interface Timers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

/**
 * The longest delay a Node timer keeps, ms (2^31 - 1, about 24.8 days): a longer one is set to 1 ms
 * (https://nodejs.org/api/timers.html#settimeoutcallback-delay-args), which for an AdvancedCronJob whose next run is
 * a month or a year away would be a requeue at once, again on every pass.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Options of {@link LocalRequeueScheduler}. */
export interface LocalRequeueOptions {
  /** Where due requests go (usually the {@link LocalBus}). */
  publisher: EventPublisher;
  /** Called when publishing a due request fails. Default: log to stderr. */
  onError?: (error: unknown, request: ReconcileRequest) => void;
  /** Default: the global timers. */
  timers?: Timers;
  /** Default: the system clock. */
  clock?: Clock;
}

/**
 * {@link RequeueScheduler} with in-process timers, for the embedded default. At most one pending requeue per key:
 * the earliest wins (an earlier request replaces a later one; a later one is dropped), which is enough because
 * the reconcile it triggers requeues again if it still needs to wait. Beside it, at most one wake-up per key
 * (`wakeUpAfter`), which the latest call replaces, earlier or later, and `cancelWakeUp` removes (EventBridge
 * Scheduler's `wake_<key>` schedule, lib/requests/requeue.ts).
 */
export class LocalRequeueScheduler implements RequeueScheduler {
  private readonly pending = new Map<string, { due: number; handle: unknown }>();
  private readonly wakeUps = new Map<string, { due: number; handle: unknown }>();
  private readonly timers: Timers;
  private readonly clock: Clock;

  constructor(private readonly options: LocalRequeueOptions) {
    this.timers = options.timers ?? {
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    };
    this.clock = options.clock ?? systemClock;
  }

  /** Number of pending requeues and wake-ups (a key with both counts twice). */
  get size(): number {
    return this.pending.size + this.wakeUps.size;
  }

  /** Number of keys with a pending wake-up. */
  get wakeUpCount(): number {
    return this.wakeUps.size;
  }

  /** When the key's wake-up is due (epoch ms, by the scheduler's clock), or undefined when it has none. */
  wakeUpDueMs(request: ObjectKey): number | undefined {
    return this.wakeUps.get(objectKeyText(request))?.due;
  }

  /**
   * Number of keys whose pending requeue is due within `ms` from now (by the scheduler's clock), e.g. to tell a
   * timer that will fire during a wait from a lease-end safety net minutes away (lib/reconcile/reconcile.ts
   * `deferralRequeueSeconds`).
   * @param ms ≥ 0
   */
  pendingWithin(ms: number): number {
    const by = this.clock() + ms;
    return [...this.pending.values(), ...this.wakeUps.values()].filter((p) => p.due <= by).length;
  }

  /**
   * A timer for `request` due `seconds` after `fromMs` (default now), to the millisecond; one already due fires at
   * once, one further away than {@link MAX_TIMER_MS} fires after that long (early: the reconcile it triggers asks
   * again for the rest). @throws RangeError as {@link checkRequeueDelay}
   */
  async requeueAfter(request: ReconcileRequest, seconds: number, fromMs?: number): Promise<void> {
    checkRequeueDelay(seconds);
    const key = objectKeyText(request);
    const now = this.clock();
    const due = requeueDueMs(now, seconds, fromMs);
    const existing = this.pending.get(key);
    if (existing !== undefined) {
      if (existing.due <= due) return;
      this.timers.clearTimeout(existing.handle);
    }
    this.pending.set(key, { due, handle: this.fireAt(this.pending, key, request, due, now) });
  }

  /**
   * The key's one wake-up timer, due `seconds` after `fromMs` (default now), replacing the key's earlier one
   * whenever it was due. @throws RangeError as {@link checkRequeueDelay}
   */
  async wakeUpAfter(request: ReconcileRequest, seconds: number, fromMs?: number): Promise<void> {
    checkRequeueDelay(seconds);
    const key = objectKeyText(request);
    const now = this.clock();
    const due = requeueDueMs(now, seconds, fromMs);
    await this.cancelWakeUp(request);
    this.wakeUps.set(key, { due, handle: this.fireAt(this.wakeUps, key, request, due, now) });
  }

  /** Removes the key's wake-up timer, if it has one. */
  async cancelWakeUp(request: ReconcileRequest): Promise<void> {
    const key = objectKeyText(request);
    const existing = this.wakeUps.get(key);
    if (existing === undefined) return;
    this.timers.clearTimeout(existing.handle);
    this.wakeUps.delete(key);
  }

  /** A timer that removes `key` from `from` and publishes the `Requeue` at `due` (capped at {@link MAX_TIMER_MS}). */
  private fireAt(
    from: Map<string, { due: number; handle: unknown }>,
    key: string,
    request: ReconcileRequest,
    due: number,
    now: number,
  ): unknown {
    return this.timers.setTimeout(
      () => {
        from.delete(key);
        const requeue = requeueDetail(request);
        this.options.publisher.publish([requeue]).catch((error: unknown) => {
          const report = this.options.onError ?? ((e: unknown) => console.error('requeue publish failed', e));
          report(error, requeue);
        });
      },
      Math.min(MAX_TIMER_MS, Math.max(0, due - now)),
    );
  }

  /** Cancels every pending requeue and wake-up; later calls still work. */
  close(): void {
    for (const { handle } of [...this.pending.values(), ...this.wakeUps.values()])
      this.timers.clearTimeout(handle);
    this.pending.clear();
    this.wakeUps.clear();
  }
}
