/**
 * The client's discovery (`serverResources`) and scale (`getScale`) reads over a stand-in API server — the paths,
 * what is kept and what is asked again — and the wrappers that build a client around another passing both on (a
 * wrapper that dropped them would leave a PodUnavailableBudget's custom target covering no pods, silently).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { createKubeClient } from '../../../lib/kube/client.js';
import type { Resource } from '../../../lib/kube/resource.js';
import type { KubeClient } from '../../../lib/kube/types.js';
import { wrappedWrites } from '../../../lib/kube/wrappedWrites.js';
import { leaseGuardedKube } from '../../../lib/reconcile/leaseGuard.js';
import { countingKube } from '../../../lib/runtime/counting.js';
import type { Lease } from '../../../lib/state/index.js';
import { answer, fakeApiServer, status, type FakeApiServer } from './support/fakeApiServer.js';
import { scaleReadsStandIn } from './support/scaleReads.js';

const ROLLOUTS = {
  group: 'argoproj.io',
  version: 'v1alpha1',
  plural: 'rollouts',
  namespaced: true,
  kind: 'Rollout',
} as Resource;

describe('KubeClient discovery and scale reads', () => {
  const servers: FakeApiServer[] = [];
  afterEach(async () => {
    for (const srv of servers.splice(0)) await srv.close();
  });
  async function serve(
    handler: Parameters<typeof fakeApiServer>[0],
  ): Promise<{ srv: FakeApiServer; kube: KubeClient }> {
    const srv = await fakeApiServer(handler);
    servers.push(srv);
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser(
      { name: 'fake', server: srv.url, skipTLSVerify: true },
      { name: 'u', token: 't' },
    );
    return { srv, kube: createKubeClient(kc, { retry: { retries: 0, minTimeoutMs: 1 } }) };
  }
  const seen = (srv: FakeApiServer) => srv.seen.map((r) => `${r.method} ${r.url}`);

  it('reads a group version once, concurrent callers included, and keeps name, scope and kind of each resource', async () => {
    const { srv, kube } = await serve((req, res) =>
      answer(res, 200, {
        kind: 'APIResourceList',
        groupVersion: req.url === '/api/v1' ? 'v1' : 'argoproj.io/v1alpha1',
        resources: [
          { name: 'rollouts', singularName: 'rollout', namespaced: true, kind: 'Rollout', verbs: ['get'] },
          {
            name: 'rollouts/scale',
            singularName: '',
            namespaced: true,
            group: 'autoscaling',
            kind: 'Scale',
            verbs: ['get'],
          },
        ],
      }),
    );
    const [a, b] = await Promise.all([
      kube.serverResources?.('argoproj.io/v1alpha1'),
      kube.serverResources?.('argoproj.io/v1alpha1'),
    ]);
    expect(a).toEqual([
      { name: 'rollouts', namespaced: true, kind: 'Rollout' },
      { name: 'rollouts/scale', namespaced: true, kind: 'Scale' },
    ]);
    expect(b).toEqual(a);
    await kube.serverResources?.('argoproj.io/v1alpha1');
    await kube.serverResources?.('v1');
    expect(seen(srv)).toEqual(['GET /apis/argoproj.io/v1alpha1', 'GET /api/v1']);
    // fresh asks again, and what it gets is kept
    await kube.serverResources?.('argoproj.io/v1alpha1', { fresh: true });
    await kube.serverResources?.('argoproj.io/v1alpha1');
    expect(seen(srv)).toEqual([
      'GET /apis/argoproj.io/v1alpha1',
      'GET /api/v1',
      'GET /apis/argoproj.io/v1alpha1',
    ]);
  });

  it('answers undefined for a group version not served, and asks again the next time (it may be installed since)', async () => {
    const { srv, kube } = await serve((_req, res, i) =>
      i === 0
        ? answer(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'))
        : answer(res, 200, { resources: [] }),
    );
    expect(await kube.serverResources?.('argoproj.io/v1alpha1')).toBeUndefined();
    expect(await kube.serverResources?.('argoproj.io/v1alpha1')).toEqual([]);
    expect(await kube.serverResources?.('argoproj.io/v1alpha1')).toEqual([]);
    expect(seen(srv)).toEqual(['GET /apis/argoproj.io/v1alpha1', 'GET /apis/argoproj.io/v1alpha1']);
  });

  it('throws another failure and keeps nothing of it', async () => {
    const { srv, kube } = await serve((_req, res, i) =>
      i === 0 ? answer(res, 403, status(403, 'Forbidden', 'no')) : answer(res, 200, { resources: [] }),
    );
    await expect(kube.serverResources?.('argoproj.io/v1alpha1')).rejects.toThrow('no');
    // let the failed read's clean-up run before asking again
    await new Promise((r) => setImmediate(r));
    expect(await kube.serverResources?.('argoproj.io/v1alpha1')).toEqual([]);
    expect(srv.seen).toHaveLength(2);
  });

  it('GETs the scale subresource of a namespaced object, undefined on 404', async () => {
    const { srv, kube } = await serve((req, res) =>
      req.url?.includes('/web/')
        ? answer(res, 200, {
            kind: 'Scale',
            metadata: { name: 'web', uid: 'u-1' },
            spec: { replicas: 4 },
            status: { selector: 'app=web' },
          })
        : answer(res, 404, status(404, 'NotFound', 'rollouts.argoproj.io "gone" not found')),
    );
    expect(await kube.getScale?.(ROLLOUTS, { namespace: 'ns', name: 'web' })).toMatchObject({
      metadata: { uid: 'u-1' },
      spec: { replicas: 4 },
      status: { selector: 'app=web' },
    });
    expect(await kube.getScale?.(ROLLOUTS, { namespace: 'ns', name: 'gone' })).toBeUndefined();
    expect(seen(srv)).toEqual([
      'GET /apis/argoproj.io/v1alpha1/namespaces/ns/rollouts/web/scale',
      'GET /apis/argoproj.io/v1alpha1/namespaces/ns/rollouts/gone/scale',
    ]);
  });
});

describe('client wrappers pass discovery and scale reads on', () => {
  const stand = scaleReadsStandIn({ 'argoproj.io/v1alpha1': [] });
  const { calls } = stand;
  const inner = stand as unknown as KubeClient;
  const lease = {
    key: { kind: 'k', namespace: 'n', name: 'x' },
    expiresAt: Number.MAX_SAFE_INTEGER,
  } as unknown as Lease;

  it.each<[string, (k: KubeClient) => KubeClient]>([
    ['wrappedWrites', (k) => wrappedWrites(k, (_r, send) => send())],
    [
      'leaseGuardedKube',
      (k) =>
        leaseGuardedKube(
          k,
          () => lease,
          () => 0,
        ),
    ],
    ['countingKube', (k) => countingKube(k, { kube: {}, dynamo: {}, dynamoWatch: {} })],
  ])('%s', async (_, wrap) => {
    calls.length = 0;
    const kube = wrap(inner);
    await kube.serverResources?.('argoproj.io/v1alpha1', { fresh: true });
    await kube.getScale?.(ROLLOUTS, { namespace: 'ns', name: 'web' });
    expect(calls).toEqual([
      'discover argoproj.io/v1alpha1 fresh',
      'get argoproj.io/v1alpha1 rollouts/scale ns/web namespaced=true',
    ]);
  });

  it('countingKube counts a scale GET (discovery, kept by the client, is not counted)', async () => {
    const counts = { kube: {} as Record<string, number>, dynamo: {}, dynamoWatch: {} };
    const kube = countingKube(inner, counts);
    await kube.serverResources?.('argoproj.io/v1alpha1');
    await kube.getScale?.(ROLLOUTS, { namespace: 'ns', name: 'web' });
    expect(counts.kube).toEqual({ 'get rollouts/scale': 1 });
  });

  it('a wrapped client without them has none', () => {
    const bare = {} as KubeClient;
    expect(wrappedWrites(bare, (_r, send) => send()).getScale).toBeUndefined();
    expect(countingKube(bare, { kube: {}, dynamo: {}, dynamoWatch: {} }).serverResources).toBeUndefined();
  });
});
