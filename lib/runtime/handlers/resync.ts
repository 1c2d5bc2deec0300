/**
 * The `resync` handler (scheduled): one reconcile request for every object of every registered controller in every
 * registered cluster, so the system converges even if every other event were lost. A cluster that fails is logged
 * and skipped; a controller whose CRD a cluster lacks is idle there (lib/source/idle.ts).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { CONTROLLER_KINDS } from '../../controllers/kinds.js';
import type { ControllerKind } from '../../controllers/controller.js';
import { resyncCluster } from '../../source/resync.js';
import type { Context } from 'aws-lambda';
import { InvocationMetrics, meteredPublisher, noMetricsSink, withMetrics } from '../metrics.js';
import type { Runtime } from '../types.js';

/**
 * Build the handler for a runtime.
 * @returns objects resynced per cluster, over every controller (-1 for a failed cluster)
 */
export function resyncHandler(
  getRuntime: () => Runtime,
  logger: Logger = new Logger({ serviceName: 'kruiseless' }),
  controllers: readonly ControllerKind[] = CONTROLLER_KINDS,
) {
  return async (_event?: unknown, context?: Context): Promise<Record<string, number>> => {
    if (context) logger.addContext(context);
    const runtime = getRuntime();
    // the sources serve every controller: the metrics name the first (the only one today) as the dimension
    const recorder = new InvocationMetrics(controllers[0]?.name ?? 'none');
    const publisher = meteredPublisher(runtime.publisher, recorder);
    return withMetrics(recorder, runtime.metrics ?? noMetricsSink, async () => {
      const out: Record<string, number> = {};
      for (const name of await runtime.clusterNames()) {
        try {
          const { kube } = await runtime.cluster(name);
          const { objects } = await resyncCluster(name, kube, publisher, controllers, logger);
          out[name] = Object.values(objects).reduce((a, b) => a + b, 0);
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
