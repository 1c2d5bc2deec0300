/**
 * The `reconcile` handler (EventBridge target): one CloneSet key per invocation ({@link reconcileCloneSet}). A malformed or unknown
 * event is logged and rethrown, so Lambda's async retries end in the dead-letter queue; nothing else is touched.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { parseReconcileEvent } from '../../events/index.js';
import { systemClock } from '../../core/clock.js';
import { cloneSetKeyText } from '../../core/cloneSetKey.js';
import { reconcileCloneSet } from '../../reconcile/reconcile.js';
import type { Runtime } from '../types.js';

/** Summary returned by the handler (visible in Lambda's async destinations and in tests). */
export interface ReconcileSummary {
  key: string;
  result: string;
  passes: number;
  writes: number;
  requeuedAfterSeconds?: number;
  error?: string;
  /** Consecutive failed passes of the CloneSet after this invocation (docs/reliability.md#backoff). */
  failures?: number;
}

/** Time kept back from the Lambda deadline to release the lease and log, ms. */
const DEADLINE_MARGIN_MS = 10_000;

/**
 * Build the handler for a runtime (AWS in Lambda, in-process in the embedded default).
 * @throws InvalidEventError for a malformed event; UnknownClusterError; state-store errors
 */
export function reconcileHandler(
  getRuntime: () => Runtime,
  logger: Logger = new Logger({ serviceName: 'kruiseless' }),
) {
  return async (event: unknown, context?: Pick<Context, 'awsRequestId' | 'getRemainingTimeInMillis'>) => {
    let request;
    try {
      request = parseReconcileEvent(event);
    } catch (e) {
      logger.error('rejected reconcile event', { error: (e as Error).message, event });
      throw e;
    }
    const runtime = getRuntime();
    const { kube } = await runtime.cluster(request.cluster);
    const remaining = context?.getRemainingTimeInMillis() ?? 120_000;
    const key = cloneSetKeyText(request);
    logger.appendKeys({ cloneSet: key });
    try {
      const outcome = await reconcileCloneSet(
        {
          kube,
          leases: runtime.stores.leases,
          expectations: runtime.stores.expectations,
          ledger: runtime.stores.ledger,
          requeue: runtime.requeue,
          log: logger,
          holder: context?.awsRequestId ?? randomUUID(),
          clock: systemClock,
          sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
          deadlineMs: Date.now() + remaining - DEADLINE_MARGIN_MS,
          leaseDurationMs: remaining + 60_000,
          maxInlineWaitSeconds: 10,
          maxPasses: 20,
          ...(runtime.plannerOptions ? { options: runtime.plannerOptions } : {}),
          ...(runtime.writeConcurrency ? { writeConcurrency: runtime.writeConcurrency } : {}),
          ...(runtime.backoff ? { backoff: runtime.backoff } : {}),
        },
        request,
      );
      const summary: ReconcileSummary = {
        key,
        result: outcome.result,
        passes: outcome.passes,
        writes: outcome.writes,
        ...(outcome.requeuedAfterSeconds !== undefined
          ? { requeuedAfterSeconds: outcome.requeuedAfterSeconds }
          : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
        ...(outcome.failures ? { failures: outcome.failures } : {}),
      };
      logger.info('reconcile finished', { ...summary });
      return summary;
    } finally {
      logger.removeKeys(['cloneSet']);
    }
  };
}
