/**
 * KubeConfigs for the clusters Kruiseless serves: from a kubeconfig file (local control plane, tests) or from a
 * cluster registry record (docs/architecture.md#cluster-registry: endpoint, CA, how to authenticate), with EKS
 * tokens produced in-process (eksToken.ts).
 */
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { systemClock, type Clock } from '../core/clock.js';
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

/** The `eks` form of {@link ClusterAuth}. */
export type EksAuth = Extract<ClusterAuth, { type: 'eks' }>;

/**
 * Produces a bearer token for an `eks` auth record.
 * @param opts.fresh sign a new token even when a cached one is still good (after the API server refused one, 401)
 */
export type EksTokenProvider = (auth: EksAuth, opts?: { fresh?: boolean }) => Promise<EksToken>;

/**
 * The validity a token must have left when it is handed out, ms: the longest invocation that may use it — the
 * reconcile function's timeout, 120 s (serverless.yml; watch 70 s and resync 60 s are shorter;
 * test/unit/kube/eksTokenProvider.test.ts checks them) — plus 60 s for clock skew between Lambda and EKS. With
 * {@link EKS_TOKEN_LIFETIME_MS} of 14 min a token is handed out until 11 min after signing and used until 13 min at
 * the latest, 2 min before EKS stops accepting it (15 min).
 */
export const TOKEN_MIN_VALIDITY_MS = 180_000;

/**
 * Signs a new EKS token for `auth`: with the Node credential chain (the Lambda role), or with the credentials of
 * `auth.roleArn` from STS AssumeRole (session name `kruiseless`, regional STS of `auth.region`).
 * @throws whatever the credential providers throw (no credentials, AssumeRole denied)
 */
export async function signEksToken(auth: EksAuth): Promise<EksToken> {
  let credentials;
  if (auth.roleArn) {
    const { fromTemporaryCredentials } = await import('@aws-sdk/credential-providers');
    credentials = fromTemporaryCredentials({
      params: { RoleArn: auth.roleArn, RoleSessionName: 'kruiseless' },
      clientConfig: { region: auth.region },
    });
  }
  return eksToken(auth.clusterName, auth.region, credentials);
}

/**
 * An {@link EksTokenProvider} that caches one token per (region, cluster, role) and hands it out while at least
 * `minValidityMs` of it is left; concurrent callers share one signing (a burst of 401s signs once); a failed signing
 * is not cached.
 * @param opts.minValidityMs default {@link TOKEN_MIN_VALIDITY_MS}
 * @param opts.sign default {@link signEksToken}
 * @param opts.clock default the system clock
 */
export function createEksTokenProvider(
  opts: { minValidityMs?: number; sign?: (auth: EksAuth) => Promise<EksToken>; clock?: Clock } = {},
): EksTokenProvider {
  const minValidityMs = opts.minValidityMs ?? TOKEN_MIN_VALIDITY_MS;
  const sign = opts.sign ?? signEksToken;
  const clock = opts.clock ?? systemClock;
  const cache = new Map<string, Promise<EksToken>>();
  /** Signings under way: every caller meanwhile, `fresh` or not, gets that token (one AssumeRole, not one each). */
  const signing = new Map<string, Promise<EksToken>>();
  return async (auth, { fresh = false } = {}) => {
    const cacheKey = `${auth.region}/${auth.clusterName}/${auth.roleArn ?? ''}`;
    const inFlight = signing.get(cacheKey);
    if (inFlight) return inFlight;
    const cached = cache.get(cacheKey);
    if (cached && !fresh) {
      const t = await cached.catch(() => undefined);
      if (t && t.expiresAt.getTime() - clock() >= minValidityMs) return t;
      const started = signing.get(cacheKey); // by a caller that found the same stale token meanwhile
      if (started) return started;
    }
    const signed = sign(auth);
    signing.set(cacheKey, signed);
    cache.set(cacheKey, signed);
    signed.then(
      () => signing.delete(cacheKey),
      () => {
        signing.delete(cacheKey);
        if (cache.get(cacheKey) === signed) cache.delete(cacheKey);
      },
    );
    return signed;
  };
}

/**
 * Default {@link EksTokenProvider} of a Lambda container: {@link createEksTokenProvider} with its defaults.
 * NOT verified against a real EKS cluster (offline machine); AssumeRole of `roleArn` is tested against moto's STS.
 */
export const defaultEksTokenProvider: EksTokenProvider = createEksTokenProvider();

/**
 * Replaces the bearer token of `kc`'s current user in place: the same KubeConfig object, so its connection pool
 * (./request.ts) stays; requests already sent keep the token they were sent with.
 * @throws Error when `kc` has no current cluster or user
 */
export function setBearerToken(kc: KubeConfig, token: string): void {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  if (!cluster || !user) throw new Error('the kubeconfig has no current cluster and user');
  kc.loadFromClusterAndUser(cluster, { ...user, token });
}

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
 * valid about 14 minutes: keep the KubeConfig through lib/kube/connections.ts, which refreshes the token in place.
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
