/**
 * The fault front: a TLS-terminating HTTP proxy between the reconciler (Kruiseless's Kubernetes client) and the real
 * kube-apiserver of the local control plane (docs/reliability.md#fault-front). It presents the API server's own
 * serving certificate (infra/local/pki.ts: SANs 127.0.0.1 and localhost, signed by the CA the kubeconfig trusts),
 * asks the client for its certificate (verified against the same CA) and forwards each request with the admin
 * client certificate the client's kubeconfig holds: the API server sees the same user it would see directly.
 * Each request gets the fault its {@link FaultPlanner} chooses (./faultPlan.ts); what was injected is counted.
 */
import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Pki } from '../../infra/local/pki.js';
import { FAULT_KINDS, FaultPlanner, NO_FAULTS, type Fault, type FaultKind } from './faultPlan.js';
import { seededRandom } from './rng.js';
import { passAnswer, sendUpstream, upstreamAgent } from './upstream.js';

/** PEM material of the proxy: the CA both sides trust, the serving pair it presents, the client pair it forwards with. */
export interface ProxyTls {
  ca: Buffer;
  serverCert: Buffer;
  serverKey: Buffer;
  clientCert: Buffer;
  clientKey: Buffer;
}

/**
 * The proxy's TLS material from a local control plane's PKI folder (infra/local/pki.ts): its CA, the API server's
 * serving pair, the admin client pair.
 * @throws Error when a file cannot be read
 */
export function proxyTlsOf(pki: Pki): ProxyTls {
  return {
    ca: readFileSync(pki.caCert),
    serverCert: readFileSync(pki.serverCert),
    serverKey: readFileSync(pki.serverKey),
    clientCert: readFileSync(pki.adminCert),
    clientKey: readFileSync(pki.adminKey),
  };
}

/** Options of {@link FaultProxy}. */
export interface FaultProxyOptions {
  /** The real API server, e.g. `https://127.0.0.1:41234`. */
  upstream: string;
  tls: ProxyTls;
  /**
   * Called for a `kill` fault once the write was applied and before its answer is passed on: the caller kills the
   * reconciler process (and starts it again, without awaiting that here).
   */
  onKill?: () => void;
}

/** What chooses each request's fault: a {@link FaultPlanner}, or a fixed list in tests. */
export type FaultSource = Pick<FaultPlanner, 'next'>;

/** Faults injected so far, by kind. */
export type FaultCounts = Record<FaultKind, number>;

/** A running fault front. */
export class FaultProxy {
  private planner: FaultSource = new FaultPlanner(seededRandom(0), NO_FAULTS);
  private readonly server: https.Server;
  private readonly agent: https.Agent;
  private readonly upstream: URL;
  private counts: FaultCounts = emptyCounts();
  /** Every fault with the request it hit, for the run's log. */
  private journal: string[] = [];

  constructor(private readonly opts: FaultProxyOptions) {
    this.upstream = new URL(opts.upstream);
    this.agent = upstreamAgent(opts.tls);
    this.server = https.createServer(
      {
        ca: opts.tls.ca,
        cert: opts.tls.serverCert,
        key: opts.tls.serverKey,
        requestCert: true,
        rejectUnauthorized: true,
      },
      (req, res) => this.handle(req, res),
    );
  }

  /** Listens on a free loopback port. @returns the proxy's URL, `https://127.0.0.1:<port>` */
  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Uses `planner` from the next request on, and starts new counts (one run each). */
  use(planner: FaultSource): void {
    this.planner = planner;
    this.counts = emptyCounts();
    this.journal = [];
  }

  /** The faults injected since the last {@link use}, by kind. */
  injected(): FaultCounts {
    return { ...this.counts };
  }

  /** `<kind> <method> <url>` per fault injected since the last {@link use}, in order. */
  log(): readonly string[] {
    return [...this.journal];
  }

  /** Stops listening and drops every connection, open watches included. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.agent.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const fault = this.planner.next({ method: req.method ?? 'GET', url: req.url ?? '/' });
    if (fault.kind !== 'none') {
      this.counts[fault.kind] += 1;
      this.journal.push(`${describe(fault)} ${req.method ?? ''} ${req.url ?? ''}`);
    }
    switch (fault.kind) {
      case 'reset':
        req.socket.destroy();
        return;
      case 'status':
        return answerStatus(res, fault.code, fault.retryAfterSeconds);
      case 'latency':
        setTimeout(() => this.forward(req, res, fault), fault.ms);
        return;
      default:
        this.forward(req, res, fault);
    }
  }

  /** Forwards `req` to the API server and passes the answer on, or not, as `fault` says. */
  private forward(req: http.IncomingMessage, res: http.ServerResponse, fault: Fault): void {
    if (req.socket.destroyed) return;
    sendUpstream(req, res, { upstream: this.upstream, agent: this.agent, path: req.url ?? '/' }, (answer) => {
      if (fault.kind === 'dropAnswer' || fault.kind === 'kill') {
        // the write is applied once the API server answered: read it all, then the client never hears of it
        answer.resume();
        answer.on('end', () => {
          if (fault.kind === 'kill') this.opts.onKill?.();
          req.socket.destroy();
        });
        return;
      }
      passAnswer(res, answer);
      if (fault.kind === 'watchCut') {
        const timer = setTimeout(() => {
          answer.destroy();
          req.socket.destroy();
        }, fault.afterMs);
        res.on('close', () => clearTimeout(timer));
      }
    });
  }
}

/** A Kubernetes `Status` answer of the proxy's own (the API server's shape, so clients classify it as theirs). */
function answerStatus(res: http.ServerResponse, code: 429 | 500 | 503, retryAfterSeconds?: number): void {
  const reason = code === 429 ? 'TooManyRequests' : code === 503 ? 'ServiceUnavailable' : 'InternalError';
  const body = JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `fault front: ${code}`,
    reason,
    code,
    ...(retryAfterSeconds === undefined ? {} : { details: { retryAfterSeconds } }),
  });
  res.writeHead(code, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...(retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) }),
  });
  res.end(body);
}

function describe(f: Fault): string {
  switch (f.kind) {
    case 'latency':
      return `latency ${f.ms}ms`;
    case 'status':
      return `status ${f.code}${f.retryAfterSeconds ? ` retry-after ${f.retryAfterSeconds}s` : ''}`;
    case 'watchCut':
      return `watchCut after ${f.afterMs}ms`;
    default:
      return f.kind;
  }
}

function emptyCounts(): FaultCounts {
  return Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as FaultCounts;
}
