/**
 * The `resync` handler (scheduled every 5 minutes, 60 s timeout, no retry: serverless.yml): one reconcile request for
 * every object of every registered controller in every registered cluster, so the system converges even if every
 * other event were lost. The clusters are resynced {@link RESYNC_CLUSTER_CONCURRENCY} at a time inside the
 * invocation's time budget (review finding 9): none is started in the last {@link RESYNC_START_MARGIN_MS}, the handler
 * returns {@link RESYNC_END_MARGIN_MS} before the deadline at the latest, starting from a random cluster
 * ({@link resyncOrder}), and each cluster it failed, did not reach
 * or did not finish is logged on its own line and counted (`kruiseless_resync_clusters_missed_total`). A controller
 * whose CRD a cluster lacks is idle there (lib/source/idle.ts).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { CONTROLLER_KINDS } from '../../controllers/kinds.js';
import type { ControllerKind } from '../../controllers/controller.js';
import { runBounded } from '../../core/bounded.js';
import { errorMessage } from '../../core/errors.js';
import { METRIC } from '../../core/metrics.js';
import { resyncCluster } from '../../source/resync.js';
import { InvocationMetrics, meteredPublisher, noMetricsSink, withMetrics } from '../metrics.js';
import type { Runtime } from '../types.js';

/**
 * Clusters resynced at once: each is a few sequential calls (GetItem, token, LIST, PutEvents), so 8 in flight cover
 * 60 clusters of about a second each in 8 s while keeping the EventBridge PutEvents rate far below its quota.
 */
export const RESYNC_CLUSTER_CONCURRENCY = 8;

/** No cluster is started later than this before the invocation's deadline, ms: room for the ones already running. */
export const RESYNC_START_MARGIN_MS = 10_000;

/**
 * The handler returns this long before the invocation's deadline at the latest, ms, reporting the clusters still
 * running as not finished (they may have published part of their requests; the next resync covers the rest).
 */
export const RESYNC_END_MARGIN_MS = 3_000;

/** The invocation's time when Lambda gives no context (tests, scripts), ms: serverless.yml's `timeout: 60`. */
const DEFAULT_BUDGET_MS = 60_000;

/** What one resync invocation did. */
export interface ResyncSummary {
  /** Objects resynced per cluster that finished, over every controller, in cluster order. */
  resynced: Record<string, number>;
  /** Clusters whose resync failed (each logged with its error). */
  failed: string[];
  /** Clusters never started: the start deadline had passed (each logged). */
  notReached: string[];
  /** Clusters still running when the handler returned (each logged). */
  notFinished: string[];
}

/**
 * The order in which an invocation starts the clusters: `names` rotated to begin at a random one, so that when the
 * budget does not reach them all, the clusters left out differ from one resync to the next instead of always being
 * the last in name order.
 * @param random uniform in [0, 1)
 * @returns a new array
 */
export function resyncOrder(names: readonly string[], random: number): string[] {
  const start = Math.min(names.length - 1, Math.floor(random * names.length));
  return start <= 0 ? [...names] : [...names.slice(start), ...names.slice(0, start)];
}

/**
 * The event of a resync that asks for every object, whatever a controller's `needsResync` says (lib/source/resync.ts
 * `everyObject`): the embedded runtime's first round after a start, since its wake-up timers died with the last
 * process. The scheduled rule's events (EventBridge's `Scheduled Event`) never carry it: on AWS the wake-ups are
 * EventBridge Scheduler schedules and outlive any invocation.
 */
export const EVERY_OBJECT_RESYNC = { everyObject: true } as const;

/** Whether `event` is {@link EVERY_OBJECT_RESYNC}. */
function asksEveryObject(event: unknown): boolean {
  return (event as { everyObject?: unknown } | null | undefined)?.everyObject === true;
}

/**
 * Build the handler for a runtime.
 * @param controllers whose objects to resync (default: the registry)
 * @param random where {@link resyncOrder} begins (default `Math.random`)
 * @returns the handler; it never throws for a cluster (see {@link ResyncSummary}), only when the cluster names cannot
 *   be read
 */
export function resyncHandler(
  getRuntime: () => Runtime,
  logger: Logger = new Logger({ serviceName: 'kruiseless' }),
  controllers: readonly ControllerKind[] = CONTROLLER_KINDS,
  random: () => number = Math.random,
) {
  return async (
    event?: unknown,
    context?: Context | Pick<Context, 'awsRequestId' | 'getRemainingTimeInMillis'>,
  ): Promise<ResyncSummary> => {
    if (context && 'functionName' in context) logger.addContext(context);
    const runtime = getRuntime();
    // the sources serve every controller: the metrics name the first (the only one today) as the dimension
    const recorder = new InvocationMetrics(controllers[0]?.name ?? 'none');
    const publisher = meteredPublisher(runtime.publisher, recorder);
    return withMetrics(recorder, runtime.metrics ?? noMetricsSink, async () => {
      const started = Date.now();
      const budget = context?.getRemainingTimeInMillis() ?? DEFAULT_BUDGET_MS;
      const startBy = started + budget - RESYNC_START_MARGIN_MS;
      const everyObject = asksEveryObject(event);
      const endBy = started + budget - RESYNC_END_MARGIN_MS;
      const names = await runtime.clusterNames();
      const resynced = new Map<string, number>();
      const failed = new Set<string>();
      const running = new Set<string>();
      let leftToWakeUp = 0;
      let returned = false;
      const work = runBounded(
        resyncOrder(names, random()),
        RESYNC_CLUSTER_CONCURRENCY,
        async (name) => {
          if (returned || Date.now() >= startBy) return;
          running.add(name);
          try {
            const { kube } = await runtime.cluster(name);
            const { objects, leftToWakeUp: left } = await resyncCluster(
              name,
              kube,
              publisher,
              controllers,
              logger,
              { everyObject },
            );
            leftToWakeUp += Object.values(left).reduce((a, b) => a + b, 0);
            resynced.set(
              name,
              Object.values(objects).reduce((a, b) => a + b, 0),
            );
          } catch (e) {
            failed.add(name);
            logger.error('resync failed', { cluster: name, error: errorMessage(e) });
          } finally {
            running.delete(name);
          }
        },
        false,
      );
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        work,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, endBy - Date.now())))),
      ]);
      clearTimeout(timer);
      returned = true;
      const summary: ResyncSummary = {
        resynced: Object.fromEntries(
          names.filter((n) => resynced.has(n)).map((n) => [n, resynced.get(n) ?? 0]),
        ),
        failed: names.filter((n) => failed.has(n)),
        notReached: names.filter((n) => !resynced.has(n) && !failed.has(n) && !running.has(n)),
        notFinished: names.filter((n) => running.has(n)),
      };
      for (const cluster of summary.notReached) logger.error('resync did not reach cluster', { cluster });
      for (const cluster of summary.notFinished) logger.error('resync did not finish cluster', { cluster });
      recorder.add(METRIC.resyncClustersMissed, summary.failed.length, { reason: 'failed' });
      recorder.add(METRIC.resyncClustersMissed, summary.notReached.length, { reason: 'not_reached' });
      recorder.add(METRIC.resyncClustersMissed, summary.notFinished.length, { reason: 'not_finished' });
      logger.info('resync finished', {
        clusters: names.length,
        resynced: summary.resynced,
        failed: summary.failed,
        notReached: summary.notReached.length,
        notFinished: summary.notFinished,
        leftToWakeUp,
        ...(everyObject ? { everyObject } : {}),
      });
      return summary;
    });
  };
}
