/**
 * Registering the clusters Kruiseless serves (docs/architecture.md#cluster-registry): the record says where the API
 * server is, which CA to trust, and how to authenticate (an EKS token signed with the Lambda's role, or a role to
 * assume first). Used by `kruiseless cluster add|list`.
 */
import { KruiselessError } from '../core/errors.js';
import { DescribeClusterCommand, type EKSClient } from '@aws-sdk/client-eks';
import type { ClusterRecord, ClusterRegistry } from '../state/index.js';

/** Thrown when EKS does not describe the cluster with an endpoint and a CA (e.g. still creating). */
export class ClusterNotReadyError extends KruiselessError {
  constructor(clusterName: string, detail: string) {
    super(`EKS cluster ${clusterName} cannot be registered: ${detail}`);
    this.name = 'ClusterNotReadyError';
  }
}

/** What `kruiseless cluster add` is given. */
export interface ClusterAddOptions {
  /** Registry name (used in event keys); letters, digits, `.`, `_`, `-`. */
  name: string;
  /** EKS cluster name (default: `name`). */
  eksCluster?: string;
  region: string;
  /** Role Lambda assumes before signing the EKS token (cross-account clusters); default: the Lambda's own role. */
  roleArn?: string;
  /**
   * API server URL; with `caData`, skips `eks:DescribeCluster`. It must be the cluster's EKS endpoint unless the
   * registry allows others (`ClusterRecordPolicy.allowNonEksEndpoints`).
   */
  endpoint?: string;
  /** Base64 PEM CA bundle. */
  caData?: string;
}

/**
 * Build and store the record of a cluster. Unless `endpoint` and `caData` are given, they are read with
 * `eks:DescribeCluster` (one call).
 * @returns the stored record
 * @throws ClusterNotReadyError; InvalidClusterRecordError for bad input (also an endpoint the registry's policy
 *   refuses); StateStoreError; AWS SDK errors
 */
export async function addCluster(
  registry: ClusterRegistry,
  eks: Pick<EKSClient, 'send'> | undefined,
  opts: ClusterAddOptions,
): Promise<ClusterRecord> {
  const eksCluster = opts.eksCluster ?? opts.name;
  let endpoint = opts.endpoint;
  let caData = opts.caData;
  if (!endpoint || !caData) {
    if (!eks) throw new ClusterNotReadyError(eksCluster, 'no --endpoint/--ca-data and no EKS client');
    const out = await eks.send(new DescribeClusterCommand({ name: eksCluster }));
    endpoint ??= out.cluster?.endpoint;
    caData ??= out.cluster?.certificateAuthority?.data;
    if (!endpoint || !caData) {
      throw new ClusterNotReadyError(
        eksCluster,
        `status ${out.cluster?.status ?? 'unknown'}: no endpoint or CA yet`,
      );
    }
  }
  return registry.put({
    name: opts.name,
    endpoint,
    caData,
    auth: {
      type: 'eks',
      clusterName: eksCluster,
      region: opts.region,
      ...(opts.roleArn ? { roleArn: opts.roleArn } : {}),
    },
  });
}
