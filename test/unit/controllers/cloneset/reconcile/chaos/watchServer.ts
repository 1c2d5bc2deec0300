/**
 * The simulated API server's watch endpoint for the randomized test's event path (docs/reliability.md#event-path): a
 * real HTTP server on 127.0.0.1 that the real lib/kube/watch.ts `watchOnce` (client-node's Watch) connects to. It
 * holds the change log of the simulated cluster (./eventLog.ts) and parks every watch request until the simulation
 * ends it: with the changes after the watch's resourceVersion and a bookmark (a watch the server ended at its
 * timeout), cut after some of them (a reset connection), or with a `410 Gone` ERROR event (the resourceVersion was
 * compacted). Each pump run gets its own base path (`/<run>`), so the server knows which run a watch belongs to.
 * Test-only.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import type { JsonObject } from '../../../../../../lib/api/types.js';

/** One change of the log: a watch event with its resourceVersion (etcd's revision: one counter for all kinds). */
export interface LoggedEvent {
  rv: number;
  /** The collection path of the stream it belongs to (lib/source/watchSpec.ts `WatchStream.path`). */
  path: string;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: JsonObject;
}

/** A watch request waiting for the simulation. */
interface Parked {
  run: string;
  path: string;
  from: number;
  labelSelector?: string;
  res: ServerResponse;
}

/** How the simulation ends a parked watch. */
export type WatchEnd =
  | { how: 'timeout' }
  /** The connection is reset (TCP RST) after `after` events are written. */
  | { how: 'cut'; after: number };

/** True when `labels` match `selector` (`key`, `!key`, `key=value`, comma-separated: what the streams use). */
export function matchesSelector(labels: Record<string, string>, selector: string | undefined): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const t = term.trim();
    if (t.startsWith('!')) return !(t.slice(1) in labels);
    const [k, v] = t.split('=');
    return v === undefined ? k in labels : labels[k] === v;
  });
}

const labelsOf = (o: JsonObject): Record<string, string> =>
  ((o.metadata as JsonObject | undefined)?.labels ?? {}) as Record<string, string>;

/** The server. */
export class ModelWatchServer {
  readonly log: LoggedEvent[] = [];
  /** Watches from a resourceVersion below this are answered `410 Gone` (compaction). */
  compactedBelow = 0;
  /** The resourceVersion of the last change logged (bookmarks carry it). */
  latestRv = 0;
  /** Watch requests served, by any run (activity for the simulation's quiescence check). */
  requests = 0;
  private readonly parked = new Map<string, Parked>();
  /** Called whenever a watch is parked or a request ends (the simulation's wait for quiescence wakes up). */
  onChange: () => void = () => undefined;
  /** Runs whose process is gone: their connections are reset at once. */
  private readonly dead = new Set<string>();
  private server: Server | undefined;
  private port = 0;

  /** Listen on an ephemeral port of 127.0.0.1. */
  async start(): Promise<void> {
    this.server = createServer((req, res) => this.serve(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Reset every connection and stop listening. */
  async close(): Promise<void> {
    for (const p of this.parked.values()) p.res.destroy();
    this.parked.clear();
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  /** A KubeConfig whose watches reach this server under run `run`'s base path. */
  kubeConfig(run: string): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'chaos', server: `http://127.0.0.1:${this.port}/${run}`, skipTLSVerify: true }],
      users: [{ name: 'chaos' }],
      contexts: [{ name: 'chaos', cluster: 'chaos', user: 'chaos' }],
      currentContext: 'chaos',
    });
    return kc;
  }

  /** Whether run `run` has a watch of `path` parked. */
  isParked(run: string, path: string): boolean {
    return this.parked.has(`${run} ${path}`);
  }

  /** The run's process is gone: its open watches are reset, its next ones too. */
  kill(run: string): void {
    this.dead.add(run);
    for (const [k, p] of this.parked)
      if (p.run === run) {
        this.parked.delete(k);
        p.res.destroy();
      }
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    this.requests++;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const [, run = '', ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    if (this.dead.has(run) || url.searchParams.get('watch') !== 'true') {
      res.destroy();
      return;
    }
    const key = `${run} ${path}`;
    const from = Number(url.searchParams.get('resourceVersion') ?? '0');
    const selector = url.searchParams.get('labelSelector') ?? undefined;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    this.parked.set(key, { run, path, from, ...(selector ? { labelSelector: selector } : {}), res });
    req.on('close', () => {
      if (this.parked.get(key)?.res === res) this.parked.delete(key);
      this.onChange();
    });
    this.onChange();
  }

  /**
   * End run `run`'s parked watch of `path` as `end` says: `410 Gone` when it started below {@link compactedBelow};
   * else the changes after its resourceVersion that match its selector, then (`timeout`) a bookmark at
   * {@link latestRv} and the end of the response, or (`cut`) a reset after `after` of them.
   * @returns whether a watch was parked
   */
  end(run: string, path: string, end: WatchEnd): boolean {
    const key = `${run} ${path}`;
    const p = this.parked.get(key);
    if (!p) return false;
    this.parked.delete(key);
    const line = (type: string, object: JsonObject) => p.res.write(`${JSON.stringify({ type, object })}\n`);
    if (p.from < this.compactedBelow) {
      line('ERROR', {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        code: 410,
        reason: 'Expired',
        message: `too old resource version: ${p.from} (${this.compactedBelow})`,
      });
      p.res.end();
      return true;
    }
    const events = this.log.filter(
      (e) => e.path === path && e.rv > p.from && matchesSelector(labelsOf(e.object), p.labelSelector),
    );
    if (end.how === 'cut') {
      for (const e of events.slice(0, end.after)) line(e.type, e.object);
      // a TCP reset, not a close: the client always sees an error, whether or not the lines reached it first (a
      // close could end the response normally or not, depending on timing, and the seed would not replay)
      p.res.socket?.resetAndDestroy();
      return true;
    }
    for (const e of events) line(e.type, e.object);
    line('BOOKMARK', { metadata: { resourceVersion: String(Math.max(p.from, this.latestRv)) } });
    p.res.end();
    return true;
  }
}
