/**
 * The API server's version as OpenKruise's `ShouldUpdateResourceByResize` reads it (cloud build metadata dropped),
 * the write of an in-place cpu/memory change it decides, and the client's one `GET /version`, kept.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { createKubeClient } from '../../../lib/kube/client.js';
import { VERSION_RETRY_AFTER_MS } from '../../../lib/kube/types.js';
import { parseServerVersion, type ServerVersionInfo } from '../../../lib/kube/version.js';
import { resizeWriteFor } from '../../../lib/reconcile/pods/patchPod.js';
import { answer, fakeApiServer, status, type FakeApiServer } from './support/fakeApiServer.js';

describe('parseServerVersion', () => {
  it.each<[string, ServerVersionInfo, string | undefined]>([
    ['a plain release', { major: '1', minor: '34', gitVersion: 'v1.34.4' }, '1.34.4'],
    ['EKS', { major: '1', minor: '31+', gitVersion: 'v1.31.4-eks-2d98532' }, '1.31.4'],
    ['GKE', { major: '1', minor: '30+', gitVersion: 'v1.30.5-gke.1014001' }, '1.30.5'],
    ['GKE, build metadata after the minor', { gitVersion: 'v1.28+gke.1' }, '1.28.1'],
    ['EKS at 1.32', { major: '1', minor: '32+', gitVersion: 'v1.32.0-eks-5ca49cb' }, '1.32.0'],
    ['no leading v', { gitVersion: '1.33.2' }, '1.33.2'],
    ['no patch number', { gitVersion: 'v1.32' }, '1.32.0'],
    ['no gitVersion: the fields, `+` dropped', { major: '1', minor: '31+' }, '1.31.0'],
    [
      'a gitVersion without numbers: the fields',
      { major: '1', minor: '33', gitVersion: 'unknown' },
      '1.33.0',
    ],
    ['nothing numeric', { major: '', minor: 'x', gitVersion: 'garbage' }, undefined],
    ['empty', {}, undefined],
    ['a major only', { gitVersion: 'v1' }, undefined],
  ])('%s', (_, info, expected) => {
    const v = parseServerVersion(info);
    expect(v && `${v.major}.${v.minor}.${v.patch}`).toBe(expected);
  });
});

describe('resizeWriteFor: pods/resize from Kubernetes 1.32, the pod patch before, both when unknown', () => {
  it.each<[ServerVersionInfo | undefined, string]>([
    [{ gitVersion: 'v1.34.4' }, 'resize'],
    [{ gitVersion: 'v1.32.0' }, 'resize'],
    [{ gitVersion: 'v1.32.0-eks-5ca49cb' }, 'resize'],
    [{ major: '1', minor: '33+' }, 'resize'],
    [{ gitVersion: 'v2.0.0' }, 'resize'],
    [{ gitVersion: 'v1.31.4-eks-2d98532' }, 'podPatch'],
    [{ gitVersion: 'v1.30.5-gke.1014001' }, 'podPatch'],
    [{ gitVersion: 'v1.28+gke.1' }, 'podPatch'],
    [{ gitVersion: 'v0.40.0' }, 'podPatch'],
    [{ gitVersion: 'garbage' }, 'resizeThenPodPatch'],
    [undefined, 'resizeThenPodPatch'],
  ])('%j → %s', (info, expected) => {
    expect(resizeWriteFor(info)).toBe(expected);
  });
});

describe('KubeClient.serverVersion', () => {
  const servers: FakeApiServer[] = [];
  afterEach(async () => {
    for (const srv of servers.splice(0)) await srv.close();
  });
  function client(url: string, clock: () => number) {
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser({ name: 'fake', server: url, skipTLSVerify: true }, { name: 'u', token: 't' });
    return createKubeClient(kc, {
      retry: { retries: 0, minTimeoutMs: 1 },
      clock,
      logger: { warn: () => undefined },
    });
  }

  it('reads GET /version once, concurrent callers included, and keeps it', async () => {
    const srv = await fakeApiServer((_req, res) =>
      answer(res, 200, { major: '1', minor: '31+', gitVersion: 'v1.31.4-eks-2d98532' }),
    );
    servers.push(srv);
    const kube = client(srv.url, () => 0);
    const answers = await Promise.all([kube.serverVersion(), kube.serverVersion()]);
    expect(await kube.serverVersion()).toEqual(answers[0]);
    expect(answers[1]?.gitVersion).toBe('v1.31.4-eks-2d98532');
    expect(srv.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /version']);
  });

  it('a failed read answers undefined without throwing, and is tried again only after a minute', async () => {
    const srv = await fakeApiServer((_req, res, i) =>
      i === 0
        ? answer(res, 403, status(403, 'Forbidden', 'no'))
        : answer(res, 200, { gitVersion: 'v1.30.1' }),
    );
    servers.push(srv);
    const now = { ms: 1_000 };
    const kube = client(srv.url, () => now.ms);
    expect(await kube.serverVersion()).toBeUndefined();
    now.ms += VERSION_RETRY_AFTER_MS - 1;
    expect(await kube.serverVersion()).toBeUndefined();
    expect(srv.seen).toHaveLength(1);
    now.ms += 1;
    expect(await kube.serverVersion()).toEqual({ gitVersion: 'v1.30.1' });
    expect(await kube.serverVersion()).toEqual({ gitVersion: 'v1.30.1' });
    expect(srv.seen).toHaveLength(2);
  });
});
