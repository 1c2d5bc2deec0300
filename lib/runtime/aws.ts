/**
 * The AWS {@link Runtime}: DynamoDB state stores, the EventBridge publisher, EventBridge Scheduler requeues and
 * per-cluster Kubernetes clients from the cluster registry (EKS tokens), built once per Lambda container; the
 * clients keep their connections for the container's life (./registryClusters.ts).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import {
  createEventBridgePublisher,
  createSchedulerRequeue,
  PUBLISH_CONCURRENCY,
} from '../requests/index.js';
import { createClusterConnections } from '../kube/index.js';
import { createStateStores } from '../state/index.js';
import { awsClientConfig } from './awsClients.js';
import { cachedParameter } from './cachedParameter.js';
import { backoffSettings, ConfigError, controllerSettings, flagsOf, loadConfig } from './config.js';
import { recordApiRequest, type MetricsSink } from './metrics.js';
import { registryClusters } from './registryClusters.js';
import type { Runtime } from './types.js';
import { eventBridgeWatchFanOut } from './watchFanOut.js';

let runtime: Runtime | undefined;

/**
 * Reads a SecureString parameter (decrypted), undefined when it has no value. Only the admission function reads one
 * (lib/runtime/ssm.ts); the other bundles leave the SSM client out.
 */
export type ParameterReader = (name: string) => Promise<string | undefined>;

/** What a function adds to the AWS runtime; each is left out of the bundles of the functions that pass none. */
export interface AwsRuntimeExtras {
  /** Serves {@link Runtime.admissionSecret} (only admission reads a parameter). */
  readParameter?: ParameterReader;
  /** Where handler metrics go (the EMF sink of lib/runtime/emf.ts); absent: none. */
  metrics?: MetricsSink;
  /**
   * Connections each cluster's request pool opens at most (the watch function's `WATCH_POOL_SOCKETS`, so that its
   * run can count its file descriptors); absent: no limit (reconcile keeps `writeConcurrency` writes in flight).
   */
  poolSocketsPerCluster?: number;
}

/**
 * The admission master secret's reader: none configured → undefined; a function without the SSM client → rejects
 * with ConfigError; else read once and kept, failures retried with backoff and never kept (./cachedParameter.ts).
 */
function admissionSecretReader(
  param: string | undefined,
  readParameter: ParameterReader | undefined,
): () => Promise<string | undefined> {
  if (!param) return () => Promise.resolve(undefined);
  if (!readParameter)
    return () =>
      Promise.reject(new ConfigError('this function reads no parameter: only admission has the SSM client'));
  return cachedParameter(param, () => readParameter(param));
}

/**
 * The container's runtime, built on first use.
 * @throws ConfigError when the environment is incomplete
 */
export function awsRuntimeWith(extras: AwsRuntimeExtras = {}): () => Runtime {
  return () => buildRuntime(extras);
}

function buildRuntime({ readParameter, metrics, poolSocketsPerCluster }: AwsRuntimeExtras): Runtime {
  if (runtime) return runtime;
  const config = loadConfig();
  const { settings } = controllerSettings(config.KRUISELESS_FEATURE_GATES, flagsOf(config));
  const stores = createStateStores({
    client: new DynamoDBClient(awsClientConfig()),
    tableName: config.TABLE_NAME,
    clusters: { allowNonEksEndpoints: config.KRUISELESS_ALLOW_NON_EKS_ENDPOINTS === 'true' },
  });
  const backoff = backoffSettings(
    config.KRUISELESS_BACKOFF_BASE_SECONDS,
    config.KRUISELESS_BACKOFF_MAX_SECONDS,
  );
  const events = new EventBridgeClient(awsClientConfig());
  runtime = {
    stores,
    ...(metrics ? { metrics } : {}),
    settings,
    writeConcurrency: config.KRUISELESS_WRITE_CONCURRENCY,
    backoff,
    publisher: createEventBridgePublisher({
      client: events,
      eventBusName: config.EVENT_BUS_NAME,
      concurrency: PUBLISH_CONCURRENCY,
    }),
    ...(config.KRUISELESS_WATCH_CONNECTION_BUDGET !== undefined
      ? { watchConnectionBudget: config.KRUISELESS_WATCH_CONNECTION_BUDGET }
      : {}),
    watchHttp2: config.KRUISELESS_WATCH_HTTP2 === 'true',
    watchFanOut: eventBridgeWatchFanOut({
      putEvents: (entries) => events.send(new PutEventsCommand({ Entries: entries })),
      eventBusName: config.EVENT_BUS_NAME,
      ...(config.KRUISELESS_WATCH_CONCURRENCY !== undefined
        ? { concurrency: config.KRUISELESS_WATCH_CONCURRENCY }
        : {}),
    }),
    requeue: createSchedulerRequeue({
      client: new SchedulerClient(awsClientConfig()),
      eventBusArn: config.EVENT_BUS_ARN,
      roleArn: config.SCHEDULER_ROLE_ARN,
      groupName: config.SCHEDULER_GROUP_NAME,
      ...(config.REQUEUE_DLQ_ARN ? { deadLetterArn: config.REQUEUE_DLQ_ARN } : {}),
    }),
    ...registryClusters(
      stores.clusters,
      createClusterConnections({
        client: { onRequest: recordApiRequest, timeoutMs: config.KRUISELESS_REQUEST_TIMEOUT_SECONDS * 1000 },
        http2Watches: config.KRUISELESS_WATCH_HTTP2 === 'true',
        ...(poolSocketsPerCluster !== undefined ? { poolSockets: poolSocketsPerCluster } : {}),
      }),
    ),
    admissionSecret: admissionSecretReader(config.ADMISSION_SECRET_PARAM, readParameter),
  };
  return runtime;
}
