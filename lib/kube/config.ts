/**
 * KubeConfigs for the clusters Kruiseless serves: from a kubeconfig file (local control plane, tests) or from a
 * cluster registry record (docs/architecture.md#cluster-registry: endpoint, CA, how to authenticate), with EKS
 * tokens produced in-process (eksToken.ts).
 */
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { eksToken, type EksToken } from './eksToken.js';

/** How to authenticate to a registered cluster. */
export type ClusterAuth =
  | {
      type: 'eks';
      /** EKS cluster name (signed into the token as `x-k8s-aws-id`). */
      clusterName: string;
      region: string;
      /** Role to assume (STS AssumeRole) before signing; default: the Lambda's own role. */
      roleArn?: string;
    }
  | { type: 'token'; token: string };

/** A registered cluster (DynamoDB `cluster#<name>` / `meta`, docs/architecture.md#cluster-registry). */
export interface ClusterRecord {
  name: string;
  /** API server URL, e.g. `https://ABC.gr7.eu-west-1.eks.amazonaws.com`; `http://` turns TLS checks off. */
  endpoint: string;
  /** Base64 PEM of the cluster CA, exactly as EKS `DescribeCluster` returns it; omitted = system roots. */
  caData?: string;
  auth: ClusterAuth;
}

/** Produces a bearer token for an `eks` auth record. */
export type EksTokenProvider = (auth: Extract<ClusterAuth, { type: 'eks' }>) => Promise<EksToken>;

/** Refresh a cached token this long before its `expiresAt` (ms). */
const REFRESH_MARGIN_MS = 60_000;

/** Token cache of {@link defaultEksTokenProvider}, per Lambda container. */
const tokenCache = new Map<string, Promise<EksToken>>();

/**
 * Default {@link EksTokenProvider}: {@link eksToken} with the Node credential chain (or AssumeRole of
 * `roleArn`), cached per (cluster, region, role) until one minute before expiry.
 * NOT verified against a real EKS cluster or STS (offline machine); the roleArn path is untested.
 */
export const defaultEksTokenProvider: EksTokenProvider = async (auth) => {
  const cacheKey = `${auth.region}/${auth.clusterName}/${auth.roleArn ?? ''}`;
  const cached = tokenCache.get(cacheKey);
  if (cached) {
    const t = await cached.catch(() => undefined);
    if (t && t.expiresAt.getTime() - Date.now() > REFRESH_MARGIN_MS) return t;
  }
  const fresh = (async () => {
    let credentials;
    if (auth.roleArn) {
      const { fromTemporaryCredentials } = await import('@aws-sdk/credential-providers');
      credentials = fromTemporaryCredentials({
        params: { RoleArn: auth.roleArn, RoleSessionName: 'kruiseless' },
        clientConfig: { region: auth.region },
      });
    }
    return eksToken(auth.clusterName, auth.region, credentials);
  })();
  tokenCache.set(cacheKey, fresh);
  return fresh;
};

/**
 * Loads a kubeconfig file and uses its current context.
 * @throws Error when the file is missing or not a kubeconfig
 */
export function kubeConfigFromFile(path: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  return kc;
}

/**
 * Builds a KubeConfig for a registered cluster: one cluster, one user, one context. For `eks` the token is
 * valid about 14 minutes: call again per invocation (tokens are cached) rather than keeping the KubeConfig.
 * @param tokenProvider for `eks` auth; default {@link defaultEksTokenProvider}
 * @throws whatever the token provider throws (e.g. no AWS credentials)
 */
export async function kubeConfigFromCluster(
  record: ClusterRecord,
  tokenProvider: EksTokenProvider = defaultEksTokenProvider,
): Promise<KubeConfig> {
  const token = record.auth.type === 'token' ? record.auth.token : (await tokenProvider(record.auth)).token;
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser(
    {
      name: record.name,
      server: record.endpoint,
      caData: record.caData,
      skipTLSVerify: record.endpoint.startsWith('http:'),
    },
    { name: 'kruiseless', token },
  );
  return kc;
}
