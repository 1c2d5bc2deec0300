/**
 * What a handler needs from its environment, whichever it runs in: AWS (DynamoDB, EventBridge, Scheduler, EKS) or
 * the embedded default (dynalite, the in-process bus, local timers, a kubeconfig). The handlers in
 * lib/runtime/handlers are written once against this.
 */
import { KruiselessError } from '../core/errors.js';
import type { KubeConfig } from '@kubernetes/client-node';
import type { EventPublisher, RequeueScheduler } from '../requests/index.js';
import type { KubeClient } from '../kube/types.js';
import type { StateStores } from '../state/index.js';
import type { BackoffSettings } from '../reconcile/backoff.js';
import type { MetricsSink } from './metrics.js';
import type { WatchFanOut } from '../source/watchSlices.js';

/** A cluster the runtime can reach. */
export interface RuntimeCluster {
  name: string;
  kc: KubeConfig;
  kube: KubeClient;
}

/** The adapters of one runtime. */
export interface Runtime {
  stores: StateStores;
  publisher: EventPublisher;
  requeue: RequeueScheduler;
  /** Names of the clusters to watch and resync. */
  clusterNames(): Promise<string[]>;
  /**
   * Client and KubeConfig for a cluster.
   * @throws UnknownClusterError when the cluster is not registered
   */
  cluster(name: string): Promise<RuntimeCluster>;
  /**
   * Each controller's settings by controller name, as its registration parsed them from the deployment's feature
   * gates and flags (./config.ts `controllerSettings`: serverless.yml parameters `featureGates` and the flags, or
   * `kruiseless local --feature-gates`); a controller absent here runs with its `settings.defaults`.
   */
  settings?: Readonly<Record<string, unknown>>;
  /**
   * Writes one reconcile pass keeps in flight within a create batch or a run of pod patches (serverless.yml
   * parameter `writeConcurrency`); absent = lib/core/bounded.ts `DEFAULT_WRITE_CONCURRENCY`.
   */
  writeConcurrency?: number;
  /** Retry schedule after failed writes (docs/reliability.md#backoff); default `DEFAULT_BACKOFF` (1 s to 1000 s). */
  backoff?: Readonly<BackoffSettings>;
  /** Where each handler invocation's metrics go (README.md#observability); absent: nowhere. */
  metrics?: MetricsSink;
  /**
   * Sends the watch slices of a fleet larger than one run holds (lib/source/watchSlices.ts); absent (the embedded
   * default, which has no connection budget): runs take turns by the minute instead.
   */
  watchFanOut?: WatchFanOut;
  /** Connections one watch run opens at most; absent: the handler's own (lib/runtime/handlers/watch.ts). */
  watchConnectionBudget?: number;
  /**
   * `true`: the clusters' watches go over HTTP/2 where their API servers offer it, one connection a cluster, and the
   * watch run budgets a cluster at that (lib/runtime/handlers/watch.ts `connectionsPerCluster`); absent or `false`:
   * one connection a watch stream.
   */
  watchHttp2?: boolean;
  /** Shared secret of the admission source's URL path, if the admission source is enabled. */
  admissionSecret(): Promise<string | undefined>;
}

/** Thrown when an event names a cluster that is not registered (docs/architecture.md#cluster-registry). */
export class UnknownClusterError extends KruiselessError {
  constructor(
    readonly cluster: string,
    detail = `no registry/cluster#${cluster} item`,
  ) {
    super(`cluster "${cluster}" is not registered (${detail})`);
    this.name = 'UnknownClusterError';
  }
}
