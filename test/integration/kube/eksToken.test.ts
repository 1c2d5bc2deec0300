/**
 * EKS token format (`k8s-aws-v1.` + a presigned STS GetCallerIdentity URL), offline with fixed credentials and a fixed clock. This proves the
 * format aws-iam-authenticator expects; it was NOT checked against a real EKS cluster.
 */
import { EKS_TOKEN_PREFIX, eksToken } from '../../../lib/kube/eksToken.js';

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  sessionToken: 'session-token/with+odd=chars',
};
const now = new Date('2026-11-30T12:00:00Z');

function decode(token: string): URL {
  expect(token.startsWith(EKS_TOKEN_PREFIX)).toBe(true);
  return new URL(Buffer.from(token.slice(EKS_TOKEN_PREFIX.length), 'base64url').toString('utf8'));
}

describe('eksToken', () => {
  test('is k8s-aws-v1. + unpadded base64url of a presigned regional STS GetCallerIdentity URL', async () => {
    const { token, expiresAt } = await eksToken('prod-cluster', 'eu-west-1', credentials, now);
    expect(token.slice(EKS_TOKEN_PREFIX.length)).toMatch(/^[A-Za-z0-9_-]+$/);
    const url = decode(token);
    expect(url.protocol).toBe('https:');
    expect(url.host).toBe('sts.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe('/');
    const q = url.searchParams;
    expect(q.get('Action')).toBe('GetCallerIdentity');
    expect(q.get('Version')).toBe('2011-06-15');
    expect(q.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(q.get('X-Amz-Credential')).toBe('AKIDEXAMPLE/20261130/eu-west-1/sts/aws4_request');
    expect(q.get('X-Amz-Date')).toBe('20261130T120000Z');
    expect(q.get('X-Amz-Expires')).toBe('60');
    expect(q.get('X-Amz-SignedHeaders')).toBe('host;x-k8s-aws-id');
    expect(q.get('X-Amz-Security-Token')).toBe(credentials.sessionToken);
    expect(q.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const allowed = [
      'action',
      'version',
      'x-amz-algorithm',
      'x-amz-credential',
      'x-amz-date',
      'x-amz-expires',
      'x-amz-security-token',
      'x-amz-signature',
      'x-amz-signedheaders',
    ];
    expect([...q.keys()].every((k) => allowed.includes(k.toLowerCase()))).toBe(true);
    expect(token.length).toBeLessThan(4096);
    expect(expiresAt.toISOString()).toBe('2026-11-30T12:14:00.000Z');
  });

  test('is deterministic for fixed inputs and the signature covers the cluster name', async () => {
    const a = await eksToken('prod-cluster', 'eu-west-1', credentials, now);
    const b = await eksToken('prod-cluster', 'eu-west-1', credentials, now);
    const other = await eksToken('staging-cluster', 'eu-west-1', credentials, now);
    expect(a.token).toBe(b.token);
    const sig = (t: string) => decode(t).searchParams.get('X-Amz-Signature');
    expect(sig(other.token)).not.toBe(sig(a.token));
  });

  test('a credential provider function is accepted', async () => {
    const { token } = await eksToken('c', 'us-east-1', async () => credentials, now);
    expect(decode(token).host).toBe('sts.us-east-1.amazonaws.com');
  });
});
