/**
 * The `watch` handler (scheduled every minute, and started by each watch slice's event): for each cluster of the
 * run — the fleet's first slice for the scheduled run, which sends the others to runs of their own when the fleet is
 * beyond one run's connection budget ({@link LAMBDA_CONNECTION_BUDGET}, lib/source/watchSlices.ts); a slice's clusters for
 * a slice's run — the watch pump ({@link pumpCluster}) follows
 * the streams of the registered controllers' watches (lib/source/watchSpec.ts) from the stored resourceVersion and
 * publishes reconcile requests, stopping {@link DEADLINE_MARGIN_MS} before the invocation's time budget ends. The
 * runs overlap (serverless.yml: every minute, 70 s timeout): a run waits for the previous one to release each
 * cluster's pump lease and takes its streams over from the resume points the previous one stored
 * (docs/reliability.md#watch-handover, docs/architecture.md#cluster-checkpoint).
 */
import { randomUUID } from 'node:crypto';
import { getMaxListeners, setMaxListeners } from 'node:events';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { pumpCluster, type StreamResult } from '../../source/pump.js';
import { CONTROLLER_KINDS } from '../../controllers/kinds.js';
import type { ControllerKind } from '../../controllers/controller.js';
import { watchStreams, type WatchStream } from '../../source/watchSpec.js';
import { watchSlices, watchTrigger, type WatchFanOut } from '../../source/watchSlices.js';
import { systemClock } from '../../core/clock.js';
import type { EventPublisher } from '../../requests/index.js';
import { InvocationMetrics, meteredPublisher, noMetricsSink, withMetrics } from '../metrics.js';
import { METRIC } from '../../core/metrics.js';
import type { Runtime } from '../types.js';
import { errorMessage } from '../../core/errors.js';

/**
 * Time kept back from the Lambda deadline, ms: the pump aborts every watch this long before the function's timeout,
 * then publishes what is buffered, stores the resume points and releases the cluster's lease (a few DynamoDB and EventBridge
 * calls) — and a stalled watch is aborted here too, not lib/kube/watch.ts `CLIENT_GRACE_MS` after its `timeoutSeconds`.
 */
export const DEADLINE_MARGIN_MS = 8_000;

/**
 * How much longer than the invocation's remaining time a checkpoint lease runs, ms: covers clock differences
 * between Lambda hosts, so that a run killed before its release blocks the next run's takeover only until about
 * its own timeout (review finding 8; it was 60 s, which made a killed run block the next two).
 */
export const LEASE_SLACK_MS = 5_000;

/**
 * The pump's flush interval, ms: at most one flush (one EventBridge call) per stream per interval, a change after a
 * quiet interval published at once (lib/source/pump.ts, docs/architecture.md#watch-pump); one call a second at most
 * in Lambda. The embedded default has no per-call cost and passes a shorter one.
 */
export const DEFAULT_FLUSH_INTERVAL_MS = 1000;

/**
 * Connections to the clusters one Lambda invocation of the watch function opens at most: a Lambda function gets
 * 1,024 file descriptors, and the DynamoDB and EventBridge clients take theirs from the rest; past that, every
 * connect fails with EMFILE, checkpoint writes included. A cluster costs {@link connectionsPerCluster}: over HTTP/2, 8
 * (100 clusters a run), else 17, one per watch stream (47 clusters a run). A larger fleet is split into slices of
 * that many, one run each (lib/source/watchSlices.ts), or without a fan-out takes turns run by run (see
 * {@link clustersWithinBudget}).
 */
export const LAMBDA_CONNECTION_BUDGET = 800;

/**
 * Connections each cluster's request pool opens at most in the watch function (functions/watch.ts): its relists, the
 * LISTs of a take-over (every stream of a cluster at once) and mapped watches' reads wait for one of these, so that
 * a cluster costs a known number of descriptors.
 */
export const WATCH_POOL_SOCKETS = 7;

/**
 * The connections one cluster costs a watch run: with `http2`, the one HTTP/2 connection its watches share
 * (lib/kube/http2Session.ts) plus its capped request pool ({@link WATCH_POOL_SOCKETS}); else one per watch stream,
 * the pool's LISTs reusing the connections of watches the server ended (lib/kube/request.ts `connectionPool`). A
 * cluster whose API server does not take HTTP/2 costs its streams and its pool: a fleet behind such a proxy sets
 * `watchHttp2=false` (serverless.yml).
 * @param streams watch streams a cluster takes (every registered kind's)
 */
export function connectionsPerCluster(streams: number, http2: boolean): number {
  return http2 ? 1 + WATCH_POOL_SOCKETS : streams;
}

/** The clusters one run watches and those it leaves for a later one. */
export interface WatchShare {
  watched: string[];
  deferred: string[];
}

/**
 * Which clusters fit `budget` connections at `perCluster` each ({@link connectionsPerCluster}; at least one cluster,
 * however many it takes). Runs take turns: the run of minute m (`nowMs` / 60 s) begins `m × fit` clusters into `names` (wrapping), so
 * consecutive runs watch consecutive slices and every cluster is watched at least once in `ceil(names / fit)` runs.
 * A deferred cluster's changes wait in the API server's history and are delivered from its checkpoint when its turn
 * comes, or after a relist if the checkpoint expired meanwhile (etcd compacts after 5 minutes by default); the
 * resync reconciles every object every 5 minutes whatever the watch did.
 */
export function clustersWithinBudget(
  names: readonly string[],
  perCluster: number,
  budget: number,
  nowMs: number,
): WatchShare {
  const fit = Math.max(1, Math.floor(budget / Math.max(1, perCluster)));
  if (names.length <= fit) return { watched: [...names], deferred: [] };
  const start = (Math.floor(nowMs / 60_000) * fit) % names.length;
  const order = [...names.slice(start), ...names.slice(0, start)];
  return { watched: order.slice(0, fit), deferred: order.slice(fit) };
}

/** Limits of {@link watchHandler}. */
export interface WatchLimits {
  /**
   * Connections one run opens at most (default: the runtime's `watchConnectionBudget`, else
   * {@link LAMBDA_CONNECTION_BUDGET}; the embedded default: no limit).
   */
  connectionBudget?: number;
  /** The clock {@link clustersWithinBudget} takes turns by, epoch ms (default `Date.now`). */
  now?: () => number;
}

/**
 * Build the handler for a runtime.
 * @param signal ends the running watches early (the embedded default's stop); Lambda passes none
 * @param flushIntervalMs see {@link DEFAULT_FLUSH_INTERVAL_MS}
 * @param controllers whose watches to follow (default: the registry)
 * @param limits the connection budget of one run (clusters beyond it are logged, counted and left for a later run)
 * @returns per watched cluster, what each stream did
 */
export function watchHandler(
  getRuntime: () => Runtime,
  logger: Logger = new Logger({ serviceName: 'kruiseless' }),
  signal?: AbortSignal,
  flushIntervalMs = DEFAULT_FLUSH_INTERVAL_MS,
  controllers: readonly ControllerKind[] = CONTROLLER_KINDS,
  limits: WatchLimits = {},
) {
  const streams = watchStreams(controllers);
  const now = limits.now ?? Date.now;
  return async (
    event?: unknown,
    context?: Context | Pick<Context, 'awsRequestId' | 'getRemainingTimeInMillis'>,
  ): Promise<Record<string, StreamResult[]>> => {
    if (context && 'functionName' in context) logger.addContext(context);
    const trigger = watchTrigger(event);
    if (trigger.kind === 'invalid') {
      logger.error('watch slice event refused: nothing watched', { error: trigger.error });
      return {};
    }
    const runtime = getRuntime();
    const budget = limits.connectionBudget ?? runtime.watchConnectionBudget ?? LAMBDA_CONNECTION_BUDGET;
    const perCluster = connectionsPerCluster(streams.length, runtime.watchHttp2 === true);
    const holder = context?.awsRequestId ?? randomUUID();
    // the sources serve every controller: the metrics name the first (the only one today) as the dimension
    const recorder = new InvocationMetrics(controllers[0]?.name ?? 'none');
    const within = (names: readonly string[]): string[] => {
      const share = clustersWithinBudget(names, perCluster, budget, now());
      if (share.deferred.length > 0) {
        logger.error('watch connection budget reached: clusters left for a later run', {
          deferred: share.deferred,
          watched: share.watched.length,
          connectionsPerCluster: perCluster,
          connectionBudget: budget,
        });
        recorder.add(METRIC.watchClustersDeferred, share.deferred.length);
      }
      return share.watched;
    };
    return withMetrics(recorder, runtime.metrics ?? noMetricsSink, () =>
      pumpAll(
        runtime,
        streams,
        meteredPublisher(runtime.publisher, recorder),
        logger,
        context,
        holder,
        signal,
        flushIntervalMs,
        async () => {
          if (trigger.kind === 'slice') {
            logger.info('watch run started', {
              trigger: 'slice',
              clusters: trigger.detail.clusters,
              sentBy: trigger.detail.sentBy,
            });
            return within(trigger.detail.clusters);
          }
          const names = await runtime.clusterNames();
          const slices = watchSlices(names, perCluster, budget);
          const fanOut = runtime.watchFanOut;
          if (slices.length <= 1 || !fanOut) return within(names);
          await sendSlices(fanOut, slices, holder, logger, recorder);
          logger.info('watch run started', { trigger: 'scheduled', clusters: slices[0] });
          return slices[0] ?? [];
        },
      ),
    );
  };
}

/**
 * Puts the events of every slice but the first (the scheduled run's own) on the bus; logs and counts as deferred the
 * clusters of a slice not sent, and logs when the function's concurrency cannot hold the fleet's runs.
 */
async function sendSlices(
  fanOut: WatchFanOut,
  slices: readonly string[][],
  holder: string,
  logger: Logger,
  recorder: InvocationMetrics,
): Promise<void> {
  const unsent = await fanOut.send(slices.slice(1), holder);
  for (const u of unsent) {
    logger.error('watch slice not sent: its clusters wait for the next run', {
      clusters: u.clusters,
      error: u.error,
    });
    recorder.add(METRIC.watchClustersDeferred, u.clusters.length);
  }
  const sent = slices.length - 1 - unsent.length;
  recorder.add(METRIC.watchSlicesSent, sent);
  logger.info('watch fleet split into slices', {
    slices: slices.length,
    sent,
    clustersPerSlice: slices[0]?.length ?? 0,
  });
  const needed = 2 * slices.length;
  if (fanOut.concurrency !== undefined && fanOut.concurrency < needed)
    logger.error('watch concurrency too low for the fleet: some slices wait for a free run', {
      slices: slices.length,
      watchConcurrency: fanOut.concurrency,
      needed,
    });
}

/** One pump round over the clusters `clusters` gives, publishing through `publisher`, as `holder`. */
async function pumpAll(
  runtime: Runtime,
  streams: readonly WatchStream[],
  publisher: EventPublisher,
  logger: Logger,
  context: Pick<Context, 'getRemainingTimeInMillis'> | undefined,
  holder: string,
  signal: AbortSignal | undefined,
  flushIntervalMs: number,
  clusters: () => Promise<string[]>,
): Promise<Record<string, StreamResult[]>> {
  const remaining = context?.getRemainingTimeInMillis() ?? 60_000;
  const deadlineMs = Date.now() + remaining - DEADLINE_MARGIN_MS;
  const names = await clusters();
  // each cluster's pump puts one listener on the caller's signal (lib/source/pump.ts `pumpCluster`): a fleet of more
  // than Node's default 10 would be warned of as a leak
  if (signal) setMaxListeners(Math.max(getMaxListeners(signal), names.length + 10), signal);
  const results = await Promise.all(
    names.map(async (name) => {
      try {
        const { kc, kube } = await runtime.cluster(name);
        return [
          name,
          await pumpCluster(
            {
              cluster: name,
              kc,
              kube,
              watches: runtime.stores.watches,
              publisher,
              holder,
              clock: systemClock,
              deadlineMs,
              leaseDurationMs: remaining + LEASE_SLACK_MS,
              watchTimeoutSeconds: 50,
              flushIntervalMs,
              checkpointIntervalMs: 10_000,
              log: logger,
              ...(signal ? { signal } : {}),
            },
            streams,
          ),
        ] as const;
      } catch (e) {
        logger.error('watch pump failed', { cluster: name, error: errorMessage(e) });
        return [name, []] as const;
      }
    }),
  );
  const out: Record<string, StreamResult[]> = Object.fromEntries(
    results.map(([name, streamResults]): [string, StreamResult[]] => [name, [...streamResults]]),
  );
  logger.info('watch pump finished', { clusters: out });
  return out;
}
