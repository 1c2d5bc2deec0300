/**
 * The cluster and state a command talks to, chosen like kubectl chooses them (docs/cli.md#connection):
 * `--kubeconfig`, else the first file of `$KUBECONFIG`, else `~/.kube/config`; `-n/--namespace`, else the
 * namespace of the kubeconfig's current context, else `default`. The Kruiseless state (expectations, scale-down
 * ledger) is read only when a table is named.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createKubeClient, kubeConfigFromFile, type KubeClient } from '../kube/index.js';
import { createStateStores, type ExpectationStore, type ScaleDownLedger } from '../state/index.js';
import { CliError, type CliIO } from './io.js';
import { errorMessage } from '../core/errors.js';

/** The connection flags every cluster command takes (`--kubeconfig`, `-n`). */
export interface ConnectionOptions {
  kubeconfig?: string;
  namespace?: string;
}

/** The flags of the commands that read Kruiseless' state table. */
export interface StateOptions {
  /** DynamoDB table of the deployment (stack output StateTableName); env KRUISELESS_TABLE. */
  table?: string;
  /**
   * DynamoDB endpoint (e.g. dynalite of `kruiseless local`); env KRUISELESS_DYNAMODB_ENDPOINT. A loopback endpoint
   * gets dummy credentials unless AWS_ACCESS_KEY_ID is set.
   */
  dynamodbEndpoint?: string;
  /** AWS region of the table. */
  region?: string;
  /** Cluster name of the keys (`obj#<cluster>#<group>/<Kind>#<ns>#<name>`); env KRUISELESS_CLUSTER, default `local`. */
  clusterName?: string;
}

/** A connected command: clients of one cluster and the namespace to work in. */
export interface Connection {
  kc: KubeConfig;
  /** The reconciler's API-server client (the same reads as a reconcile pass). */
  kube: KubeClient;
  core: CoreV1Api;
  custom: CustomObjectsApi;
  namespace: string;
}

/**
 * The kubeconfig file to use.
 * @throws CliError when the named file does not exist or no kubeconfig is found
 */
export function kubeconfigPath(opts: ConnectionOptions, env: CliIO['env']): string {
  if (opts.kubeconfig) {
    const file = path.resolve(opts.kubeconfig);
    if (!existsSync(file)) throw new CliError(`kubeconfig ${file} does not exist`);
    return file;
  }
  const fromEnv = (env.KUBECONFIG ?? '').split(path.delimiter).find((f) => f && existsSync(f));
  if (fromEnv) return fromEnv;
  const home = path.join(env.HOME ?? homedir(), '.kube', 'config');
  if (existsSync(home)) return home;
  throw new CliError('no kubeconfig: pass --kubeconfig <file>, set KUBECONFIG, or create ~/.kube/config');
}

/**
 * Connect to the cluster of the kubeconfig's current context.
 * @throws CliError when there is no usable kubeconfig
 */
export function connect(opts: ConnectionOptions, io: CliIO): Connection {
  const file = kubeconfigPath(opts, io.env);
  let kc: KubeConfig;
  try {
    kc = kubeConfigFromFile(file);
  } catch (e) {
    throw new CliError(`kubeconfig ${file} cannot be loaded: ${errorMessage(e)}`);
  }
  if (!kc.getCurrentCluster()) throw new CliError(`kubeconfig ${file} has no current context with a cluster`);
  const contextNamespace = kc.getContextObject(kc.getCurrentContext())?.namespace;
  return {
    kc,
    kube: createKubeClient(kc, {
      retry: { retries: 1, minTimeoutMs: 200 },
      logger: { warn: (message) => io.err(`warning: ${message}\n`) },
    }),
    core: kc.makeApiClient(CoreV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    namespace: opts.namespace || contextNamespace || 'default',
  };
}

/** The state stores a command reads, when a table is named. */
export interface StateReaders {
  expectations: ExpectationStore;
  ledger: ScaleDownLedger;
  cluster: string;
  table: string;
}

/**
 * Opens the state table named by the flags or the environment; undefined when none is named.
 * @throws CliError when a table is named but no region can be found: no `--region`, `--dynamodb-endpoint`,
 *   `AWS_REGION` and no AWS config file (where the AWS SDK v3 looks), instead of the SDK's
 *   bare "Region is missing" on the first read
 */
export function openState(opts: StateOptions, env: CliIO['env']): StateReaders | undefined {
  const table = opts.table ?? env.KRUISELESS_TABLE;
  if (!table) return undefined;
  const endpoint = opts.dynamodbEndpoint ?? env.KRUISELESS_DYNAMODB_ENDPOINT;
  const configFile = env.AWS_CONFIG_FILE ?? path.join(env.HOME ?? homedir(), '.aws', 'config');
  if (!opts.region && !endpoint && !env.AWS_REGION && !existsSync(configFile))
    throw new CliError(
      `--table ${table} needs its AWS region: pass --region (or set AWS_REGION), or --dynamodb-endpoint for a local table`,
    );
  // a loopback endpoint is a local dynalite (kruiseless local), which takes any credentials
  const loopback = !!endpoint && /^https?:\/\/(127\.0\.0\.1|localhost)(:|\/|$)/.test(endpoint);
  const client = new DynamoDBClient({
    ...(endpoint ? { endpoint } : {}),
    ...(opts.region ? { region: opts.region } : endpoint ? { region: 'local' } : {}),
    ...(loopback && !env.AWS_ACCESS_KEY_ID
      ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 2,
  });
  const stores = createStateStores({ client, tableName: table });
  return {
    expectations: stores.expectations,
    ledger: stores.ledger,
    cluster: opts.clusterName ?? env.KRUISELESS_CLUSTER ?? 'local',
    table,
  };
}
