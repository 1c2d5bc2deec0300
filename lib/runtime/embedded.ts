/**
 * The embedded {@link Runtime} (`kruiseless local`, the demo, the end-to-end tests): one cluster reached through a
 * kubeconfig, and whatever state stores, publisher and requeue scheduler the caller built — in practice dynalite,
 * the in-process bus and timers of lib/emulator, wired by lib/local/embedded.ts. The AWS runtime is aws.ts.
 */
import type { EventPublisher, RequeueScheduler } from '../requests/index.js';
import type { StateStores } from '../state/index.js';
import type { BackoffSettings } from '../reconcile/backoff.js';
import type { MetricsSink } from './metrics.js';
import { UnknownClusterError, type Runtime, type RuntimeCluster } from './types.js';

/** The adapters of {@link embeddedRuntime}. */
export interface EmbeddedRuntimeParts {
  stores: StateStores;
  publisher: EventPublisher;
  requeue: RequeueScheduler;
  /** The one cluster served; `cluster.name` is the cluster name in keys and events. */
  cluster: RuntimeCluster;
  /** Each controller's settings by name (`Runtime.settings`; default: OpenKruise's defaults). */
  settings?: Readonly<Record<string, unknown>>;
  /** Retry schedule after failed writes (default: `DEFAULT_BACKOFF`). */
  backoff?: Readonly<BackoffSettings>;
  /** Where handler metrics go (default: nowhere). */
  metrics?: MetricsSink;
}

/**
 * A runtime serving one cluster and no admission source.
 * @returns a Runtime whose `cluster(name)` throws UnknownClusterError for any other name
 */
export function embeddedRuntime(parts: EmbeddedRuntimeParts): Runtime {
  const { stores, publisher, requeue, cluster, settings, backoff, metrics } = parts;
  return {
    stores,
    ...(metrics ? { metrics } : {}),
    ...(settings ? { settings } : {}),
    ...(backoff ? { backoff } : {}),
    publisher,
    requeue,
    clusterNames: async () => [cluster.name],
    cluster: async (name) => {
      if (name !== cluster.name)
        throw new UnknownClusterError(name, `the embedded default serves only "${cluster.name}"`);
      return cluster;
    },
    admissionSecret: async () => undefined,
  };
}
