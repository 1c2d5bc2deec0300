/**
 * The embedded default (`kruiseless local`): the same handlers as in Lambda (lib/runtime/handlers) on the embedded
 * runtime (lib/runtime/embedded.ts), wired in-process to the emulator — DynamoDB served by dynalite on loopback, the
 * in-process bus routing by the rules declared in serverless.yml, local timers for requeues — against any
 * kubeconfig. Runs until stopped.
 */
import { readFileSync } from 'node:fs';
import { Logger } from '@aws-lambda-powertools/logger';
import {
  LocalBus,
  LocalRequeueScheduler,
  bindServerlessRules,
  loadRulesFromServerless,
  type DeadLetter,
} from '../emulator/index.js';
import { createKubeClient, kubeConfigFromFile } from '../kube/index.js';
import { createStateStores, ensureTable } from '../state/index.js';
import { embeddedRuntime } from '../runtime/embedded.js';
import { reconcileHandler } from '../runtime/handlers/reconcile.js';
import { watchHandler } from '../runtime/handlers/watch.js';
import type { Runtime } from '../runtime/types.js';
import { countDynamo, countingKube, type CallCounts } from '../runtime/counting.js';
import { startDynalite } from '../emulator/dynalite.js';
import type { PlannerOptions } from '../cloneset/index.js';

/** Options of {@link startEmbedded}. */
export interface EmbeddedOptions {
  /** kubeconfig file of the cluster to serve. */
  kubeconfig: string;
  /** Cluster name used in keys and logs (default `local`). */
  clusterName?: string;
  /** Logger for the handlers (default: Powertools JSON to stdout at INFO). */
  logger?: Logger;
  /** serverless.yml whose eventBridge rules the bus uses (default: the repository's). */
  serverlessYml?: string;
  /** Feature gates and controller flags for the planner (default: OpenKruise's defaults). */
  plannerOptions?: Readonly<Partial<PlannerOptions>>;
  /** Table name in dynalite (default `kruiseless-local`). */
  tableName?: string;
}

/** A running embedded default. */
export interface Embedded {
  runtime: Runtime;
  bus: LocalBus;
  counts: CallCounts;
  /** Events that exhausted their retries (the local dead-letter queue). */
  deadLetters: () => readonly DeadLetter[];
  /** Wait until the bus is idle (every published event delivered and handled). */
  drain: () => Promise<void>;
  /** Stop the watch pump, timers and dynalite. */
  stop: () => Promise<void>;
}

const REPO_SERVERLESS_YML = new URL('../../serverless.yml', import.meta.url);

/** The watch pump's flush interval in the embedded default, ms (no per-publish cost here). */
const LOCAL_FLUSH_INTERVAL_MS = 50;

/**
 * Start the embedded default. The watch pump runs in the background (one-minute rounds, like the scheduled Lambda)
 * until {@link Embedded.stop}.
 * @throws Error when the kubeconfig cannot be loaded or dynalite cannot start
 */
export async function startEmbedded(opts: EmbeddedOptions): Promise<Embedded> {
  const clusterName = opts.clusterName ?? 'local';
  const logger = opts.logger ?? new Logger({ serviceName: 'kruiseless' });
  const counts: CallCounts = { kube: {}, dynamo: {}, dynamoWatch: {} };
  const dynalite = await startDynalite();
  const client = dynalite.client();
  countDynamo(client, counts, 'dynamo');
  const tableName = opts.tableName ?? 'kruiseless-local';
  await ensureTable(client, tableName);
  // the watch pump's checkpoints go through their own client, so the reconcilers' operations are counted apart
  const watchClient = dynalite.client();
  countDynamo(watchClient, counts, 'dynamoWatch');
  const stores = {
    ...createStateStores({ client, tableName }),
    watches: createStateStores({ client: watchClient, tableName }).watches,
  };
  const kc = kubeConfigFromFile(opts.kubeconfig);
  const kube = countingKube(createKubeClient(kc, { logger }), counts);

  // handlers reach the runtime lazily (it is complete before the first event can arrive)
  const getRuntime = (): Runtime => runtime;
  const reconcile = reconcileHandler(getRuntime, logger);
  const rules = bindServerlessRules(
    loadRulesFromServerless(opts.serverlessYml ?? readFileSync(REPO_SERVERLESS_YML, 'utf8')),
    {
      reconcile: async (event) => {
        await reconcile(event);
      },
    },
  );
  const bus = new LocalBus({
    rules,
    onDeadLetter: (event, error, ruleName) => {
      logger.error('event moved to the dead-letter queue', {
        rule: ruleName,
        error: error instanceof Error ? error.message : String(error),
        event,
      });
    },
  });
  const requeue = new LocalRequeueScheduler({ publisher: bus });
  const runtime = embeddedRuntime({
    stores,
    publisher: bus,
    requeue,
    cluster: { name: clusterName, kc, kube },
    ...(opts.plannerOptions ? { plannerOptions: opts.plannerOptions } : {}),
  });

  const aborter = new AbortController();
  // events reach the bus within 50 ms, as an in-cluster controller's informer would hand them over
  const watch = watchHandler(getRuntime, logger, aborter.signal, LOCAL_FLUSH_INTERVAL_MS);
  let stopped = false;
  let stopping: Promise<void> | undefined;
  const pumping = (async () => {
    while (!stopped) {
      const started = Date.now();
      await watch(undefined, {
        awsRequestId: `local-${started}`,
        getRemainingTimeInMillis: () => Math.max(0, started + 70_000 - Date.now()),
      }).catch((e: unknown) => logger.error('watch pump round failed', { error: (e as Error).message }));
      if (!stopped && Date.now() - started < 1000) await new Promise((r) => setTimeout(r, 1000));
    }
  })();

  return {
    runtime,
    bus,
    counts,
    deadLetters: () => [...bus.deadLetters],
    drain: () => bus.drain(),
    stop() {
      stopping ??= (async () => {
        stopped = true;
        aborter.abort();
        requeue.close();
        await pumping;
        await bus.drain().catch(() => undefined);
        await dynalite.close();
      })();
      return stopping;
    },
  };
}
