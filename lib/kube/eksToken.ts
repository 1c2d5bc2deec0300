/**
 * EKS bearer tokens without aws-iam-authenticator (the token `aws eks get-token` prints): a SigV4-presigned STS
 * `GetCallerIdentity` URL with the `x-k8s-aws-id: <cluster>` header signed in, encoded as
 * `k8s-aws-v1.<base64url, no padding>`. Same format as aws-iam-authenticator `pkg/token/token.go`.
 *
 * Verified offline only (format, signed headers, query parameters; test/integration/kube/eksToken.test.ts).
 * NOT verified against a real EKS cluster from this machine (no AWS access here).
 */
import { Hash } from '@smithy/hash-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';

/** Prefix of every EKS token. */
export const EKS_TOKEN_PREFIX = 'k8s-aws-v1.';

/** The presigned URL is valid 15 min after X-Amz-Date; like aws-iam-authenticator we consider it good for 14. */
export const EKS_TOKEN_LIFETIME_MS = 14 * 60_000;

/** A token and when to stop using it. */
export interface EksToken {
  token: string;
  /** Refresh before this instant (14 min after signing). */
  expiresAt: Date;
}

/**
 * Produces an EKS token for `clusterName` (the EKS cluster *name*, not its ARN) using regional STS.
 * @param credentials static credentials or a provider; default: the Node provider chain (Lambda role env vars)
 * @param now signing time (tests); default now
 * @throws whatever the credential provider throws (no AWS call is made besides resolving credentials)
 */
export async function eksToken(
  clusterName: string,
  region: string,
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider,
  now: Date = new Date(),
): Promise<EksToken> {
  const hostname = `sts.${region}.amazonaws.com`;
  const signer = new SignatureV4({
    credentials: credentials ?? (await defaultCredentials()),
    region,
    service: 'sts',
    sha256: Hash.bind(null, 'sha256'),
  });
  const signed = await signer.presign(
    new HttpRequest({
      method: 'GET',
      protocol: 'https:',
      hostname,
      path: '/',
      headers: { host: hostname, 'x-k8s-aws-id': clusterName },
      query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
    }),
    { expiresIn: 60, signingDate: now },
  );
  const query = Object.entries(signed.query ?? {})
    .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v ?? '']]))
    .map(([k, v]) => `${encodeURIComponent(String(k))}=${encodeURIComponent(String(v))}`)
    .join('&');
  const url = `https://${hostname}/?${query}`;
  return {
    token: EKS_TOKEN_PREFIX + Buffer.from(url).toString('base64url'),
    expiresAt: new Date(now.getTime() + EKS_TOKEN_LIFETIME_MS),
  };
}

/** The default Node credential chain, loaded lazily (keeps the SDK out of paths that never need it). */
async function defaultCredentials(): Promise<AwsCredentialIdentityProvider> {
  const { fromNodeProviderChain } = await import('@aws-sdk/credential-providers');
  return fromNodeProviderChain();
}
