/**
 * The clusters of the AWS runtime (docs/architecture.md#cluster-registry): their names from the registry, and for
 * each a connection kept for the Lambda container's life (lib/kube/connections.ts) instead of a new KubeConfig,
 * token and connection pool per invocation (review finding 15).
 */
import type { ClusterConnections } from '../kube/connections.js';
import type { ClusterRegistry } from '../state/clusters.js';
import { UnknownClusterError, type Runtime } from './types.js';

/**
 * `clusterNames` and `cluster` of a {@link Runtime} over a cluster registry.
 * - `clusterNames()`: one Query of the registry's names (a record that no longer validates fails only its cluster);
 * - `cluster(name)`: one read of the record per call, so a changed record (endpoint, CA, role) takes effect at the
 *   next invocation; then the kept connection (same record), its EKS token replaced when too old for an invocation.
 * @throws (from `cluster`) UnknownClusterError when the name is not registered or its auth type is not served;
 *   InvalidClusterRecordError for a record the registry's policy refuses (e.g. an endpoint that is not EKS's)
 */
export function registryClusters(
  registry: Pick<ClusterRegistry, 'get' | 'names'>,
  connections: ClusterConnections,
): Pick<Runtime, 'clusterNames' | 'cluster'> {
  return {
    clusterNames: () => registry.names(),
    async cluster(name) {
      const record = await registry.get(name);
      if (!record) throw new UnknownClusterError(name);
      if (record.auth.type !== 'eks') {
        throw new UnknownClusterError(name, `auth type ${record.auth.type} is not supported yet; use eks`);
      }
      const { kc, kube } = await connections.connect({
        name: record.name,
        endpoint: record.endpoint,
        caData: record.caData,
        auth: record.auth,
      });
      return { name, kc, kube };
    },
  };
}
