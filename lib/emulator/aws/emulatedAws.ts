/**
 * The packaged functions on emulated AWS, wired together: moto (lib/emulator/moto.ts) serves DynamoDB, EventBridge,
 * SQS, EventBridge Scheduler and STS; the packaged template's resources are created on it (deploy.ts); each
 * function runs from its zip with its role's credentials (lambda.ts, asyncInvoke.ts); the EKS authenticator proxy
 * fronts the cluster (eksAuthProxy.ts), which is registered in the state table the way `kruiseless cluster add`
 * does; the rule, schedule rules and Scheduler start the functions (sources.ts).
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { ADMISSION_GROUP, CONTROLLER_GROUP, WATCHER_GROUP } from '../../kube/access.js';
import { applyServerSide, parseManifests } from '../../kube/apply.js';
import { addCluster } from '../../admin/clusters.js';
import { createStateStores } from '../../state/index.js';
import { startMoto } from '../moto.js';
import { invokeAsync, DEFAULT_RETRY_DELAYS_MS, type AsyncOutcome } from './asyncInvoke.js';
import { sqs, sts, type AwsEndpoint } from './awsCall.js';
import { deployTemplate } from './deploy.js';
import {
  startEksAuthProxy,
  type AccessEntry,
  type EksAuthProxy,
  type ProxyObserver,
} from './eksAuthProxy.js';
import { EmulatedFunction, type InvokeResult } from './lambda.js';
import { startEventSources, type EventSources, type FiredSchedule } from './sources.js';
import type { DeployedStack } from './stackModel.js';
import { readTemplate } from './template.js';
import { TEMPLATE_FILE } from './artifacts.js';

/** The stack outputs holding the function roles, and the Kubernetes groups their access entries give (infra/rbac/README.md). */
const ACCESS_ENTRIES: Record<string, string[]> = {
  ReconcileRoleArn: [CONTROLLER_GROUP],
  WatchRoleArn: [WATCHER_GROUP],
  ResyncRoleArn: [WATCHER_GROUP],
  AdmissionRoleArn: [ADMISSION_GROUP],
};

const RBAC_FILE = new URL('../../../infra/rbac/kruiseless-rbac.yaml', import.meta.url);

/** Server-side apply of infra/rbac/kruiseless-rbac.yaml (step 2 of infra/rbac/README.md) as the kubeconfig's admin. */
async function applyRbac(kubeconfig: string): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const rbac = parseManifests(readFileSync(RBAC_FILE, 'utf8'), 'infra/rbac/kruiseless-rbac.yaml');
  await applyServerSide(kc, rbac, 'kruiseless-emulator');
}

/** Options of {@link startEmulatedAws}. */
export interface EmulatedAwsOptions {
  /** `.serverless/` with the zips and the template (artifacts.ts). */
  artifactDir: string;
  /** Admin kubeconfig of the cluster to serve. */
  kubeconfig: string;
  /** Registry name of the cluster (default `local`). */
  clusterName?: string;
  /**
   * More registry names for the same cluster, each registered as `clusterName` is (a fleet of registrations, e.g. to
   * split the watch into slices); their objects are the same objects, so a test that uses them must not let two
   * names reconcile one object.
   */
  moreClusterNames?: readonly string[];
  /**
   * Environment variables added to a function's, by its logical id (e.g. `WatchLambdaFunction`), over the template's:
   * what a test sets that a deployment would not.
   */
  functionEnv?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Function logs and unpacked zips go here. */
  workDir: string;
  /** Schedule rules run this much faster than their rate (default 1). */
  intervalScale?: number;
  retryDelaysMs?: readonly number[];
  /** Fields added to every rule's pattern (deploy.ts, `DeployOptions.narrowPatterns`). */
  narrowPatterns?: Record<string, unknown>;
  /** Told about each request the EKS endpoint forwards to the cluster (eksAuthProxy.ts). */
  proxyObserver?: ProxyObserver;
  log?: (line: string) => void;
}

/** The running emulation. */
export interface EmulatedAws {
  /** moto, with credentials that may do anything. */
  endpoint: AwsEndpoint;
  stack: DeployedStack;
  functions: Map<string, EmulatedFunction>;
  proxy: EksAuthProxy;
  /** EventBridge Scheduler schedules fired so far (requeues), in order. */
  schedulesFired(): readonly FiredSchedule[];
  /** Failed attempts so far, in order. */
  failures: { fn: string; error: string }[];
  /** Messages now in the dead-letter queue(s) of the template (every `AWS::SQS::Queue` named `*dlq*`). */
  deadLetters(): Promise<number>;
  /** The URLs of those queues. */
  deadLetterQueues: string[];
  /** Resolves when no async invocation of this function (default: of any) is running or retrying. */
  idle(functionLogicalId?: string): Promise<void>;
  stop(): Promise<void>;
}

const CREDENTIALS = { accessKeyId: 'AKIAEMULATEDEXAMPLE', secretAccessKey: 'emulated' };

/**
 * Start everything (see the file comment).
 * @throws whatever fails on the way (moto missing, an unsupported resource, RBAC not applied, …); what was started
 *   is stopped first
 */
export async function startEmulatedAws(opts: EmulatedAwsOptions): Promise<EmulatedAws> {
  const log = opts.log ?? (() => undefined);
  const clusterName = opts.clusterName ?? 'local';
  const cleanup: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
  };
  try {
    const moto = await startMoto();
    cleanup.push(() => moto.close());
    const ep: AwsEndpoint = { url: moto.endpoint, region: 'us-east-1', credentials: CREDENTIALS };
    log(`moto on ${moto.endpoint}`);

    const template = readTemplate(path.join(opts.artifactDir, TEMPLATE_FILE));
    const stack = await deployTemplate({
      ep,
      template,
      artifactDir: opts.artifactDir,
      stackName: 'kruiseless',
      ...(opts.narrowPatterns ? { narrowPatterns: opts.narrowPatterns } : {}),
    });
    log(
      `created from the template: ${[...stack.physical.keys()].filter((id) => !stack.skipped.some((s) => s.id === id)).join(', ')}`,
    );
    log(`skipped: ${stack.skipped.map((s) => `${s.id} (${s.type})`).join(', ')}`);

    const functions = new Map<string, EmulatedFunction>();
    for (const spec of stack.functions.values()) {
      const creds = await sts(ep, 'AssumeRole', { RoleArn: spec.roleArn, RoleSessionName: spec.name });
      const fn = new EmulatedFunction(spec, {
        workDir: path.join(opts.workDir, 'functions'),
        logFile: path.join(opts.workDir, 'logs', `${spec.name}.log`),
        runtimeEnv: {
          AWS_ENDPOINT_URL: moto.endpoint,
          AWS_REGION: ep.region,
          AWS_DEFAULT_REGION: ep.region,
          AWS_ACCESS_KEY_ID: creds.AccessKeyId,
          AWS_SECRET_ACCESS_KEY: creds.SecretAccessKey,
          AWS_SESSION_TOKEN: creds.SessionToken,
          // Lambda runs Node 22; this machine may run 20, whose SDK notice would fill the logs
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          // the cluster is the authenticating proxy on 127.0.0.1, not an EKS endpoint (serverless.yml param
          // allowNonEksEndpoints, which a real deployment leaves false)
          KRUISELESS_ALLOW_NON_EKS_ENDPOINTS: 'true',
          ...opts.functionEnv?.[spec.logicalId],
        },
      });
      functions.set(spec.logicalId, fn);
      cleanup.push(() => fn.stop());
    }
    log(`functions: ${[...functions.values()].map((f) => `${f.spec.name} (${f.spec.handler}, timeout ${f.spec.timeoutSeconds} s, retries ${f.spec.maxRetries}${f.spec.onFailureArn ? ', on failure → DLQ' : ''})`).join('; ')}`); // prettier-ignore

    await applyRbac(opts.kubeconfig);
    const accessEntries: AccessEntry[] = Object.entries(ACCESS_ENTRIES).flatMap(([output, groups]) =>
      stack.outputs[output] ? [{ roleArn: stack.outputs[output], groups }] : [],
    );
    const proxy = await startEksAuthProxy({
      kubeconfig: opts.kubeconfig,
      clusterName,
      ep,
      accessEntries,
      ...(opts.proxyObserver ? { observer: opts.proxyObserver } : {}),
    });
    cleanup.push(() => proxy.close());
    const table = stack.physical.get('StateTable')?.ref;
    if (!table) throw new Error('the template has no StateTable');
    const stores = createStateStores({
      client: moto.client(),
      tableName: table,
      clusters: { allowNonEksEndpoints: true },
    });
    for (const name of [clusterName, ...(opts.moreClusterNames ?? [])]) {
      await addCluster(stores.clusters, undefined, {
        name,
        region: ep.region,
        endpoint: proxy.endpoint,
        caData: proxy.caData,
      });
      log(`cluster ${name} registered: ${proxy.endpoint} (EKS token authentication, RBAC of infra/rbac)`);
    }

    const failures: { fn: string; error: string }[] = [];
    const running = new Map<Promise<AsyncOutcome>, string>();
    const invoke = (id: string, event: unknown) => {
      const fn = functions.get(id);
      if (!fn) return;
      const p = invokeAsync(fn, event, {
        ep,
        retryDelaysMs: opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
        onFailure: (f: EmulatedFunction, r: InvokeResult) => {
          if (!r.ok)
            failures.push({ fn: f.spec.name, error: `${r.error.errorType}: ${r.error.errorMessage}` });
        },
      });
      running.set(p, id);
      void p
        .catch((e: Error) => failures.push({ fn: fn.spec.name, error: e.message }))
        .finally(() => running.delete(p));
    };
    const sources: EventSources = startEventSources({
      ep,
      stack,
      invoke,
      ...(opts.intervalScale !== undefined ? { intervalScale: opts.intervalScale } : {}),
      log,
      onError: (e) => failures.push({ fn: 'event sources', error: e.message }),
    });
    cleanup.push(() => sources.stop());

    const dlqUrls = [...stack.physical.entries()]
      .filter(
        ([id]) =>
          template.Resources[id]?.Type === 'AWS::SQS::Queue' &&
          /dlq|deadletter/i.test(id + stack.physical.get(id)?.ref),
      )
      .map(([, p]) => p.ref);
    return {
      endpoint: ep,
      stack,
      functions,
      proxy,
      failures,
      schedulesFired: () => sources.schedulesFired(),
      deadLetterQueues: dlqUrls,
      async deadLetters() {
        let n = 0;
        for (const QueueUrl of dlqUrls) {
          const out = await sqs<{ Attributes: Record<string, string> }>(ep, 'GetQueueAttributes', {
            QueueUrl,
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
          });
          n +=
            Number(out.Attributes.ApproximateNumberOfMessages) +
            Number(out.Attributes.ApproximateNumberOfMessagesNotVisible);
        }
        return n;
      },
      async idle(functionLogicalId) {
        const pending = () =>
          [...running].filter(([, id]) => !functionLogicalId || id === functionLogicalId).map(([p]) => p);
        for (let p = pending(); p.length > 0; p = pending()) await Promise.allSettled(p);
      },
      stop: stopAll,
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
