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
  loadSchedulesFromServerless,
  type DeadLetter,
  type ServerlessSchedule,
} from '../emulator/index.js';
import { createKubeClient, kubeConfigFromFile, type RetryOptions } from '../kube/index.js';
import { createStateStores, ensureTable } from '../state/index.js';
import { embeddedRuntime } from '../runtime/embedded.js';
import { reconcileHandler } from '../runtime/handlers/reconcile.js';
import { watchHandler } from '../runtime/handlers/watch.js';
import { EVERY_OBJECT_RESYNC, resyncHandler } from '../runtime/handlers/resync.js';
import type { Runtime } from '../runtime/types.js';
import { recordApiRequest, type MetricsSink } from '../runtime/metrics.js';
import { countDynamo, countingKube, type CallCounts } from '../runtime/counting.js';
import { startDynalite } from '../emulator/dynalite.js';
import { localDynamo } from '../emulator/localDynamo.js';
import type { PlannerOptions } from '../controllers/cloneset/plan/index.js';
import { cloneSet } from '../controllers/cloneset/index.js';
import type { BackoffSettings } from '../reconcile/backoff.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { exponentialDelay } from '../core/backoff.js';
import { errorMessage } from '../core/errors.js';
import { admissionMutators } from '../controllers/mutations.js';
import { admissionValidators, clusterValidationReads } from '../controllers/validations.js';
import { answerPodMutationReview } from '../api/admission/podMutation.js';
import { podMutationSteps } from '../controllers/podMutations.js';
import { podValidation } from '../controllers/podValidations.js';
import type { PubSettings } from '../controllers/podunavailablebudget/settings.js';
import {
  LOCAL_MUTATING_WEBHOOK,
  LOCAL_VALIDATING_WEBHOOK,
  unregisterMutatingWebhook,
  unregisterValidatingWebhook,
  registerMutatingWebhook,
  registerValidatingWebhook,
} from './mutatingWebhook.js';
import {
  pointCrdsAtConverter,
  releaseCrdsFromConverter,
  startConversionServer,
  type ConversionServer,
  type ConversionServerOptions,
} from './conversionServer.js';
import { namespaceSelectorFor, servedNamespaces } from './webhookScope.js';

/** Options of {@link startEmbedded}. */
export interface EmbeddedOptions {
  /** kubeconfig file of the cluster to serve. */
  kubeconfig: string;
  /** Cluster name used in keys and logs (default `local`). */
  clusterName?: string;
  /**
   * More clusters to serve, each a name (keys, leases, logs) and a kubeconfig file: their watch streams, resync and
   * reconciles run beside the first cluster's in this process, as one AWS deployment serves its registry's clusters
   * (the bench's fleet, bench/scenarios/fleet.ts). The webhooks and the conversion serve the first cluster only.
   * Default none.
   */
  moreClusters?: readonly { name: string; kubeconfig: string }[];
  /** Logger for the handlers (default: Powertools JSON to stdout at INFO). */
  logger?: Logger;
  /**
   * serverless.yml whose eventBridge rules the bus uses and whose `resync` schedule the resync runs on (default: the
   * repository's: every 5 minutes). A text that declares no schedule for `resync` runs no resync. When every rule
   * names the namespaces it serves (`detail.namespace`), the webhooks registered with {@link conversion} see only
   * those namespaces (./webhookScope.ts).
   */
  serverlessYml?: string;
  /** Each controller's settings by name (lib/runtime/config.ts `controllerSettings`; default: OpenKruise's). */
  settings?: Readonly<Record<string, unknown>>;
  /** The CloneSet controller's settings alone (feature gates and flags for its planner), when `settings` is absent. */
  plannerOptions?: Readonly<Partial<PlannerOptions>>;
  /** Retry schedule after failed writes (default: `DEFAULT_BACKOFF`, docs/reliability.md#backoff). */
  backoff?: Readonly<BackoffSettings>;
  /** Table name in dynalite (default `kruiseless-local`). */
  tableName?: string;
  /**
   * A DynamoDB endpoint that outlives this process (e.g. `http://127.0.0.1:8000`, a dynalite the caller runs),
   * used instead of starting dynalite in-process: a restarted `kruiseless local` then finds the leases,
   * expectations, ledgers and watch checkpoints its killed predecessor left (test/faults). The table is created
   * when missing; {@link Embedded.stop} does not stop that server.
   */
  dynamoEndpoint?: string;
  /**
   * Where handler metrics go: nowhere by default (no EMF here); a `MemoryMetrics` to read them, or an `emfSink`
   * to print what the Lambda functions would (README.md#observability).
   */
  metrics?: MetricsSink;
  /**
   * The API-server client's retries (default lib/kube/request.ts `DEFAULT_RETRY`: 4, about 3 to 6 s in all). A test
   * of rounds that fail passes `{ retries: 0 }`, so that a stream's first LIST (its relist) fails at once.
   */
  kubeRetry?: RetryOptions;
  /**
   * Serve the CRD conversion webhook (./conversionServer.ts) and point the CRDs of lib/controllers/conversions.ts
   * that the cluster has at it (Advanced StatefulSet: v1alpha1 reads and writes convert through it; CloneSet:
   * v1beta1 ones, its v1beta1 taking OpenKruise's shape). Off unless given; `kruiseless local` turns it on.
   * {@link Embedded.stop} puts the CloneSet CRD back to no conversion (v1beta1 an alias of v1alpha1 again,
   * README.md#cloneset-versions); the Advanced StatefulSet CRD keeps pointing at it: reads of its non-storage
   * version fail until it serves again (README.md#advanced-statefulset-versions).
   */
  conversion?: ConversionServerOptions;
  /**
   * With {@link conversion}: also serve `/mutate-pod` (WorkloadSpread, then SidecarSet injection) and `/validate-pod` (PodUnavailableBudget
   * on pod deletes and evictions) and register them, `failurePolicy: Fail` (README.md#sidecarset-injection; the second
   * within the validating configuration, so only with {@link validatingWebhook}). Default true;
   * `kruiseless local --no-pod-webhook` turns both off.
   */
  podWebhook?: boolean;
  /**
   * With {@link conversion}: register `/validate` (OpenKruise's validation of the workloads at admission,
   * `failurePolicy: Ignore`). Default true; false leaves invalid objects to the controllers' `FailedValidation`.
   */
  validatingWebhook?: boolean;
}

/** A running embedded default. */
export interface Embedded {
  runtime: Runtime;
  bus: LocalBus;
  counts: CallCounts;
  /**
   * Where the state lives, for `kruiseless plan|why --dynamodb-endpoint <endpoint> --table <tableName>
   * --cluster-name <clusterName>` (docs/cli.md#connection).
   */
  state: { endpoint: string; tableName: string; clusterName: string };
  /**
   * The conversion webhook, when {@link EmbeddedOptions.conversion} was given, and the CRDs pointed at it (none when
   * the patch failed: 3 attempts of at most 5 s at start, then a warning; the server serves anyway).
   */
  conversion?: ConversionServer & { crds: string[] };
  /** Events that exhausted their retries (the local dead-letter queue). */
  deadLetters: () => readonly DeadLetter[];
  /** Wait until the bus is idle (every published event delivered and handled). */
  drain: () => Promise<void>;
  /**
   * The resync's schedule as serverless.yml declares it for the `resync` function (period and timeout), when it
   * declares one: the resync runs once at start and then on that period.
   */
  resync?: ServerlessSchedule;
  /** Stop the watch pump, the resync, timers, the conversion webhook and dynalite. */
  stop: () => Promise<void>;
}

const REPO_SERVERLESS_YML = new URL('../../serverless.yml', import.meta.url);

/** Retries of the CRD conversion patch at start: 2, from 200 ms (lib/kube/request.ts `RetryOptions`). */
const CRD_PATCH_RETRY = { retries: 2, minTimeoutMs: 200 };
/** Deadline of one attempt of the CRD conversion patch, ms. */
const CRD_PATCH_TIMEOUT_MS = 5_000;

/** Retries of the pod webhook's reads (SidecarSets, the namespace): 1, from 100 ms. */
const POD_WEBHOOK_READ_RETRY = { retries: 1, minTimeoutMs: 100 };
/** Deadline of one pod-webhook read, ms: two attempts fit in the API server's 5 s webhook timeout. */
const POD_WEBHOOK_READ_TIMEOUT_MS = 2_000;

/** The watch pump's flush interval in the embedded default, ms (no per-publish cost here). */
const LOCAL_FLUSH_INTERVAL_MS = 50;

/** The serverless.yml function whose schedule the embedded resync follows. */
const RESYNC_FUNCTION = 'resync';

/** The serverless.yml function the reconcile requests' rule routes to (the webhooks serve its namespaces). */
const RECONCILE_FUNCTION = 'reconcile';

/**
 * Start the embedded default. The watch pump runs in the background (one round after the other, each as long as the
 * scheduled Lambda's) and the resync once at start and then on its serverless.yml schedule (every 5 minutes), until
 * {@link Embedded.stop}.
 * @throws Error when the kubeconfig cannot be loaded or dynalite cannot start
 */
export async function startEmbedded(opts: EmbeddedOptions): Promise<Embedded> {
  const clusterName = opts.clusterName ?? 'local';
  const logger = opts.logger ?? new Logger({ serviceName: 'kruiseless' });
  const counts: CallCounts = { kube: {}, dynamo: {}, dynamoWatch: {} };
  const dynalite = opts.dynamoEndpoint
    ? localDynamo(opts.dynamoEndpoint, 'local', async () => undefined)
    : await startDynalite();
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
  /** A counted client of the pipeline for `config`. */
  const pipelineClient = (config: typeof kc) =>
    countingKube(
      createKubeClient(config, {
        logger,
        onRequest: recordApiRequest,
        ...(opts.kubeRetry ? { retry: opts.kubeRetry } : {}),
      }),
      counts,
    );
  const kube = pipelineClient(kc);
  const moreClusters = (opts.moreClusters ?? []).map(({ name, kubeconfig }) => {
    const more = kubeConfigFromFile(kubeconfig);
    return { name, kc: more, kube: pipelineClient(more) };
  });
  const serverlessYml = opts.serverlessYml ?? readFileSync(REPO_SERVERLESS_YML, 'utf8');
  const serverlessRules = loadRulesFromServerless(serverlessYml);
  // the webhooks see the namespaces the rules serve (every namespace unless each rule names its own)
  const webhookNamespaces = namespaceSelectorFor(
    servedNamespaces(serverlessRules.filter((r) => r.functionName === RECONCILE_FUNCTION)),
  );
  let conversion: Embedded['conversion'];
  // the client that registered the defaulting webhook, to take it away at stop
  let mutating: ReturnType<typeof createKubeClient> | undefined;
  // the client that registered the validating webhook, to take it away at stop
  let validating: ReturnType<typeof createKubeClient> | undefined;
  // the client that pointed the CRDs at the conversion webhook, to put back at stop those that change with it
  let crdKube: ReturnType<typeof createKubeClient> | undefined;
  if (opts.conversion) {
    // one list of mutators under this deployment's gates: the server answers with it, the configuration names it
    const mutators = admissionMutators(opts.settings);
    // the webhooks' own client, uncounted (the demo's call counts are the controllers'), with a deadline inside the
    // API server's webhook timeout
    const webhookClient = createKubeClient(kc, {
      logger,
      retry: POD_WEBHOOK_READ_RETRY,
      timeoutMs: POD_WEBHOOK_READ_TIMEOUT_MS,
    });
    const validators = admissionValidators(opts.settings, clusterValidationReads(webhookClient));
    const podWebhook = opts.podWebhook !== false;
    const podSteps = podMutationSteps(webhookClient, opts.settings);
    const pubSettings = (opts.settings?.podunavailablebudget ?? {}) as PubSettings;
    const validatePod = podValidation(webhookClient, opts.settings);
    const server = await startConversionServer({
      logger,
      mutators,
      validators,
      ...(podWebhook
        ? {
            podAdmission: (body: string) => answerPodMutationReview(body, podSteps),
            podValidation: validatePod,
          }
        : {}),
      ...opts.conversion,
    });
    // a cluster that does not answer must not hold the start (nor the stop) for the client's 100 s of retries
    const crdClient = createKubeClient(kc, {
      logger,
      retry: CRD_PATCH_RETRY,
      timeoutMs: CRD_PATCH_TIMEOUT_MS,
    });
    const target = { url: server.url, caPem: server.caPem, server: 'local' } as const;
    const crds = await pointCrdsAtConverter(crdClient, target, opts.conversion.converters).catch(
      (e: unknown) => {
        logger.warn('conversion webhook serving, but no CRD points at it', {
          url: server.url,
          error: errorMessage(e),
        });
        return [];
      },
    );
    conversion = { ...server, crds };
    crdKube = crdClient;
    logger.info('conversion webhook serving', { url: server.url, crds });
    await registerMutatingWebhook(
      crdClient,
      {
        name: LOCAL_MUTATING_WEBHOOK,
        url: server.mutateUrl,
        caPem: server.caPem,
        ...(podWebhook ? { podUrl: server.podMutateUrl } : {}),
        ...(webhookNamespaces ? { namespaceSelector: webhookNamespaces } : {}),
      },
      mutators,
    ).then(
      () => {
        mutating = crdClient;
        logger.info('defaulting webhook serving', {
          url: server.mutateUrl,
          configuration: LOCAL_MUTATING_WEBHOOK,
        });
      },
      (e: unknown) =>
        logger.warn('defaulting webhook serving, but not registered: objects are stored as written', {
          url: server.mutateUrl,
          error: errorMessage(e),
        }),
    );
    if (opts.validatingWebhook !== false)
      await registerValidatingWebhook(
        crdClient,
        {
          name: LOCAL_VALIDATING_WEBHOOK,
          url: server.validateUrl,
          caPem: server.caPem,
          ...(podWebhook
            ? { podUrl: server.podValidateUrl, podUpdates: pubSettings.updateGate ?? false }
            : {}),
          ...(webhookNamespaces ? { namespaceSelector: webhookNamespaces } : {}),
        },
        validators,
      ).then(
        () => {
          validating = crdClient;
          logger.info('validating webhook serving', {
            url: server.validateUrl,
            configuration: LOCAL_VALIDATING_WEBHOOK,
          });
        },
        (e: unknown) =>
          logger.warn(
            'validating webhook serving, but not registered: invalid objects are stored and reported as FailedValidation',
            { url: server.validateUrl, error: errorMessage(e) },
          ),
      );
  }

  // handlers reach the runtime lazily (it is complete before the first event can arrive)
  const getRuntime = (): Runtime => runtime;
  const reconcile = reconcileHandler(getRuntime, logger);
  const resyncSchedule = loadSchedulesFromServerless(serverlessYml).find(
    (s) => s.functionName === RESYNC_FUNCTION,
  );
  const rules = bindServerlessRules(serverlessRules, {
    reconcile: async (event) => {
      await reconcile(event);
    },
    // the watch-slice rule's function: this process has no connection budget and sends no slice
    // (lib/source/watchSlices.ts), so an event that reaches it was not sent by Kruiseless
    watch: (event) => {
      logger.warn('watch slice event ignored: the embedded default watches every cluster in one round', {
        source: event.source,
        detailType: event['detail-type'],
      });
      return Promise.resolve();
    },
  });
  const bus = new LocalBus({
    rules,
    onDeadLetter: (event, error, ruleName) => {
      logger.error('event moved to the dead-letter queue', {
        rule: ruleName,
        error: errorMessage(error),
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
    moreClusters,
    ...(opts.settings
      ? { settings: opts.settings }
      : opts.plannerOptions
        ? { settings: { [cloneSet.name]: opts.plannerOptions } }
        : {}),
    ...(opts.backoff ? { backoff: opts.backoff } : {}),
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
  });

  const aborter = new AbortController();
  // events reach the bus within 50 ms, as an in-cluster controller's informer would hand them over; no stream
  // budget: this process is not a Lambda function with its 1,024 file descriptors (the bench's fleet holds 1,700)
  const watch = watchHandler(getRuntime, logger, aborter.signal, LOCAL_FLUSH_INTERVAL_MS, undefined, {
    connectionBudget: Number.POSITIVE_INFINITY,
  });
  let stopped = false;
  let stopping: Promise<void> | undefined;
  // rounds follow each other at once while they work; after a round with a failed stream (API server down,
  // access refused) the next waits 1 s, 2 s, 4 s … up to a minute — the scheduled Lambda's own interval
  const pumping = (async () => {
    let failedRounds = 0;
    while (!stopped) {
      const started = Date.now();
      const failed = await watch(undefined, {
        awsRequestId: `local-${started}`,
        getRemainingTimeInMillis: () => Math.max(0, started + 70_000 - Date.now()),
      }).then(
        (byCluster) => Object.values(byCluster).some((streams) => streams.some((s) => s.error !== undefined)),
        (e: unknown) => {
          logger.error('watch pump round failed', { error: errorMessage(e) });
          return true;
        },
      );
      failedRounds = failed ? failedRounds + 1 : 0;
      const pause = Math.max(exponentialDelay(failedRounds, 1000, 60_000), 1000 - (Date.now() - started));
      if (!stopped && pause > 0)
        await sleep(pause, undefined, { signal: aborter.signal }).catch(() => undefined); // stop() aborts it
    }
  })();

  // the resync, as AWS schedules it (serverless.yml), and once at start: the safety net that reconciles every object
  // even if every other event were lost — as they are when this process is killed: the bus events it had consumed
  // and its requeue timers die with it, and the restarted pump resumes past those events (docs/reliability.md#fault-front);
  // so the round at start asks for every object, those that keep their own wake-up too (docs/architecture.md#wake-up)
  const resyncing = resyncSchedule
    ? (async () => {
        const resync = resyncHandler(getRuntime, logger);
        let first = true;
        while (!stopped) {
          const started = Date.now();
          const budgetMs = resyncSchedule.timeoutSeconds * 1000;
          await resync(first ? EVERY_OBJECT_RESYNC : undefined, {
            awsRequestId: `local-resync-${started}`,
            getRemainingTimeInMillis: () => Math.max(0, started + budgetMs - Date.now()),
          }).catch((e: unknown) => logger.error('resync round failed', { error: errorMessage(e) }));
          first = false;
          const pause = resyncSchedule.everyMs - (Date.now() - started);
          if (!stopped && pause > 0)
            await sleep(pause, undefined, { signal: aborter.signal }).catch(() => undefined); // stop() aborts it
        }
      })()
    : Promise.resolve();

  return {
    runtime,
    bus,
    counts,
    ...(resyncSchedule ? { resync: resyncSchedule } : {}),
    state: { endpoint: dynalite.endpoint, tableName, clusterName },
    ...(conversion ? { conversion } : {}),
    deadLetters: () => [...bus.deadLetters],
    drain: () => bus.drain(),
    stop() {
      stopping ??= (async () => {
        stopped = true;
        aborter.abort();
        requeue.close();
        await pumping;
        await resyncing;
        await bus.drain().catch(() => undefined);
        // a reconcile still running at the first close() may have scheduled a requeue since (a lease-held
        // deferral is minutes away): that timer would keep the process alive after stop
        requeue.close();
        await (
          mutating ? unregisterMutatingWebhook(mutating, LOCAL_MUTATING_WEBHOOK) : Promise.resolve()
        ).catch((e: unknown) =>
          logger.warn('defaulting webhook left registered', { error: errorMessage(e) }),
        );
        await (
          validating ? unregisterValidatingWebhook(validating, LOCAL_VALIDATING_WEBHOOK) : Promise.resolve()
        ).catch((e: unknown) =>
          logger.warn('validating webhook left registered', { error: errorMessage(e) }),
        );
        if (conversion && crdKube)
          await releaseCrdsFromConverter(crdKube, conversion.crds).catch((e: unknown) =>
            logger.warn('CRD left pointing at the stopped conversion webhook', { error: errorMessage(e) }),
          );
        await conversion?.close();
        await dynalite.close();
      })();
      return stopping;
    },
  };
}
