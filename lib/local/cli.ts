/**
 * The `kruiseless` command line: `kruiseless local` runs the embedded default until interrupted; `kruiseless demo`
 * runs the seed story (`npm run demo`), `kruiseless demo-aws` the same through the packaged zips on moto
 * (`npm run demo:aws`); `cluster add|list` edits the cluster registry; the operator commands
 * `rollout`, `plan`, `why` and `lint` live in lib/cli (docs/cli.md).
 */
import { stopRequested } from './stopSignal.js';
import path from 'node:path';
import { Command } from 'commander';
import { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevel } from '@aws-lambda-powertools/logger/types';
import { clusterUp } from '../../infra/local/cluster.js';
import { runDemo } from './demo.js';
import { runAwsDemo } from './demoAws.js';
import { startEmbedded } from './embedded.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EKSClient } from '@aws-sdk/client-eks';
import { addCluster } from '../admin/clusters.js';
import { createStateStores } from '../state/index.js';
import { CLONESET_GATE_NAMES } from '../controllers/cloneset/plan/index.js';
import { FLAG_SCALING_EXCLUDE_PREPARING_DELETE } from '../controllers/cloneset/settings.js';
import { backoffSettings, controllerSettings, type ControllerSettings } from '../runtime/config.js';
import { DEFAULT_BACKOFF, type BackoffSettings } from '../reconcile/backoff.js';
import { registerCliCommands } from '../cli/program.js';
import { errorMessage } from '../core/errors.js';
import { kubeConfigFromFile } from '../kube/config.js';
import { claimTemplateRuleOn, syncClaimTemplatePolicies } from '../cli/claimTemplatePolicies.js';

// Node 20 is supported here until the pinned SDK needs 22 (README); its upgrade notice would drown the output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** Options of `kruiseless local`. */
interface LocalOptions {
  kubeconfig?: string;
  clusterName: string;
  logLevel: string;
  featureGates: string;
  clonesetScalingExcludePreparingDelete: boolean;
  backoffBaseSeconds: string;
  backoffMaxSeconds: string;
  dynamodbEndpoint?: string;
  table?: string;
  /** false with `--no-conversion`. */
  conversion: boolean;
  /** false with `--no-pod-webhook`. */
  podWebhook: boolean;
  /** false with `--no-validating-webhook`. */
  validatingWebhook: boolean;
  conversionHost: string;
}

/**
 * The planner options and retry schedule of `kruiseless local`'s flags; a malformed gate list or backoff ends the
 * command with its message.
 */
function readSettings(opts: LocalOptions): ControllerSettings & { backoff: BackoffSettings } {
  try {
    return {
      ...controllerSettings(opts.featureGates, {
        [FLAG_SCALING_EXCLUDE_PREPARING_DELETE]: opts.clonesetScalingExcludePreparingDelete,
      }),
      backoff: backoffSettings(Number(opts.backoffBaseSeconds), Number(opts.backoffMaxSeconds)),
    };
  } catch (e) {
    return program.error(`kruiseless local: ${errorMessage(e)}`);
  }
}

const program = new Command('kruiseless').description('OpenKruise CloneSet without an in-cluster controller');

program
  .command('local')
  .description('run the watch pump and reconcilers in-process (dynalite + in-process bus) against a cluster')
  .option(
    '--kubeconfig <file>',
    'kubeconfig of the cluster to serve (default: the local control plane, started if needed)',
  )
  .option('--cluster-name <name>', 'cluster name used in keys and logs', 'local')
  .option('--log-level <level>', 'DEBUG | INFO | WARN | ERROR', 'INFO')
  .option(
    '--feature-gates <gates>',
    `OpenKruise feature gates, Name=true|false,... (CloneSet gates: ${CLONESET_GATE_NAMES.join(', ')})`,
    process.env.KRUISELESS_FEATURE_GATES ?? '',
  )
  .option(
    '--cloneset-scaling-exclude-preparing-delete',
    "OpenKruise's controller flag: PreparingDelete pods do not count as replicas when scaling",
    false,
  )
  .option(
    '--backoff-base-seconds <s>',
    'delay after a CloneSet write first fails, doubling with each further failure',
    process.env.KRUISELESS_BACKOFF_BASE_SECONDS ?? String(DEFAULT_BACKOFF.baseSeconds),
  )
  .option(
    '--backoff-max-seconds <s>',
    'longest delay between attempts of a CloneSet whose writes keep failing',
    process.env.KRUISELESS_BACKOFF_MAX_SECONDS ?? String(DEFAULT_BACKOFF.maxSeconds),
  )
  .option(
    '--dynamodb-endpoint <url>',
    'keep the state in this DynamoDB (e.g. a dynalite that outlives the process) instead of an in-process dynalite',
  )
  .option('--table <name>', 'state table name (created when missing)', 'kruiseless-local')
  .option(
    '--conversion-host <host>',
    "address of the CRD conversion webhook (/convert) as the cluster's API server reaches this machine",
    '127.0.0.1',
  )
  .option(
    '--no-conversion',
    'do not serve /convert, /mutate, /validate and /mutate-pod: the Advanced StatefulSet and CloneSet CRDs are not pointed at it (Advanced StatefulSet v1alpha1 reads then prune v1beta1-only fields; CloneSet v1beta1 stays an alias of v1alpha1) and objects are stored without the defaulting and validating webhooks',
  )
  .option(
    '--no-pod-webhook',
    'do not serve /mutate-pod and /validate-pod: pods get no SidecarSet injection and PodUnavailableBudgets protect nothing, and no webhook with failurePolicy Fail stands in the way of pod creation or deletion',
  )
  .option(
    '--no-validating-webhook',
    "do not register /validate: objects OpenKruise's validating webhooks refuse are stored, and their controllers report them as FailedValidation and leave them alone",
  )
  .action(async (opts: LocalOptions) => {
    const logger = new Logger({ serviceName: 'kruiseless', logLevel: opts.logLevel as LogLevel });
    const settings = readSettings(opts);
    if (settings.ignoredGates.length > 0) {
      logger.warn('feature gates that do not concern CloneSet are ignored', { gates: settings.ignoredGates });
    }
    const kubeconfig = opts.kubeconfig ? path.resolve(opts.kubeconfig) : (await clusterUp()).info.kubeconfig;
    const embedded = await startEmbedded({
      kubeconfig,
      clusterName: opts.clusterName,
      logger,
      settings: settings.settings,
      backoff: settings.backoff,
      tableName: opts.table,
      ...(opts.dynamodbEndpoint ? { dynamoEndpoint: opts.dynamodbEndpoint } : {}),
      ...(opts.conversion
        ? {
            conversion: { host: opts.conversionHost },
            podWebhook: opts.podWebhook,
            validatingWebhook: opts.validatingWebhook,
          }
        : {}),
    });
    const { state } = embedded;
    await syncClaimTemplatePolicies(
      kubeConfigFromFile(kubeconfig),
      claimTemplateRuleOn(opts.featureGates),
    ).then(
      (r) =>
        logger.info(`Advanced StatefulSet volumeClaimTemplate update policies ${r.action}`, {
          objects: r.objects,
        }),
      (e: unknown) =>
        logger.warn('Advanced StatefulSet volumeClaimTemplate update policies not in line with the gates', {
          error: errorMessage(e),
        }),
    );
    logger.info('kruiseless local running; Ctrl-C to stop', {
      kubeconfig,
      cluster: opts.clusterName,
      featureGates: opts.featureGates,
      // plan and why read the expectations and the scale-down ledger from here while this process runs
      stateFlags: `--table ${state.tableName} --dynamodb-endpoint ${state.endpoint} --cluster-name ${state.clusterName}`,
    });
    const why = await stopRequested();
    logger.info('kruiseless local stopping', { why });
    await embedded.stop();
  });

program
  .command('demo')
  .description(
    "the seed CloneSet's story on the local control plane; exit code 0 only if every step happened",
  )
  .action(async () => {
    process.exitCode = (await runDemo()) ? 0 : 1;
  });

program
  .command('demo-aws')
  .description(
    'the same story through the packaged watch and reconcile zips (osls package) on moto; exit code 0 only if it passed',
  )
  .option('--interval-scale <f>', 'run the schedule rules at this fraction of their rate', '0.25')
  .action(async (opts: { intervalScale: string }) => {
    try {
      process.exitCode = (await runAwsDemo({ intervalScale: Number(opts.intervalScale) })) ? 0 : 1;
    } catch (e) {
      // one line a user can act on (e.g. moto not found) instead of a stack trace
      console.error(`error: ${errorMessage(e)}`);
      process.exitCode = 1;
    }
  });

const cluster = program
  .command('cluster')
  .description('the cluster registry of a deployed Kruiseless (DynamoDB)');

cluster
  .command('add <name>')
  .description('register an EKS cluster (reads endpoint and CA with eks:DescribeCluster unless given)')
  .requiredOption('--table <table>', 'the DynamoDB table of the deployment (stack output StateTableName)')
  .requiredOption('--region <region>', 'AWS region of the EKS cluster')
  .option('--eks-cluster <eksName>', 'EKS cluster name (default: <name>)')
  .option('--role-arn <arn>', 'role the reconcilers assume before signing EKS tokens (cross-account)')
  .option('--endpoint <url>', 'API server URL (with --ca-data: skip DescribeCluster)')
  .option('--ca-data <base64>', 'base64 PEM CA bundle')
  .option(
    '--allow-non-eks-endpoint',
    "accept an --endpoint that is not the EKS endpoint's form (the functions refuse it unless deployed with allowNonEksEndpoints=true)",
  )
  .action(
    async (
      name: string,
      o: {
        table: string;
        region: string;
        eksCluster?: string;
        roleArn?: string;
        endpoint?: string;
        caData?: string;
        allowNonEksEndpoint?: boolean;
      },
    ) => {
      const { allowNonEksEndpoint, ...given } = o;
      const stores = createStateStores({
        client: new DynamoDBClient({ region: o.region }),
        tableName: o.table,
        clusters: { allowNonEksEndpoints: allowNonEksEndpoint === true },
      });
      const record = await addCluster(stores.clusters, new EKSClient({ region: o.region }), {
        name,
        ...given,
      });
      console.log(
        `registered ${record.name}: ${record.endpoint} (EKS ${record.auth.type === 'eks' ? record.auth.clusterName : ''})`,
      );
    },
  );

cluster
  .command('list')
  .description('list registered clusters')
  .requiredOption('--table <table>', 'the DynamoDB table of the deployment')
  .option('--region <region>', 'AWS region of the table')
  .action(async (o: { table: string; region?: string }) => {
    const client = new DynamoDBClient(o.region ? { region: o.region } : {});
    // every record, non-EKS endpoints included: the operator sees what is registered (the functions refuse those)
    const stores = createStateStores({
      client,
      tableName: o.table,
      clusters: { allowNonEksEndpoints: true },
    });
    for (const c of await stores.clusters.list({ consistent: true }))
      console.log(`${c.name}\t${c.endpoint}\t${c.auth.type}`);
  });

registerCliCommands(program, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  exit: (code) => {
    process.exitCode = code;
  },
});

await program.parseAsync(process.argv);
