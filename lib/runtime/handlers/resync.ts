/**
 * The `resync` handler (scheduled): one reconcile request for every CloneSet of every registered cluster, so the system converges even if every other event were lost. A cluster that fails is logged and skipped.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { CLONESET_KIND } from '../../api/kinds.js';
import { controllerNameOf } from '../../core/objectKey.js';
import { resyncCluster } from '../../source/resync.js';
import type { Context } from 'aws-lambda';
import { InvocationMetrics, meteredPublisher, noMetricsSink, withMetrics } from '../metrics.js';
import type { Runtime } from '../types.js';

/** Build the handler for a runtime. @returns CloneSets resynced per cluster (-1 for a failed cluster) */
export function resyncHandler(
  getRuntime: () => Runtime,
  logger: Logger = new Logger({ serviceName: 'kruiseless' }),
) {
  return async (_event?: unknown, context?: Context): Promise<Record<string, number>> => {
    if (context) logger.addContext(context);
    const runtime = getRuntime();
    // the sources serve the one controller of lib/api/kinds.ts; with a registry, each watch names its own
    const recorder = new InvocationMetrics(controllerNameOf(CLONESET_KIND));
    const publisher = meteredPublisher(runtime.publisher, recorder);
    return withMetrics(recorder, runtime.metrics ?? noMetricsSink, async () => {
      const out: Record<string, number> = {};
      for (const name of await runtime.clusterNames()) {
        try {
          const { kube } = await runtime.cluster(name);
          const { cloneSets } = await resyncCluster(name, kube, publisher);
          out[name] = cloneSets;
        } catch (e) {
          logger.error('resync failed', { cluster: name, error: (e as Error).message });
          out[name] = -1;
        }
      }
      logger.info('resync finished', { clusters: out });
      return out;
    });
  };
}
