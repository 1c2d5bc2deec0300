/**
 * The EKS token margin (lib/kube/config.ts; review finding 16): a token handed to an invocation stays valid for the
 * longest invocation of a function that calls a cluster, with room for clock skew, and a refused token is replaced.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { parseServerlessYml } from '../../../lib/emulator/serverlessRules.js';
import { createEksTokenProvider, TOKEN_MIN_VALIDITY_MS, type EksAuth } from '../../../lib/kube/config.js';
import { EKS_TOKEN_LIFETIME_MS, type EksToken } from '../../../lib/kube/eksToken.js';

const MIN = 60_000;
const T0 = 1_700_000_000_000;
const AUTH: EksAuth = { type: 'eks', clusterName: 'prod', region: 'eu-west-1' };

function provider(opts: { fail?: boolean } = {}) {
  const clock = { now: T0 };
  let n = 0;
  const sign = async (): Promise<EksToken> => {
    n++;
    if (opts.fail && n === 1) throw new Error('no credentials');
    return { token: `t${n}`, expiresAt: new Date(clock.now + EKS_TOKEN_LIFETIME_MS) };
  };
  return {
    clock,
    get signed() {
      return n;
    },
    tokens: createEksTokenProvider({ sign, clock: () => clock.now }),
  };
}

describe('EKS token provider', () => {
  it('covers the longest invocation of every function that calls a cluster, plus 60 s of clock skew', () => {
    const yml = parseServerlessYml(
      readFileSync(new URL('../../../serverless.yml', import.meta.url), 'utf8'),
    ) as {
      functions: Record<string, { timeout: number }>;
    };
    const longest = Math.max(...['watch', 'resync', 'reconcile'].map((f) => yml.functions[f].timeout * 1000));
    expect(longest + 60_000).toBeLessThanOrEqual(TOKEN_MIN_VALIDITY_MS);
    // and what is left after the last use is still inside EKS's 15 minutes
    expect(EKS_TOKEN_LIFETIME_MS - TOKEN_MIN_VALIDITY_MS + longest).toBeLessThan(15 * MIN);
  });

  it('hands out a cached token until only TOKEN_MIN_VALIDITY_MS of it is left, then signs a new one', async () => {
    const p = provider();
    await expect(p.tokens(AUTH)).resolves.toMatchObject({ token: 't1' });
    p.clock.now = T0 + EKS_TOKEN_LIFETIME_MS - TOKEN_MIN_VALIDITY_MS; // 11 minutes old
    await expect(p.tokens(AUTH)).resolves.toMatchObject({ token: 't1' });
    p.clock.now += 1;
    await expect(p.tokens(AUTH)).resolves.toMatchObject({ token: 't2' });
    expect(p.signed).toBe(2);
  });

  it('never hands out a token that expires within an invocation of 120 s (the old 60 s margin did)', async () => {
    const p = provider();
    await p.tokens(AUTH);
    for (let age = 0; age <= EKS_TOKEN_LIFETIME_MS; age += 15_000) {
      p.clock.now = T0 + age;
      const t = await p.tokens(AUTH);
      expect(t.expiresAt.getTime() - p.clock.now).toBeGreaterThanOrEqual(120_000 + 60_000);
    }
  });

  it('fresh: true signs a new token even while the cached one is good', async () => {
    const p = provider();
    await p.tokens(AUTH);
    await expect(p.tokens(AUTH, { fresh: true })).resolves.toMatchObject({ token: 't2' });
    await expect(p.tokens(AUTH)).resolves.toMatchObject({ token: 't2' });
  });

  it('callers during a signing share it, fresh or not: a burst of 401s signs one token', async () => {
    const p = provider();
    await p.tokens(AUTH);
    const burst = await Promise.all(Array.from({ length: 16 }, () => p.tokens(AUTH, { fresh: true })));
    expect(new Set(burst.map((t) => t.token))).toEqual(new Set(['t2']));
    expect(p.signed).toBe(2);
  });

  it('callers that find the same stale token at once share one new signing', async () => {
    const p = provider();
    await p.tokens(AUTH);
    p.clock.now = T0 + EKS_TOKEN_LIFETIME_MS;
    const both = await Promise.all([p.tokens(AUTH), p.tokens(AUTH), p.tokens(AUTH)]);
    expect(both.map((t) => t.token)).toEqual(['t2', 't2', 't2']);
    expect(p.signed).toBe(2);
  });

  it('a failed signing is not cached', async () => {
    const p = provider({ fail: true });
    await expect(p.tokens(AUTH)).rejects.toThrow('no credentials');
    await expect(p.tokens(AUTH)).resolves.toMatchObject({ token: 't2' });
  });

  it('caches per cluster, region and role', async () => {
    const p = provider();
    await p.tokens(AUTH);
    await p.tokens({ ...AUTH, clusterName: 'other' });
    await p.tokens({ ...AUTH, roleArn: 'arn:aws:iam::123456789012:role/kruiseless' });
    await p.tokens(AUTH);
    expect(p.signed).toBe(3);
  });
});
