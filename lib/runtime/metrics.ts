/**
 * Metrics of the handlers (README.md#observability): one {@link InvocationMetrics} per handler invocation, handed
 * to a {@link MetricsSink} when the invocation ends — Powertools EMF in Lambda (./emf.ts), memory or nothing in the
 * embedded default. API requests are counted through the invocation's async context, since one KubeClient serves
 * every invocation of a container or process.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  METRIC,
  METRIC_UNIT,
  noMetrics,
  type Dimensions,
  type MetricName,
  type MetricsRecorder,
  type ReconcileResultLabel,
} from '../core/metrics.js';
import type { RequestRecord } from '../kube/request.js';
import type { LeaseFailure } from '../reconcile/reconcile.js';
import type { EventPublisher } from '../requests/index.js';

/** One metric and dimension set of an invocation: a count (one value) or the seconds observed (one per value). */
export interface MetricPoint {
  name: MetricName;
  /** Always includes `controller`. */
  dimensions: Dimensions;
  values: number[];
}

/** The metrics of one invocation: counts summed per name and dimension set, seconds kept value by value. */
export class InvocationMetrics implements MetricsRecorder {
  readonly #points = new Map<string, MetricPoint>();
  /** EMF metadata of the invocation (not dimensions). */
  readonly properties: Record<string, unknown> = {};

  /** The `controller` dimension of every point. */
  readonly controller: string;

  /**
   * @param controller the `controller` dimension of every point (controller-runtime's label for the controller's
   *   name): lib/core/objectKey.ts `controllerNameOf` the reconciled kind, e.g. `cloneset`
   */
  constructor(controller: string) {
    this.controller = controller;
  }

  /** See {@link MetricsRecorder.add}; adds the `controller` dimension. */
  add(name: MetricName, value: number, dimensions: Dimensions = {}): void {
    const all: Dimensions = { controller: this.controller, ...dimensions };
    const id = JSON.stringify([name, Object.entries(all).sort(([a], [b]) => a.localeCompare(b))]);
    const point = this.#points.get(id);
    if (!point) this.#points.set(id, { name, dimensions: all, values: [value] });
    else if (METRIC_UNIT[name] === 'Count') point.values[0] = (point.values[0] ?? 0) + value;
    else point.values.push(value);
  }

  /** See {@link MetricsRecorder.property}. */
  property(key: string, value: unknown): void {
    this.properties[key] = value;
  }

  /** What was recorded, in first-recorded order. */
  points(): MetricPoint[] {
    return [...this.#points.values()];
  }
}

/** Receives each invocation's metrics when it ends. */
export interface MetricsSink {
  /** Must not throw. */
  flush(invocation: InvocationMetrics): void;
}

/** A sink that drops everything (the embedded default unless asked). */
export const noMetricsSink: MetricsSink = { flush: () => undefined };

/** A sink that keeps every point in memory, for tests and `kruiseless local`. */
export class MemoryMetrics implements MetricsSink {
  readonly points: MetricPoint[] = [];

  /** See {@link MetricsSink.flush}. */
  flush(invocation: InvocationMetrics): void {
    this.points.push(...invocation.points());
  }

  /** Sum of every value of `name` whose dimensions include all of `match`. */
  total(name: MetricName, match: Dimensions = {}): number {
    return this.points
      .filter((p) => p.name === name && Object.entries(match).every(([k, v]) => p.dimensions[k] === v))
      .reduce((sum, p) => sum + p.values.reduce((a, b) => a + b, 0), 0);
  }
}

const current = new AsyncLocalStorage<MetricsRecorder>();

/**
 * Runs `fn` with `recorder` as the {@link currentMetrics} of everything it awaits, then flushes `recorder` to `sink`
 * (also when `fn` throws).
 * @returns what `fn` returns; rethrows what it throws
 */
export async function withMetrics<T>(
  recorder: InvocationMetrics,
  sink: MetricsSink,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await current.run(recorder, fn);
  } finally {
    sink.flush(recorder);
  }
}

/** The recorder of the invocation this code runs for; {@link noMetrics} outside one. */
export function currentMetrics(): MetricsRecorder {
  return current.getStore() ?? noMetrics;
}

/** The KubeClient's `onRequest`: counts the attempt into the current invocation. */
export function recordApiRequest(record: RequestRecord): void {
  currentMetrics().add(METRIC.restClientRequests, 1, {
    verb: record.method,
    resource: record.resource,
    code: record.code,
  });
}

/** `publisher`, counting into `recorder` the requests each publish merged away (requests in − events out). */
export function meteredPublisher(publisher: EventPublisher, recorder: MetricsRecorder): EventPublisher {
  return {
    async publish(requests) {
      const result = await publisher.publish(requests);
      recorder.add(METRIC.eventsCoalesced, Math.max(0, requests.length - result.published));
      return result;
    },
  };
}

/** How a reconcile invocation ended, in the terms of {@link recordReconcile}. */
export interface ReconcileEnd {
  /** The invocation threw, or a write failed. */
  failed: boolean;
  /** Another invocation held the lease (this one marked it dirty and returned). */
  deferred: boolean;
  /** Seconds handed to the requeue scheduler, if any. */
  requeuedAfterSeconds?: number;
  /** The lease call that failed in DynamoDB, if one did (then `failed` too). */
  leaseFailure?: LeaseFailure;
  /** Wall time of the invocation, seconds. */
  seconds: number;
}

/**
 * controller-runtime's `result` label: `error` for a failure, `requeue` for a deferral (the lease holder runs
 * again, like `Requeue: true`), `requeue_after` for a scheduled requeue, else `success`.
 */
export function reconcileResultLabel(end: ReconcileEnd): ReconcileResultLabel {
  if (end.failed) return 'error';
  if (end.deferred) return 'requeue';
  if (end.requeuedAfterSeconds !== undefined) return 'requeue_after';
  return 'success';
}

/**
 * Records one reconcile invocation: total by result, errors, duration, requeues (`workqueue_retries_total`), lease
 * contention and a lease call that failed (`kruiseless_lease_failures_total` by `operation`).
 */
export function recordReconcile(recorder: MetricsRecorder, end: ReconcileEnd): void {
  const result = reconcileResultLabel(end);
  recorder.add(METRIC.reconcileTotal, 1, { result });
  recorder.add(METRIC.reconcileErrors, result === 'error' ? 1 : 0);
  recorder.add(METRIC.reconcileTime, end.seconds);
  if (end.requeuedAfterSeconds !== undefined) recorder.add(METRIC.workqueueRetries, 1);
  if (end.deferred) recorder.add(METRIC.leaseContention, 1);
  if (end.leaseFailure) recorder.add(METRIC.leaseFailures, 1, { operation: end.leaseFailure });
}
