/**
 * The embedded {@link Runtime} (`kruiseless local`, the demo, the end-to-end tests): one cluster reached through a
 * kubeconfig (more for the bench's fleet), and whatever state stores, publisher and requeue scheduler the caller
 * built — in practice dynalite, the in-process bus and timers of lib/emulator, wired by lib/local/embedded.ts. The
 * AWS runtime is aws.ts.
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
  /** The cluster served; `cluster.name` is the cluster name in keys and events. */
  cluster: RuntimeCluster;
  /**
   * More clusters served beside {@link cluster}, each under its own name (keys, leases, watch streams, requests):
   * the bench's fleet of simulated clusters (bench/scenarios/fleet.ts). Default none.
   */
  moreClusters?: readonly RuntimeCluster[];
  /** Each controller's settings by name (`Runtime.settings`; default: OpenKruise's defaults). */
  settings?: Readonly<Record<string, unknown>>;
  /** Retry schedule after failed writes (default: `DEFAULT_BACKOFF`). */
  backoff?: Readonly<BackoffSettings>;
  /** Where handler metrics go (default: nowhere). */
  metrics?: MetricsSink;
}

/**
 * A runtime serving its clusters (one, unless {@link EmbeddedRuntimeParts.moreClusters}) and no admission source.
 * @returns a Runtime whose `cluster(name)` throws UnknownClusterError for a name it does not serve
 * @throws Error when two clusters have the same name
 */
export function embeddedRuntime(parts: EmbeddedRuntimeParts): Runtime {
  const { stores, publisher, requeue, cluster, settings, backoff, metrics } = parts;
  const served = new Map<string, RuntimeCluster>();
  for (const c of [cluster, ...(parts.moreClusters ?? [])]) {
    if (served.has(c.name)) throw new Error(`embedded runtime: cluster name "${c.name}" given twice`);
    served.set(c.name, c);
  }
  const names = [...served.keys()];
  return {
    stores,
    ...(metrics ? { metrics } : {}),
    ...(settings ? { settings } : {}),
    ...(backoff ? { backoff } : {}),
    publisher,
    requeue,
    clusterNames: async () => [...names],
    cluster: async (name) => {
      const found = served.get(name);
      if (!found)
        throw new UnknownClusterError(
          name,
          names.length === 1
            ? `the embedded default serves only "${cluster.name}"`
            : `the embedded default serves ${names.length} clusters, not this one`,
        );
      return found;
    },
    admissionSecret: async () => undefined,
  };
}
