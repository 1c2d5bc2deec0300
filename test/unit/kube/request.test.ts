/**
 * The HTTP layer's deadlines, its 401 refresh and its connection pool (lib/kube/request.ts; review findings 14, 15
 * and 16), against a local server that hangs, stalls or refuses on demand.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { createKubeClient } from '../../../lib/kube/client.js';
import { setBearerToken } from '../../../lib/kube/config.js';
import { isRetryable, KubeApiError, REASON_NETWORK_ERROR } from '../../../lib/kube/errors.js';
import {
  closeConnections,
  DEFAULT_REQUEST_BUDGET_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_RETRY,
  keepAliveAgent,
  requestJson,
  USER_AGENT,
} from '../../../lib/kube/request.js';
import { watchOnce } from '../../../lib/kube/watch.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import {
  answer,
  eventually,
  fakeApiServer,
  POD_LIST,
  status,
  type FakeApiServer,
} from './support/fakeApiServer.js';
import http from 'node:http';

const fast = { retries: 1, minTimeoutMs: 10 };
const servers: FakeApiServer[] = [];

async function serve(handler: Parameters<typeof fakeApiServer>[0]): Promise<FakeApiServer> {
  const srv = await fakeApiServer(handler);
  servers.push(srv);
  return srv;
}

function kubeConfig(url: string, token = 'old'): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: 'fake', server: url, skipTLSVerify: true }, { name: 'u', token });
  return kc;
}

async function rejection(p: Promise<unknown>): Promise<KubeApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof KubeApiError) return e;
    throw e;
  }
  throw new Error('expected a KubeApiError');
}

afterEach(async () => {
  for (const srv of servers.splice(0)) await srv.close();
});

describe('request deadline (finding 14)', () => {
  it('is shorter than the reconcile invocation even when every attempt of a request times out', () => {
    // 5 attempts of 20 s plus the backoff between them (at most 200 + 400 + 800 + 1600 ms, ×2 jitter)
    const worstCaseMs = (DEFAULT_RETRY.retries + 1) * DEFAULT_REQUEST_TIMEOUT_MS + 2 * 3000;
    expect(worstCaseMs).toBeLessThan(120_000 - 8_000);
  });

  it('an attempt with no answer is a retryable NetworkError after the deadline, retried, then thrown', async () => {
    const srv = await serve(() => undefined); // never answers
    const kube = createKubeClient(kubeConfig(srv.url), { retry: fast, timeoutMs: 200 });
    const started = Date.now();
    const err = await rejection(kube.list(RESOURCES.pods, { namespace: 'ns' }));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(err).toMatchObject({ statusCode: 0, reason: REASON_NETWORK_ERROR });
    expect(err.apiMessage).toBe('request timed out: no complete response within 200 ms');
    expect(isRetryable(err)).toBe(true);
    expect(srv.seen).toHaveLength(2);
  });

  it('a body that stops half-way times out too', async () => {
    const srv = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"kind":"PodList","items":['); // and nothing more
    });
    const kube = createKubeClient(kubeConfig(srv.url), {
      retry: { retries: 0, minTimeoutMs: 10 },
      timeoutMs: 200,
    });
    const err = await rejection(kube.list(RESOURCES.pods, { namespace: 'ns' }));
    expect(err).toMatchObject({ statusCode: 0, reason: REASON_NETWORK_ERROR });
  });

  it('a timed-out attempt followed by an answer succeeds', async () => {
    const srv = await serve((_req, res, i) => (i === 0 ? undefined : answer(res, 200, POD_LIST)));
    const kube = createKubeClient(kubeConfig(srv.url), { retry: fast, timeoutMs: 200 });
    await expect(kube.list(RESOURCES.pods, { namespace: 'ns' })).resolves.toEqual({
      items: [],
      resourceVersion: '42',
    });
  });

  it("a retried attempt's error says which attempt it was (a 409 after a 503 may be on the caller's own write); a first attempt's does not", async () => {
    // the first PATCH is answered 503 (as an overloaded server may after applying it), the retry 409
    const retried = await serve((_req, res, i) =>
      i === 0
        ? answer(res, 503, status(503, 'ServiceUnavailable', 'the server is overloaded'))
        : answer(res, 409, status(409, 'Conflict', 'the object has been modified')),
    );
    const kube = createKubeClient(kubeConfig(retried.url), { retry: fast, timeoutMs: 2000 });
    const patch = { type: 'merge' as const, body: { count: 2 } };
    const err = await rejection(kube.patch(RESOURCES.events, { namespace: 'ns', name: 'e' }, patch));
    expect([err.statusCode, err.attempt]).toEqual([409, 2]);
    const first = await serve((_req, res) =>
      answer(res, 409, status(409, 'Conflict', 'the object has been modified')),
    );
    const once = await rejection(
      createKubeClient(kubeConfig(first.url), { retry: fast, timeoutMs: 2000 }).patch(
        RESOURCES.events,
        { namespace: 'ns', name: 'e' },
        patch,
      ),
    );
    expect([once.statusCode, once.attempt]).toEqual([409, undefined]);
  });

  it('a deadline that is not a positive number is refused', async () => {
    await expect(
      requestJson(
        kubeConfig('http://127.0.0.1:1'),
        'get x',
        fast,
        { method: 'GET', path: '/api' },
        { timeoutMs: 0 },
      ),
    ).rejects.toThrow(new RangeError('request timeout must be a positive number of ms, got 0'));
  });
});

describe('Retry-After within the request budget (finding 10)', () => {
  const retry = { retries: 4, minTimeoutMs: 10 };
  /** A 429 asking for `seconds`, as the API server's priority and fairness sheds a request. */
  const shed = (seconds: number) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(seconds) });
    res.end(JSON.stringify(status(429, 'TooManyRequests', 'slow down')));
  };
  const pods = { method: 'GET' as const, path: '/api/v1/namespaces/ns/pods' };

  it('the default budget fits the reconcile invocation (120 s less its 8 s margin)', () => {
    expect(DEFAULT_REQUEST_BUDGET_MS).toBe(100_000);
    expect(DEFAULT_REQUEST_BUDGET_MS).toBeLessThan(120_000 - 8_000);
  });

  it('a Retry-After longer than what is left of the budget is not waited for: the 429 is thrown at once', async () => {
    const srv = await serve(shed(30));
    const started = Date.now();
    const err = await rejection(
      requestJson(kubeConfig(srv.url), 'list pod ns', retry, pods, { budgetMs: 3000 }),
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(err).toMatchObject({ statusCode: 429, reason: 'TooManyRequests', retryAfterSeconds: 30 });
    expect(srv.seen).toHaveLength(1);
  });

  it('Retry-After waits are made while they fit: 1 s twice within 3.5 s, then the 429 is thrown', async () => {
    const srv = await serve(shed(1));
    const started = Date.now();
    const err = await rejection(
      requestJson(kubeConfig(srv.url), 'list pod ns', retry, pods, { budgetMs: 3500 }),
    );
    const elapsed = Date.now() - started;
    expect(srv.seen).toHaveLength(3);
    expect(elapsed).toBeGreaterThanOrEqual(2000);
    expect(elapsed).toBeLessThan(3500);
    expect(err.statusCode).toBe(429);
  });

  it('a budget that is not a positive number is refused', async () => {
    await expect(
      requestJson(
        kubeConfig('http://127.0.0.1:1'),
        'get x',
        fast,
        { method: 'GET', path: '/api' },
        { budgetMs: 0 },
      ),
    ).rejects.toThrow(new RangeError('request budget must be a positive number of ms, got 0'));
  });
});

describe('User-Agent', () => {
  it("every request and every watch names Kruiseless, in client-go's form, as the audit log shows its client", async () => {
    const srv = await serve((req, res) =>
      req.url?.includes('watch=true')
        ? (res.writeHead(200, { 'content-type': 'application/json' }), res.end())
        : answer(res, 200, POD_LIST),
    );
    const kc = kubeConfig(srv.url);
    await createKubeClient(kc, { retry: fast }).list(RESOURCES.pods, { namespace: 'ns' });
    await watchOnce(kc, '/api/v1/pods', { timeoutSeconds: 1, allowBookmarks: true }, () => undefined);
    expect(USER_AGENT).toMatch(/^kruiseless \((linux|darwin|win32)\/[a-z0-9]+\) node\/v\d+\.\d+\.\d+$/);
    expect(srv.seen.map((s) => s.userAgent)).toEqual([USER_AGENT, USER_AGENT]);
  });
});

describe('401 with a credential refresh (finding 16)', () => {
  const unauthorized = (req: http.IncomingMessage, res: http.ServerResponse) =>
    req.headers.authorization === 'Bearer new'
      ? answer(res, 200, POD_LIST)
      : answer(res, 401, status(401, 'Unauthorized', 'Unauthorized'));

  it('refreshes the credentials once and sends the request again with them', async () => {
    const srv = await serve(unauthorized);
    const kc = kubeConfig(srv.url);
    let refreshed = 0;
    const kube = createKubeClient(kc, {
      retry: fast,
      refreshCredentials: async () => {
        refreshed++;
        setBearerToken(kc, 'new');
      },
    });
    await expect(kube.list(RESOURCES.pods, { namespace: 'ns' })).resolves.toMatchObject({
      resourceVersion: '42',
    });
    expect(refreshed).toBe(1);
    expect(srv.seen.map((s) => s.authorization)).toEqual(['Bearer old', 'Bearer new']);
  });

  it('a second 401 is thrown: one refresh per request', async () => {
    const srv = await serve((_req, res) => answer(res, 401, status(401, 'Unauthorized', 'Unauthorized')));
    let refreshed = 0;
    const kube = createKubeClient(kubeConfig(srv.url), {
      retry: fast,
      refreshCredentials: async () => {
        refreshed++;
      },
    });
    await expect(rejection(kube.list(RESOURCES.pods, { namespace: 'ns' }))).resolves.toMatchObject({
      statusCode: 401,
    });
    expect(refreshed).toBe(1);
    expect(srv.seen).toHaveLength(2);
  });

  it('without a refresh a 401 is thrown at once, never retried', async () => {
    const srv = await serve(unauthorized);
    const kube = createKubeClient(kubeConfig(srv.url), { retry: fast });
    await expect(rejection(kube.list(RESOURCES.pods, { namespace: 'ns' }))).resolves.toMatchObject({
      statusCode: 401,
      reason: 'Unauthorized',
    });
    expect(srv.seen).toHaveLength(1);
  });
});

describe('connection pool (finding 15)', () => {
  it('requests through one KubeConfig share one keep-alive connection, also after its token changed', async () => {
    const srv = await serve((_req, res) => answer(res, 200, POD_LIST));
    const kc = kubeConfig(srv.url);
    const kube = createKubeClient(kc);
    await kube.list(RESOURCES.pods, { namespace: 'ns' });
    setBearerToken(kc, 'new');
    await kube.list(RESOURCES.pods, { namespace: 'ns' });
    expect(srv.connections).toBe(1);
    expect(srv.seen.map((s) => s.authorization)).toEqual(['Bearer old', 'Bearer new']);
    closeConnections(kc);
  });

  it('closeConnections closes the idle connection at once', async () => {
    const srv = await serve((_req, res) => answer(res, 200, POD_LIST));
    const kc = kubeConfig(srv.url);
    await createKubeClient(kc).list(RESOURCES.pods, { namespace: 'ns' });
    expect(srv.closed).toBe(0);
    closeConnections(kc);
    await eventually(() => srv.closed === 1);
  });

  it('a pooled connection idle for the idle timeout is closed', async () => {
    const srv = await serve((_req, res) => answer(res, 200, POD_LIST));
    const agent = keepAliveAgent('plain', 200);
    await new Promise<void>((resolve, reject) => {
      http.get(`${srv.url}/api`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(srv.closed).toBe(0);
    await eventually(() => srv.closed === 1, 1000);
    agent.destroy();
  });
});
