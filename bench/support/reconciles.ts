/**
 * The reconciles the bench counts: each `reconcile finished` line of the pipeline's reconcile handler
 * (lib/runtime/handlers/reconcile.ts) recorded by {@link BenchLogger}, the object key they carry, and the figures
 * taken from them (coalescing, invocations per CloneSet).
 */
import { performance } from 'node:perf_hooks';
import { Logger } from '@aws-lambda-powertools/logger';
import { CLONESET_KIND } from '../../lib/controllers/cloneset/api/kinds.js';
import { DAEMONSET_KIND } from '../../lib/controllers/daemonset/api/resource.js';
import { STATEFULSET_KIND } from '../../lib/controllers/statefulset/api/resource.js';
import { objectKeyText } from '../../lib/core/objectKey.js';
import type { ReconcileSummary } from '../../lib/runtime/handlers/reconcile.js';

/** Cluster name the bench registers Kruiseless's control plane under (bench/support/sides.ts). */
export const BENCH_CLUSTER = 'bench';

/** A reconcile the pipeline finished, as its handler logged it, stamped with `performance.now()`. */
export interface FinishedReconcile extends ReconcileSummary {
  at: number;
}

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The summary a `reconcile finished` line carries. The handler logs through lib/core/logger.ts `withKeys`, which
 * passes the invocation's keys (`key`, `correlation_id`) as the first extra argument and the summary as the next,
 * so the fields are merged from every object argument, later ones winning (as Powertools merges them).
 * @param extra the arguments after the message
 * @returns undefined when the merged fields are not a summary (no string `key` and `result`, no numeric `passes`
 *   and `writes`)
 */
export function reconcileSummaryOf(extra: readonly unknown[]): ReconcileSummary | undefined {
  const f = Object.assign({}, ...extra.filter(isRecord)) as Record<string, unknown>;
  if (
    typeof f.key !== 'string' ||
    typeof f.result !== 'string' ||
    typeof f.passes !== 'number' ||
    typeof f.writes !== 'number'
  )
    return undefined;
  return {
    key: f.key,
    result: f.result,
    passes: f.passes,
    writes: f.writes,
    ...(typeof f.requeuedAfterSeconds === 'number' ? { requeuedAfterSeconds: f.requeuedAfterSeconds } : {}),
    ...(typeof f.error === 'string' ? { error: f.error } : {}),
    ...(typeof f.failures === 'number' ? { failures: f.failures } : {}),
  };
}

/** A Powertools logger that prints only errors and records every `reconcile finished` summary. */
export class BenchLogger extends Logger {
  readonly finished: FinishedReconcile[] = [];
  errors = 0;

  constructor() {
    super({ serviceName: 'kruiseless-bench', logLevel: 'ERROR' });
  }

  override info(input: unknown, ...extra: unknown[]): void {
    if (input !== 'reconcile finished') return;
    const summary = reconcileSummaryOf(extra);
    if (summary) this.finished.push({ ...summary, at: performance.now() });
  }

  override error(input: unknown, ...extra: unknown[]): void {
    this.errors++;
    super.error(input as string, ...(extra as []));
  }
}

/**
 * The object key text of a CloneSet as the reconcile handler logs it (lib/core/objectKey.ts `objectKeyText`), so
 * that the bench never spells the key format itself.
 */
export function cloneSetKey(namespace: string, name: string, cluster: string = BENCH_CLUSTER): string {
  return objectKeyText({ cluster, kind: CLONESET_KIND, namespace, name });
}

/** The object key text of an Advanced StatefulSet as the reconcile handler logs it (as {@link cloneSetKey}). */
export function statefulSetKey(namespace: string, name: string, cluster: string = BENCH_CLUSTER): string {
  return objectKeyText({ cluster, kind: STATEFULSET_KIND, namespace, name });
}

/** The object key text of an Advanced DaemonSet as the reconcile handler logs it (as {@link cloneSetKey}). */
export function daemonSetKey(namespace: string, name: string, cluster: string = BENCH_CLUSTER): string {
  return objectKeyText({ cluster, kind: DAEMONSET_KIND, namespace, name });
}

/** Coalescing during one phase (Kruiseless only). */
export interface Coalescing {
  /** Pod watch events (ADDED/MODIFIED/DELETED) of the namespace: what the watch pump forwards. */
  podEvents: number;
  /** Reconcile invocations of the workload's key (a CloneSet's, an Advanced StatefulSet's or DaemonSet's). */
  invocations: number;
  /** Invocations that wrote at least once. */
  withWrites: number;
  /** Invocations that left the work to the lease holder. */
  deferred: number;
  /** invocations ÷ podEvents, 3 decimals (0 without pod events). */
  ratio: number;
}

/**
 * Invocations among `finished` of the objects in `keys`, and how many of them wrote or were deferred.
 * @param keys object key texts ({@link cloneSetKey})
 */
export function invocationsOf(
  finished: readonly FinishedReconcile[],
  keys: ReadonlySet<string>,
): { invocations: number; withWrites: number; deferred: number } {
  const mine = finished.filter((f) => keys.has(f.key));
  return {
    invocations: mine.length,
    withWrites: mine.filter((f) => f.writes > 0).length,
    deferred: mine.filter((f) => f.result === 'deferred').length,
  };
}

/** {@link Coalescing} of one workload over `finished` (the invocations of one phase) and its pod events. */
export function coalescingOf(
  finished: readonly FinishedReconcile[],
  key: string,
  podEvents: number,
): Coalescing {
  const counts = invocationsOf(finished, new Set([key]));
  return {
    podEvents,
    ...counts,
    ratio: podEvents > 0 ? Math.round((counts.invocations / podEvents) * 1000) / 1000 : 0,
  };
}
