/**
 * The metrics port and the one list of metric names (docs/observability.md#metrics). Names follow
 * controller-runtime and client-go where one exists, so dashboards and alerts written for an in-cluster
 * controller read the same; the rest are Kruiseless' own (`kruiseless_` prefix). Dimensions stay low-cardinality
 * (a CloneSet's name is a property, never a dimension). Lambda handlers record into a Powertools EMF sink
 * (lib/runtime/metrics.ts); the embedded default records into memory or nowhere.
 */

/** Every metric Kruiseless emits, by role. */
export const METRIC = {
  /** Reconcile invocations by `result` (controller-runtime `controller_runtime_reconcile_total`). */
  reconcileTotal: 'controller_runtime_reconcile_total',
  /** Reconcile invocations that failed (controller-runtime `controller_runtime_reconcile_errors_total`). */
  reconcileErrors: 'controller_runtime_reconcile_errors_total',
  /** Duration of one reconcile invocation, seconds (controller-runtime `controller_runtime_reconcile_time_seconds`). */
  reconcileTime: 'controller_runtime_reconcile_time_seconds',
  /** API-server requests by `verb` (HTTP method), `resource` and `code` (client-go `rest_client_requests_total`). */
  restClientRequests: 'rest_client_requests_total',
  /** Reconciles handed back to the requeue scheduler (client-go workqueue `workqueue_retries_total`). */
  workqueueRetries: 'workqueue_retries_total',
  /** Reconcile invocations that found the object's lease held and marked it dirty instead. */
  leaseContention: 'kruiseless_lease_contention_total',
  /**
   * Lease calls of reconcile invocations that failed in DynamoDB, by `operation`: `acquire` or `release` (the
   * invocation backed off and requeued; docs/reliability.md#backoff). A lease found held is contention, not this.
   */
  leaseFailures: 'kruiseless_lease_failures_total',
  /** Reconcile requests merged into another one for the same object before publishing. */
  eventsCoalesced: 'kruiseless_events_coalesced_total',
  /**
   * Clusters a resync invocation missed, by `reason`: `failed`, `not_reached` (its time budget ran out before it
   * started), `not_finished` (still running when it returned) — lib/runtime/handlers/resync.ts.
   */
  resyncClustersMissed: 'kruiseless_resync_clusters_missed_total',
  /**
   * Clusters a watch invocation left unwatched because their connections did not fit its budget
   * (lib/runtime/handlers/watch.ts `LAMBDA_CONNECTION_BUDGET`); they are watched in later rounds, from their
   * checkpoints.
   */
  watchClustersDeferred: 'kruiseless_watch_clusters_deferred_total',
  /**
   * Watch slices a scheduled watch run put on the bus for other runs (lib/source/watchSlices.ts): a fleet beyond one
   * run's connection budget is watched by one run per slice.
   */
  watchSlicesSent: 'kruiseless_watch_slices_sent_total',
} as const;

/** One of {@link METRIC}'s names. */
export type MetricName = (typeof METRIC)[keyof typeof METRIC];

/** CloudWatch unit of each metric. */
export const METRIC_UNIT: Readonly<Record<MetricName, 'Count' | 'Seconds'>> = {
  [METRIC.reconcileTotal]: 'Count',
  [METRIC.reconcileErrors]: 'Count',
  [METRIC.reconcileTime]: 'Seconds',
  [METRIC.restClientRequests]: 'Count',
  [METRIC.workqueueRetries]: 'Count',
  [METRIC.leaseContention]: 'Count',
  [METRIC.leaseFailures]: 'Count',
  [METRIC.eventsCoalesced]: 'Count',
  [METRIC.resyncClustersMissed]: 'Count',
  [METRIC.watchClustersDeferred]: 'Count',
  [METRIC.watchSlicesSent]: 'Count',
};

/** The `result` dimension of {@link METRIC.reconcileTotal}, controller-runtime's four values. */
export type ReconcileResultLabel = 'success' | 'error' | 'requeue' | 'requeue_after';

/** Dimension name → value; few values per name (no object names, no ids). */
export type Dimensions = Readonly<Record<string, string>>;

/** Where metrics go; one recorder per invocation (its properties describe that invocation). */
export interface MetricsRecorder {
  /** Adds one data point: counts add up, seconds are kept as separate values. */
  add(name: MetricName, value: number, dimensions?: Dimensions): void;
  /** Context of the invocation that is not a dimension (object key, correlation ids), EMF metadata. */
  property(key: string, value: unknown): void;
}

/** A recorder that drops everything. */
export const noMetrics: MetricsRecorder = { add: () => undefined, property: () => undefined };
