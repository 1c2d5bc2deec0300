/**
 * The fleet's simulated clusters (bench/scenarios/fleet.ts): an HTTP front before the local control plane's API
 * server that presents each of N namespaces as a cluster of its own, at `http://127.0.0.1:<port>/clusters/<i>`.
 * A kubeconfig naming that URL is a cluster registration like any other for Kruiseless: its own connection pool,
 * watch streams, keys and leases. What the front changes is the collection path of a namespaced resource asked
 * for across all namespaces (`/api/v1/pods`, `/apis/apps.kruise.io/v1alpha1/clonesets`, with `?watch` or not): it
 * becomes the cluster's namespace's (`/api/v1/namespaces/<ns>/pods`), so each simulated cluster lists, watches and
 * resyncs only its own objects. Cluster-scoped resources (Nodes, SidecarSets, CRDs) and every other path pass
 * through unchanged: the simulated clusters share them. Which resources are namespaced comes from the API server's
 * discovery, asked once per group version.
 *
 * Towards the simulated clusters' clients the front speaks either plain HTTP on loopback, or (with `serve`) TLS
 * offering HTTP/2 and HTTP/1.1 by ALPN, as an EKS endpoint does, so that each cluster's watches share one HTTP/2
 * connection (lib/kube/http2Session.ts); towards the API server, TLS with the admin client pair over kept-alive
 * connections. Serving TLS to one connection per watch cost more than the fleet it fronts: one Node thread completed
 * about 170 server handshakes a second, so 1,700 watches opened at once (100 clusters × 17 streams) waited up to 10 s
 * for their connection and outlived their client's deadline (BENCHMARKS.md#fleet); over HTTP/2 they are 100.
 */
import { once } from 'node:events';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ProxyTls } from '../../test/faults/proxy.js';
import { isWatch } from '../../test/faults/faultPlan.js';
import {
  passAnswer,
  sendUpstream,
  upstreamAgent,
  type FrontRequest,
  type FrontResponse,
} from '../../test/faults/upstream.js';

/** A request's path as the front forwards it. */
export interface FrontRoute {
  /** Index of the simulated cluster (the `<i>` of `/clusters/<i>`). */
  cluster: number;
  /** Path and query to send to the API server. */
  upstreamPath: string;
  /**
   * The group version and resource of an all-namespaces collection request (`v1` and `pods`, `apps/v1` and
   * `deployments`), which becomes its cluster's namespace's when the resource is namespaced; absent otherwise.
   */
  collection?: { groupVersion: string; resource: string };
}

/**
 * Where `url` (path and query, as received) goes: `undefined` for a path outside `/clusters/<i>/`.
 * The collection's namespace is not put in here: {@link scopedPath} does it once discovery has said the resource
 * is namespaced.
 */
export function routeOf(url: string): FrontRoute | undefined {
  const m = /^\/clusters\/(\d+)(\/[^?]*)?(\?.*)?$/.exec(url);
  if (!m) return undefined;
  const rest = m[2] ?? '/';
  const query = m[3] ?? '';
  const seg = rest.split('/').filter((s) => s !== '');
  const route: FrontRoute = { cluster: Number(m[1]), upstreamPath: `${rest}${query}` };
  if (seg[0] === 'api' && seg.length === 3) route.collection = { groupVersion: seg[1], resource: seg[2] };
  else if (seg[0] === 'apis' && seg.length === 4)
    route.collection = { groupVersion: `${seg[1]}/${seg[2]}`, resource: seg[3] };
  return route;
}

/**
 * The path of `route` in namespace `namespace`:
 * `/api/v1/pods?watch=true` → `/api/v1/namespaces/<ns>/pods?watch=true`.
 * @throws Error when `route` is no collection request
 */
export function scopedPath(route: FrontRoute, namespace: string): string {
  if (!route.collection) throw new Error(`not a collection request: ${route.upstreamPath}`);
  const { groupVersion, resource } = route.collection;
  const prefix = groupVersion.includes('/') ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
  const query = route.upstreamPath.includes('?')
    ? route.upstreamPath.slice(route.upstreamPath.indexOf('?'))
    : '';
  return `${prefix}/namespaces/${encodeURIComponent(namespace)}/${resource}${query}`;
}

/** Options of {@link ClusterFront}. */
export interface ClusterFrontOptions {
  /** The real API server, e.g. `https://127.0.0.1:41234`. */
  upstream: string;
  /** The CA the API server's certificate is checked against, and the admin client pair the front forwards with. */
  tls: Pick<ProxyTls, 'ca' | 'clientCert' | 'clientKey'>;
  /** The namespace that simulated cluster `i` is (`undefined`: no such cluster, answered 404). */
  namespaceOf: (i: number) => string | undefined;
  /** Serve TLS with this certificate (PEM) and key, HTTP/2 and HTTP/1.1; absent: plain HTTP/1.1. */
  serve?: { cert: string; key: string };
}

/** Requests forwarded so far. */
export interface FrontCounts {
  /** Every request forwarded. */
  requests: number;
  /** Of them, watches (`watch=true`). */
  watches: number;
  /** Watches open now. */
  openWatches: number;
  /** Collection requests scoped to their cluster's namespace. */
  scoped: number;
  /** Client connections open now (TCP). */
  openConnections: number;
  /** Of the requests, those that came as streams of HTTP/2 connections. */
  http2Requests: number;
  /** Of the watches open now, those that are streams of HTTP/2 connections. */
  openHttp2Watches: number;
  /** HTTP/2 connections open now (each also counted in `openConnections`). */
  openHttp2Sessions: number;
}

/** A running front of simulated clusters. */
export class ClusterFront {
  private readonly server: http.Server | http2.Http2SecureServer;
  private readonly sockets = new Set<{ destroy(): void }>();
  private readonly agent: https.Agent;
  private readonly upstream: URL;
  /** Per group version, whether each of its resources is namespaced (from discovery); a promise while asked. */
  private readonly discovery = new Map<string, Promise<Map<string, boolean>>>();
  private readonly counts: FrontCounts = {
    requests: 0,
    watches: 0,
    openWatches: 0,
    scoped: 0,
    openConnections: 0,
    http2Requests: 0,
    openHttp2Watches: 0,
    openHttp2Sessions: 0,
  };

  constructor(private readonly opts: ClusterFrontOptions) {
    this.upstream = new URL(opts.upstream);
    // no socket limit: every simulated cluster's watches are held open through it
    this.agent = upstreamAgent(opts.tls);
    const handler = (req: FrontRequest, res: FrontResponse) => void this.handle(req, res);
    this.server = opts.serve
      ? http2.createSecureServer({ ...opts.serve, allowHTTP1: true }, handler)
      : http.createServer(handler);
    this.server.on('session', (session: http2.ServerHttp2Session) => {
      this.counts.openHttp2Sessions += 1;
      session.once('close', () => (this.counts.openHttp2Sessions -= 1));
    });
    this.server.on('connection', (socket: { destroy(): void; once(e: 'close', f: () => void): void }) => {
      this.sockets.add(socket);
      this.counts.openConnections += 1;
      socket.once('close', () => {
        this.sockets.delete(socket);
        this.counts.openConnections -= 1;
      });
    });
  }

  /** Listens on a free loopback port. @returns the front's URL, `http(s)://127.0.0.1:<port>` */
  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const scheme = this.opts.serve ? 'https' : 'http';
    return `${scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The URL of simulated cluster `i` for a kubeconfig's `server`. */
  static clusterServer(frontUrl: string, i: number): string {
    return `${frontUrl}/clusters/${i}`;
  }

  /** What was forwarded so far. */
  forwarded(): FrontCounts {
    return { ...this.counts };
  }

  /** Stops listening and drops every connection, open watches included. */
  async close(): Promise<void> {
    const closed = new Promise<void>((r) => this.server.close(() => r()));
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
    await closed;
  }

  private async handle(req: FrontRequest, res: FrontResponse): Promise<void> {
    const route = routeOf(req.url ?? '/');
    const namespace = route ? this.opts.namespaceOf(route.cluster) : undefined;
    if (!route || namespace === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such simulated cluster\n');
      return;
    }
    let path = route.upstreamPath;
    if (route.collection) {
      const namespaced = await this.namespaced(route.collection.groupVersion).then(
        (m) => m.get(route.collection!.resource),
        () => undefined,
      );
      if (namespaced) {
        path = scopedPath(route, namespace);
        this.counts.scoped += 1;
      }
    }
    this.forward(req, res, path);
  }

  /** Whether each resource of `groupVersion` is namespaced, from the API server's discovery (asked once). */
  private namespaced(groupVersion: string): Promise<Map<string, boolean>> {
    let known = this.discovery.get(groupVersion);
    if (!known) {
      const path = groupVersion.includes('/') ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
      known = this.getJson(path).then((body) => {
        const list = (body as { resources?: { name: string; namespaced: boolean }[] }).resources ?? [];
        return new Map(list.map((r) => [r.name, r.namespaced]));
      });
      // a failed discovery is asked again by the next request
      known.catch(() => this.discovery.delete(groupVersion));
      this.discovery.set(groupVersion, known);
    }
    return known;
  }

  private getJson(path: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const req = https.request(
        { host: this.upstream.hostname, port: this.upstream.port, path, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if ((res.statusCode ?? 0) >= 300) reject(new Error(`GET ${path}: ${res.statusCode}`));
            else resolve(JSON.parse(Buffer.concat(chunks).toString()) as unknown);
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  private forward(req: FrontRequest, res: FrontResponse, path: string): void {
    this.counts.requests += 1;
    if (req.httpVersionMajor === 2) this.counts.http2Requests += 1;
    if (isWatch(path)) {
      const h2 = req.httpVersionMajor === 2;
      this.counts.watches += 1;
      this.counts.openWatches += 1;
      if (h2) this.counts.openHttp2Watches += 1;
      res.on('close', () => {
        this.counts.openWatches -= 1;
        if (h2) this.counts.openHttp2Watches -= 1;
      });
    }
    sendUpstream(req, res, { upstream: this.upstream, agent: this.agent, path }, (answer) =>
      passAnswer(res, answer),
    );
  }
}
