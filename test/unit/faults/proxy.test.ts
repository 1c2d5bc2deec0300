import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { Fault } from '../../faults/faultPlan.js';
import { FaultProxy } from '../../faults/proxy.js';
import { startStandIn, type StandIn } from './support/standIn.js';

/** What the fake API server saw: `<method> <url> <client CN> <body>` per request. */
const seen: string[] = [];
let upstream: StandIn;
let proxy: FaultProxy;
let proxyUrl: string;
let kills = 0;

/** The fake API server: answers `{"ok":<n>}` at once, or for /watch two lines 50 ms apart and then 2 s later. */
function handler(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const cn = String((req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? '');
    seen.push(`${req.method ?? ''} ${req.url ?? ''} ${cn} ${body}`);
    if (req.url?.includes('watch=true')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"type":"ADDED"}\n');
      const t = setTimeout(() => res.end('{"type":"MODIFIED"}\n'), 2000);
      res.on('close', () => clearTimeout(t));
      return;
    }
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: seen.length }));
  });
}

beforeAll(async () => {
  upstream = await startStandIn('fault-front-', handler);
  proxy = new FaultProxy({ upstream: upstream.url, tls: upstream.tls, onKill: () => (kills += 1) });
  proxyUrl = await proxy.start();
}, 60_000);

afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

beforeEach(() => {
  seen.length = 0;
  kills = 0;
});

/** The client's side: as a kubeconfig with the admin certificate would call, through the proxy. */
interface Answer {
  status?: number;
  headers?: import('node:http').IncomingHttpHeaders;
  body: string;
  error?: string;
}

function call(method: string, url: string, body?: string): Promise<Answer> {
  return new Promise((resolve) => {
    let got = '';
    let answer: Answer = { body: '' };
    const req = https.request(
      new URL(url, proxyUrl),
      {
        method,
        ca: upstream.tls.ca,
        cert: upstream.tls.clientCert,
        key: upstream.tls.clientKey,
        agent: false,
      },
      (res) => {
        answer = { status: res.statusCode, headers: res.headers, body: '' };
        res.on('data', (c: Buffer) => (got += c.toString()));
        res.on('end', () => resolve({ ...answer, body: got }));
        res.on('error', (e) => resolve({ ...answer, body: got, error: e.message }));
        res.on('aborted', () => resolve({ ...answer, body: got, error: 'aborted' }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) =>
      resolve({ ...answer, body: got, error: e.code ?? e.message }),
    );
    req.end(body);
  });
}

/** Gives `faults` to the next requests in order, then none. */
function next(...faults: Fault[]): void {
  proxy.use({ next: () => faults.shift() ?? { kind: 'none' } });
}

describe('FaultProxy', () => {
  it('forwards with the client certificate and passes the answer on when there is no fault', async () => {
    next();
    const a = await call('POST', '/api/v1/namespaces/a/pods', '{"kind":"Pod"}');
    expect(a).toMatchObject({ status: 201, body: '{"ok":1}' });
    expect(seen).toEqual(['POST /api/v1/namespaces/a/pods admin {"kind":"Pod"}']);
  });

  it('resets the connection before anything reaches the API server', async () => {
    next({ kind: 'reset' });
    const a = await call('GET', '/api/v1/namespaces/a/pods');
    expect(a.error).toBe('ECONNRESET');
    expect(seen).toEqual([]);
    expect(proxy.injected().reset).toBe(1);
  });

  it('answers 429 with Retry-After and a Status body of its own', async () => {
    next({ kind: 'status', code: 429, retryAfterSeconds: 2 });
    const a = await call('GET', '/api/v1/namespaces/a/pods');
    expect(a.status).toBe(429);
    expect(a.headers?.['retry-after']).toBe('2');
    expect(JSON.parse(a.body)).toMatchObject({
      kind: 'Status',
      code: 429,
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 2 },
    });
    expect(seen).toEqual([]);
  });

  it('drops the answer of a write the API server applied', async () => {
    next({ kind: 'dropAnswer' });
    const a = await call('POST', '/api/v1/namespaces/a/pods', '{"kind":"Pod"}');
    expect(a.status).toBeUndefined();
    expect(a.error).toBe('ECONNRESET');
    expect(seen).toEqual(['POST /api/v1/namespaces/a/pods admin {"kind":"Pod"}']);
    expect(proxy.log()).toEqual(['dropAnswer POST /api/v1/namespaces/a/pods']);
  });

  it('calls onKill after the write was applied, and the client hears nothing', async () => {
    next({ kind: 'kill' });
    const a = await call('DELETE', '/api/v1/namespaces/a/pods/p');
    expect(a.error).toBe('ECONNRESET');
    expect(seen).toEqual(['DELETE /api/v1/namespaces/a/pods/p admin ']);
    expect(kills).toBe(1);
  });

  it('cuts a watch stream mid-way', async () => {
    next({ kind: 'watchCut', afterMs: 300 });
    const t0 = Date.now();
    const a = await call('GET', '/api/v1/pods?watch=true');
    expect(a.status).toBe(200);
    expect(a.body).toBe('{"type":"ADDED"}\n');
    expect(a.error).toBeDefined();
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it('holds a request for the latency asked, then forwards it', async () => {
    next({ kind: 'latency', ms: 400 });
    const t0 = Date.now();
    const a = await call('GET', '/api/v1/namespaces/a/pods');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(390);
    expect(a).toMatchObject({ status: 201, body: '{"ok":1}' });
  });
});
