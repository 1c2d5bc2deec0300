/**
 * What a real API server cannot be made to do on demand: 429/5xx responses (with Retry-After) and refused connections. A local HTTP
 * server stands in for it here only; everything else runs against the real one.
 * Also covers kubeConfigFromCluster with token auth (the bearer token reaches the server).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createKubeClient } from '../../../lib/kube/client.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import { patchCloneSetPodsToDelete } from '../../../lib/controllers/cloneset/write.js';
import { kubeConfigFromCluster } from '../../../lib/kube/config.js';
import { REASON_NETWORK_ERROR, isRetryable } from '../../../lib/kube/errors.js';
import { kubeError } from './fixtures.js';

interface Seen {
  method: string;
  url: string;
  authorization?: string;
  contentType?: string;
  body: string;
}

/** Serves `responses` in order (the last one repeats); records every request. */
async function fakeServer(
  responses: { status: number; body: unknown; headers?: Record<string, string> }[],
): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      });
      const r = responses[Math.min(seen.length - 1, responses.length - 1)];
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
      res.end(JSON.stringify(r.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const status = (code: number, reason: string, message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  code,
  reason,
  message,
});
const podList = { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '42' }, items: [] };
const fast = { retries: 3, minTimeoutMs: 10 };

async function clientFor(url: string) {
  const kc = await kubeConfigFromCluster({
    name: 'fake',
    endpoint: url,
    auth: { type: 'token', token: 'sekret' },
  });
  return createKubeClient(kc, { retry: fast });
}

describe('KubeClient retries', () => {
  test('429 and 503 are retried with backoff until the request succeeds', async () => {
    const srv = await fakeServer([
      { status: 429, body: status(429, 'TooManyRequests', 'slow down') },
      { status: 503, body: status(503, 'ServiceUnavailable', 'etcd leader change') },
      { status: 200, body: podList },
    ]);
    try {
      const kube = await clientFor(srv.url);
      await expect(kube.list(RESOURCES.pods, { namespace: 'ns', labelSelector: 'a=b' })).resolves.toEqual({
        items: [],
        resourceVersion: '42',
      });
      expect(srv.seen).toHaveLength(3);
      expect(srv.seen[0].url).toBe('/api/v1/namespaces/ns/pods?labelSelector=a%3Db');
      expect(srv.seen.every((s) => s.authorization === 'Bearer sekret')).toBe(true);
    } finally {
      await srv.close();
    }
  });

  test.each([
    ['the Retry-After header', { 'retry-after': '1' }, status(429, 'TooManyRequests', 'slow down')],
    [
      'the Status details',
      {},
      { ...status(429, 'TooManyRequests', 'slow down'), details: { retryAfterSeconds: 1 } },
    ],
  ])(
    'a 429 waits what %s asks (1 s) before the retry, not the 10 ms backoff',
    async (_what, headers, body) => {
      const srv = await fakeServer([
        { status: 429, body, headers },
        { status: 200, body: podList },
      ]);
      try {
        const kube = await clientFor(srv.url);
        const started = Date.now();
        await expect(kube.list(RESOURCES.pods, { namespace: 'ns' })).resolves.toEqual({
          items: [],
          resourceVersion: '42',
        });
        const elapsed = Date.now() - started;
        expect(srv.seen).toHaveLength(2);
        expect(elapsed).toBeGreaterThanOrEqual(1000);
        expect(elapsed).toBeLessThan(3000);
      } finally {
        await srv.close();
      }
    },
  );

  test('retries stop after `retries` attempts and the last error is thrown', async () => {
    const srv = await fakeServer([{ status: 500, body: status(500, 'InternalError', 'boom') }]);
    try {
      const kube = await clientFor(srv.url);
      const err = await kubeError(kube.list(RESOURCES.pods, { namespace: 'ns' }));
      expect(srv.seen).toHaveLength(4);
      expect(err).toMatchObject({ statusCode: 500, reason: 'InternalError', apiMessage: 'boom' });
      expect(isRetryable(err)).toBe(true);
    } finally {
      await srv.close();
    }
  });

  test.each([
    [409, 'Conflict'],
    [404, 'NotFound'],
    [422, 'Invalid'],
  ])('a %i %s is never retried', async (code, reason) => {
    const srv = await fakeServer([{ status: code, body: status(code, reason, 'no') }]);
    try {
      const kube = await clientFor(srv.url);
      const err = await kubeError(
        kube.patch(
          RESOURCES.pods,
          { namespace: 'ns', name: 'p' },
          { type: 'strategic-merge', body: { metadata: { labels: { a: 'b' } } } },
          { preconditions: { resourceVersion: '7' } },
        ),
      );
      expect(srv.seen).toHaveLength(1);
      expect(err).toMatchObject({ statusCode: code, reason, operation: 'patch pod ns/p' });
      expect(srv.seen[0]).toMatchObject({
        method: 'PATCH',
        url: '/api/v1/namespaces/ns/pods/p?fieldManager=kruiseless',
        contentType: 'application/strategic-merge-patch+json',
      });
      expect(JSON.parse(srv.seen[0].body)).toEqual({
        metadata: { labels: { a: 'b' }, resourceVersion: '7' },
      });
    } finally {
      await srv.close();
    }
  });

  test('a refused connection is retried, then thrown as a NetworkError with statusCode 0', async () => {
    const srv = await fakeServer([{ status: 200, body: podList }]);
    const url = srv.url;
    await srv.close();
    const kube = await clientFor(url);
    const err = await kubeError(kube.list(RESOURCES.pods, { namespace: 'ns' }));
    expect(err.statusCode).toBe(0);
    expect(err.reason).toBe(REASON_NETWORK_ERROR);
    expect(err.apiMessage).toMatch(/ECONNREFUSED/);
  });

  test('patchCloneSetPodsToDelete sends a JSON merge patch with the resourceVersion precondition', async () => {
    const srv = await fakeServer([{ status: 200, body: { metadata: { name: 'cs' }, spec: {} } }]);
    try {
      const kube = await clientFor(srv.url);
      await patchCloneSetPodsToDelete(
        kube,
        { metadata: { name: 'cs', namespace: 'ns', resourceVersion: '9' }, spec: {} as never },
        ['p1'],
      );
      expect(srv.seen[0]).toMatchObject({
        method: 'PATCH',
        url: '/apis/apps.kruise.io/v1alpha1/namespaces/ns/clonesets/cs?fieldManager=kruiseless',
        contentType: 'application/merge-patch+json',
      });
      expect(JSON.parse(srv.seen[0].body)).toEqual({
        metadata: { resourceVersion: '9' },
        spec: { scaleStrategy: { podsToDelete: ['p1'] } },
      });
    } finally {
      await srv.close();
    }
  });
});

describe('kubeConfigFromCluster', () => {
  test('an eks record gets its bearer token from the token provider', async () => {
    const srv = await fakeServer([{ status: 200, body: podList }]);
    try {
      const calls: unknown[] = [];
      const kc = await kubeConfigFromCluster(
        { name: 'prod', endpoint: srv.url, auth: { type: 'eks', clusterName: 'prod', region: 'eu-west-1' } },
        async (auth) => {
          calls.push(auth);
          return { token: 'k8s-aws-v1.abc', expiresAt: new Date(Date.now() + 60_000) };
        },
      );
      await createKubeClient(kc).list(RESOURCES.pods, { namespace: 'ns' });
      expect(calls).toEqual([{ type: 'eks', clusterName: 'prod', region: 'eu-west-1' }]);
      expect(srv.seen[0].authorization).toBe('Bearer k8s-aws-v1.abc');
    } finally {
      await srv.close();
    }
  });
});
