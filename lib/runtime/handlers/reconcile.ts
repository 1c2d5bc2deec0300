/**
 * The `reconcile` handler (EventBridge target): one object key per invocation, dispatched by `request.kind` to its
 * registered controller (lib/controllers). A malformed event, or one of a kind this deployment does not reconcile
 * (no registration), is logged and rethrown,
 * so Lambda's async retries end in the dead-letter queue; nothing else is touched.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { correlationIdsOf, parseReconcileEvent, type ReconcileRequest } from '../../requests/index.js';
import { CONTROLLERS, controllerByKind, kindsOf } from '../../controllers/index.js';
import type { Controller } from '../../controllers/controller.js';
import { systemClock } from '../../core/clock.js';
import { controllerNameOf, objectKeyText } from '../../core/objectKey.js';
import { withKeys, type Logger as CoreLogger } from '../../core/logger.js';
import type { LeaseFailure, ReconcileOutcome } from '../../reconcile/reconcile.js';
import { executionHolder } from '../../reconcile/holder.js';
import { InvocationMetrics, noMetricsSink, recordReconcile, withMetrics } from '../metrics.js';
import type { Runtime } from '../types.js';

/** Summary returned by the handler (visible in Lambda's async destinations and in tests). */
export interface ReconcileSummary {
  /** The object key as lib/core/objectKey.ts `objectKeyText` renders it. */
  key: string;
  result: string;
  passes: number;
  writes: number;
  requeuedAfterSeconds?: number;
  /** The object's own wake-up set or removed (an AdvancedCronJob's next run, docs/architecture.md#wake-up). */
  wakeUp?: 'set' | 'cancelled';
  /** The pass budget ran out with events marked, handed to a fresh invocation on the bus at once. */
  handedOff?: true;
  error?: string;
  /** Consecutive failed passes of the object after this invocation (docs/reliability.md#backoff). */
  failures?: number;
  /** The lease call that failed in DynamoDB, if one did (the invocation requeued instead of throwing). */
  leaseFailure?: LeaseFailure;
}

/** Time kept back from the Lambda deadline to release the lease and log, ms. */
const DEADLINE_MARGIN_MS = 10_000;
/**
 * How often a wait slept inside the invocation looks at the lease's dirty flag, ms (lib/reconcile/reconcile.ts
 * `dirtyPollMs`): an event arriving meanwhile reaches the next pass within this time. Each poll is one strongly
 * consistent GetItem (1 read unit), so a 2 s wait costs at most 8 read units, and a write only when marked.
 */
const DIRTY_POLL_MS = 250;

/** The Lambda context fields the handler reads; a full `Context` also sets the logger's cold start and request id. */
export type ReconcileContext = Context | Pick<Context, 'awsRequestId' | 'getRemainingTimeInMillis'>;

/**
 * Build the handler for a runtime (AWS in Lambda, in-process in the embedded default). Every log line of an
 * invocation carries `key` (the object key's text) and `correlation_id` (the request's first correlation id, else the EventBridge
 * event id; `correlationIds` lists all of them when coalescing merged several), through a logger of its own, so
 * concurrent invocations sharing `logger` never mix keys. Metrics go to `runtime.metrics` when it ends, with the
 * `controller` dimension of the request's kind ({@link controllerNameOf}).
 * @throws InvalidEventError for a malformed event; UnknownClusterError; state-store errors outside the reconcile loop
 *   (the loop backs off from DynamoDB failures instead, lease calls included: docs/reliability.md#backoff)
 */
export function reconcileHandler(
  getRuntime: () => Runtime,
  logger: Logger = new Logger({ serviceName: 'kruiseless' }),
  controllers: readonly Controller[] = CONTROLLERS,
) {
  const kinds = kindsOf(controllers);
  return async (event: unknown, context?: ReconcileContext): Promise<ReconcileSummary> => {
    if (context && 'functionName' in context) logger.addContext(context);
    let request;
    try {
      request = parseReconcileEvent(event, kinds);
    } catch (e) {
      logger.error('rejected reconcile event', { error: (e as Error).message, event });
      throw e;
    }
    const runtime = getRuntime();
    const key = objectKeyText(request);
    const ids = correlationIdsOf(request, eventIdOf(event));
    const log = withKeys(logger, {
      key,
      ...(ids[0] !== undefined ? { correlation_id: ids[0] } : {}),
      ...(ids.length > 1 ? { correlationIds: ids } : {}),
    });
    const recorder = new InvocationMetrics(
      controllerByKind(request.kind, controllers)?.name ?? controllerNameOf(request.kind),
    );
    recorder.property('key', key);
    recorder.property('reason', request.reason);
    if (ids.length > 0) recorder.property('correlationIds', ids);
    const started = performance.now();
    const parsed = request;
    return withMetrics(recorder, runtime.metrics ?? noMetricsSink, async () => {
      let outcome: ReconcileOutcome | undefined;
      try {
        outcome = await reconcileOnce(runtime, controllers, parsed, log, context);
      } finally {
        recordReconcile(recorder, {
          failed: outcome === undefined || outcome.error !== undefined,
          deferred: outcome?.result === 'deferred',
          ...(outcome?.requeuedAfterSeconds !== undefined
            ? { requeuedAfterSeconds: outcome.requeuedAfterSeconds }
            : {}),
          ...(outcome?.leaseFailure ? { leaseFailure: outcome.leaseFailure } : {}),
          seconds: (performance.now() - started) / 1000,
        });
      }
      const summary: ReconcileSummary = {
        key,
        result: outcome.result,
        passes: outcome.passes,
        writes: outcome.writes,
        ...(outcome.requeuedAfterSeconds !== undefined
          ? { requeuedAfterSeconds: outcome.requeuedAfterSeconds }
          : {}),
        ...(outcome.wakeUp ? { wakeUp: outcome.wakeUp } : {}),
        ...(outcome.handedOff ? { handedOff: true as const } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
        ...(outcome.failures ? { failures: outcome.failures } : {}),
        ...(outcome.leaseFailure ? { leaseFailure: outcome.leaseFailure } : {}),
      };
      log.info('reconcile finished', { ...summary });
      return summary;
    });
  };
}

/** The `id` of an EventBridge envelope, if `event` has one. */
function eventIdOf(event: unknown): string | undefined {
  const id = (event as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * One reconcile of the request's controller with the runtime's adapters, its settings and the invocation's time
 * budget.
 * @throws Error when no controller of `controllers` reconciles the kind (the parser already refused it)
 */
async function reconcileOnce(
  runtime: Runtime,
  controllers: readonly Controller[],
  request: ReconcileRequest,
  log: CoreLogger,
  context: ReconcileContext | undefined,
): Promise<ReconcileOutcome> {
  const controller = controllerByKind(request.kind, controllers);
  if (!controller) throw new Error(`no controller reconciles ${request.kind}`);
  const { kube } = await runtime.cluster(request.cluster);
  const remaining = context?.getRemainingTimeInMillis() ?? 120_000;
  return controller.reconcile(
    {
      kube,
      leases: runtime.stores.leases,
      expectations: runtime.stores.expectations,
      ledger: runtime.stores.ledger,
      requeue: runtime.requeue,
      log,
      // one holder per execution: Lambda may run one request id twice at once (review finding 3)
      holder: executionHolder(context?.awsRequestId ?? randomUUID(), randomUUID()),
      clock: systemClock,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      deadlineMs: Date.now() + remaining - DEADLINE_MARGIN_MS,
      leaseDurationMs: remaining + 60_000,
      maxInlineWaitSeconds: 10,
      maxPasses: 20,
      dirtyPollMs: DIRTY_POLL_MS,
      handOff: async (next) => void (await runtime.publisher.publish([next])),
      ...(runtime.writeConcurrency ? { writeConcurrency: runtime.writeConcurrency } : {}),
      ...(runtime.backoff ? { backoff: runtime.backoff } : {}),
    },
    request,
    runtime.settings?.[controller.name] ?? controller.settings.defaults,
  );
}
