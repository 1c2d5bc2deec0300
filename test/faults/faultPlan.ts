/**
 * Which fault the fault front (./proxy.ts) gives one API-server request: a pure choice from the request's shape and
 * a seeded generator, so that a seed replays the same faults for the same sequence of requests
 * (docs/reliability.md#fault-front). HTTP-level faults, as a byte-level proxy could not give them:
 * - `latency`: the request is held `ms` before it is forwarded;
 * - `reset`: the client's connection is reset before anything is forwarded (nothing reached the API server);
 * - `status`: an answer of the proxy's own, 429 (with `Retry-After`), 500 or 503, the request not forwarded;
 * - `dropAnswer`: a write is forwarded, applied by the API server, and its answer never reaches the client (the
 *   connection is reset once the API server answered) — the write happened, the client does not know it;
 * - `watchCut`: a watch stream is forwarded and cut `afterMs` later, mid-stream;
 * - `kill`: a write is forwarded and applied, then the reconciler process is killed (SIGKILL) before it reads the
 *   answer, and started again with its DynamoDB state kept.
 */
import { randomInt, type Random } from './rng.js';

/** The part of a request the choice depends on. */
export interface RequestShape {
  method: string;
  /** The request's path and query, e.g. `/api/v1/namespaces/a/pods?watch=true`. */
  url: string;
}

/** A fault, or none. */
export type Fault =
  | { kind: 'none' }
  | { kind: 'latency'; ms: number }
  | { kind: 'reset' }
  | { kind: 'status'; code: 429 | 500 | 503; retryAfterSeconds?: number }
  | { kind: 'dropAnswer' }
  | { kind: 'watchCut'; afterMs: number }
  | { kind: 'kill' };

/** The kinds of {@link Fault} other than `none`. */
export type FaultKind = Exclude<Fault['kind'], 'none'>;

/** Every fault kind, in report order. */
export const FAULT_KINDS: readonly FaultKind[] = [
  'latency',
  'reset',
  'status',
  'dropAnswer',
  'watchCut',
  'kill',
];

/** How often faults come. */
export interface FaultRates {
  /** Probability that a request (not a watch) gets a fault, 0 ≤ p ≤ 1. */
  request: number;
  /** Probability that a watch stream gets one (a cut, mostly). */
  watch: number;
  /**
   * The write (1-based, counted over the run's forwarded writes) after which the reconciler is killed; absent:
   * no kill in this run.
   */
  killAfterWrite?: number;
}

/** No fault at all: the baseline runs. */
export const NO_FAULTS: FaultRates = { request: 0, watch: 0 };

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a request opens a watch stream (`watch=true` or `watch=1` in its query). */
export function isWatch(url: string): boolean {
  return /[?&]watch=(true|1)(&|$)/.test(url);
}

/** Whether a request writes (POST, PUT, PATCH, DELETE). */
export function isWrite(method: string): boolean {
  return WRITES.has(method.toUpperCase());
}

/**
 * Chooses faults request by request. Stateful only in its generator and its count of writes (for `kill`).
 */
export class FaultPlanner {
  private writes = 0;

  /**
   * @param random the run's seeded generator (./rng.ts)
   * @param rates how often; {@link NO_FAULTS} never faults
   */
  constructor(
    private readonly random: Random,
    private readonly rates: FaultRates,
  ) {}

  /**
   * The fault of the next request. A watch gets a cut (most often), a reset, a 5xx/429 or latency; a write gets
   * `kill` once, as the `killAfterWrite`-th write, else one of every request fault or a dropped answer; a read gets
   * latency, a reset or a 5xx/429.
   */
  next(req: RequestShape): Fault {
    if (isWatch(req.url)) {
      if (this.random() >= this.rates.watch) return { kind: 'none' };
      const r = this.random();
      if (r < 0.6) return { kind: 'watchCut', afterMs: randomInt(this.random, 200, 5000) };
      if (r < 0.75) return { kind: 'reset' };
      if (r < 0.9) return this.status();
      return { kind: 'latency', ms: randomInt(this.random, 100, 1500) };
    }
    const write = isWrite(req.method);
    if (write) {
      this.writes += 1;
      if (this.writes === this.rates.killAfterWrite) return { kind: 'kill' };
    }
    if (this.random() >= this.rates.request) return { kind: 'none' };
    const r = this.random();
    if (r < 0.3) return { kind: 'latency', ms: randomInt(this.random, 50, 1500) };
    if (r < 0.5) return { kind: 'reset' };
    if (r < 0.75 || !write) return this.status();
    return { kind: 'dropAnswer' };
  }

  private status(): Fault {
    const r = this.random();
    if (r < 0.4) return { kind: 'status', code: 429, retryAfterSeconds: randomInt(this.random, 1, 2) };
    return { kind: 'status', code: r < 0.7 ? 500 : 503 };
  }
}
