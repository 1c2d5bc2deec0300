/**
 * One HTTP/2 connection per cluster for its watches, as client-go's transport multiplexes every request of a
 * cluster over one connection: the 17 watch streams of a cluster (lib/controllers/kinds.ts `watchStreams`) then
 * take one file descriptor, not 17 (docs/architecture.md#watch-http2). The API server offers `h2` by ALPN on its TLS
 * port (Go's net/http does unless disabled; EKS's endpoints and kube-apiserver do); a server, proxy or front that
 * does not is remembered per KubeConfig and its watches go over HTTP/1.1 as before (./watch.ts).
 */
import http2 from 'node:http2';
import net from 'node:net';
import type https from 'node:https';
import tls from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node/dist/config.js';

/**
 * How long a session with no open stream is kept for the next watch, ms: the watch pump reopens a stream the server
 * ended at once, and a warm Lambda container's next run comes within a minute; past this the connection is closed.
 */
export const HTTP2_IDLE_MS = 90_000;

/** How long the TCP connect and TLS handshake of a new session may take, ms; then the watch fails and the next one tries again. */
export const HTTP2_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Liveness of a session: a PING every {@link HTTP2_PING_INTERVAL_MS}, and a session whose PING is not answered within
 * {@link HTTP2_PING_TIMEOUT_MS} is destroyed, failing its watches at once (the pump reopens them on a new
 * connection) rather than at their own deadline, and keeping the next ones off a dead connection. client-go's
 * HTTP/2 transport does the same (`ReadIdleTimeout` 30 s, `PingTimeout` 15 s).
 */
export const HTTP2_PING_INTERVAL_MS = 30_000;
/** See {@link HTTP2_PING_INTERVAL_MS}. */
export const HTTP2_PING_TIMEOUT_MS = 15_000;

/**
 * Flow-control windows the client grants, bytes: 4 MiB a stream, 16 MiB for the connection (Node's default is 64 KiB
 * for both, so 17 busy watches would wait on each other's window updates; Go's transport grants 4 MiB and 1 GiB).
 * Memory is taken only by data received and not yet read.
 */
const STREAM_WINDOW_BYTES = 4 * 1024 * 1024;
const CONNECTION_WINDOW_BYTES = 16 * 1024 * 1024;

/** What a KubeConfig's watches go over. */
type Transport =
  { kind: 'http2'; session: Promise<http2.ClientHttp2Session | undefined> } | { kind: 'http1'; why: string };

const transports = new WeakMap<KubeConfig, Transport>();
/** KubeConfigs whose watches were told to stay on HTTP/1.1 ({@link disableHttp2Watches}). */
const disabled = new WeakSet<KubeConfig>();

/**
 * Keeps `kc`'s watches on HTTP/1.1, one connection each (runtime setting `KRUISELESS_WATCH_HTTP2=false`, for a proxy
 * in front of the API server that takes `h2` by ALPN yet cannot carry it).
 */
export function disableHttp2Watches(kc: KubeConfig): void {
  disabled.add(kc);
}

/**
 * Why `kc`'s watches go over HTTP/1.1, or `undefined` while HTTP/2 is (or may yet be) used: `'plain http'`,
 * `'proxy'`, `'disabled'`, or `'server chose <protocol>'` after the ALPN answer.
 */
export function http1Reason(kc: KubeConfig): string | undefined {
  const t = transports.get(kc);
  if (t?.kind === 'http1') return t.why;
  if (disabled.has(kc)) return 'disabled';
  return undefined;
}

/**
 * The open HTTP/2 session of `kc`'s cluster, connected on first use: a TLS connection with the KubeConfig's CA,
 * client certificate, server name and verification, offering `h2` and `http/1.1` by ALPN.
 * @returns `undefined` when the watches must go over HTTP/1.1: a plain `http:` server, a `proxy-url`, disabled, or
 *   the server chose `http/1.1` (remembered for `kc`: one probe connection per KubeConfig, then closed)
 * @throws the connection's error (refused, TLS verification), as Node gives it; the next call connects again
 */
export async function http2SessionFor(kc: KubeConfig): Promise<http2.ClientHttp2Session | undefined> {
  const known = transports.get(kc);
  if (known?.kind === 'http1') return undefined;
  if (known) {
    const session = await known.session;
    if (session && !session.closed && !session.destroyed) return session;
    if (transports.get(kc) === known) transports.delete(kc);
    return http2SessionFor(kc);
  }
  const cluster = kc.getCurrentCluster();
  const server = cluster?.server ?? '';
  const why = disabled.has(kc)
    ? 'disabled'
    : cluster?.proxyUrl
      ? 'proxy'
      : !server.startsWith('https:')
        ? 'plain http'
        : undefined;
  if (why) {
    transports.set(kc, { kind: 'http1', why });
    return undefined;
  }
  const entry: Transport = { kind: 'http2', session: connect(kc, server) };
  transports.set(kc, entry);
  try {
    return await entry.session;
  } catch (e) {
    if (transports.get(kc) === entry) transports.delete(kc);
    throw e;
  }
}

/**
 * Closes `kc`'s HTTP/2 session gracefully (its open watches run to their end; none starts on it) and forgets what
 * its server speaks.
 */
export function closeHttp2Session(kc: KubeConfig): void {
  const t = transports.get(kc);
  transports.delete(kc);
  if (t?.kind === 'http2')
    void t.session.then(
      (s) => s?.close(),
      () => undefined,
    );
}

/**
 * Counts a stream opened on `session` for the idle close ({@link HTTP2_IDLE_MS}): the session keeps the process
 * alive while a stream is open, and is closed after it was idle that long.
 * @returns call once when the stream has closed
 */
export function trackStream(session: http2.ClientHttp2Session): () => void {
  const state = idleState(session);
  state.open++;
  clearTimeout(state.timer);
  session.ref();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    state.open--;
    if (state.open > 0 || session.closed || session.destroyed) return;
    session.unref();
    state.timer = setTimeout(() => session.close(), HTTP2_IDLE_MS);
    state.timer.unref();
  };
}

interface IdleState {
  open: number;
  timer?: ReturnType<typeof setTimeout>;
}
const idle = new WeakMap<http2.ClientHttp2Session, IdleState>();
function idleState(session: http2.ClientHttp2Session): IdleState {
  let state = idle.get(session);
  if (!state) {
    state = { open: 0 };
    idle.set(session, state);
  }
  return state;
}

/**
 * Connects to `server` and keeps the session if the server chose `h2`; otherwise records `kc` as HTTP/1.1 and
 * resolves `undefined`.
 */
async function connect(kc: KubeConfig, server: string): Promise<http2.ClientHttp2Session | undefined> {
  const opts: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(opts);
  const url = new URL(server);
  const host = url.hostname.replace(/^\[|\]$/g, ''); // an IPv6 address without its brackets
  const socket = await new Promise<tls.TLSSocket>((resolve, reject) => {
    const s = tls.connect({
      host,
      port: Number(url.port || 443),
      // SNI names a host, never an address
      servername: opts.servername ?? (net.isIP(host) ? undefined : host),
      ca: opts.ca,
      cert: opts.cert,
      key: opts.key,
      pfx: opts.pfx,
      passphrase: opts.passphrase,
      ...(opts.rejectUnauthorized !== undefined ? { rejectUnauthorized: opts.rejectUnauthorized } : {}),
      ALPNProtocols: ['h2', 'http/1.1'],
    });
    // a handshake that never completes (a peer that accepts and says nothing) must not hold every later watch
    s.setTimeout(HTTP2_CONNECT_TIMEOUT_MS, () =>
      s.destroy(
        Object.assign(new Error(`no TLS handshake within ${HTTP2_CONNECT_TIMEOUT_MS / 1000} s`), {
          code: 'ETIMEDOUT',
        }),
      ),
    );
    s.once('secureConnect', () => {
      s.setTimeout(0);
      s.removeListener('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
  if (socket.alpnProtocol !== 'h2') {
    socket.destroy();
    transports.set(kc, { kind: 'http1', why: `server chose ${socket.alpnProtocol || 'no protocol'}` });
    return undefined;
  }
  const session = http2.connect(url.origin, {
    createConnection: () => socket,
    settings: { initialWindowSize: STREAM_WINDOW_BYTES },
  });
  session.once('connect', () => session.setLocalWindowSize(CONNECTION_WINDOW_BYTES));
  keepAlive(session);
  const forget = () => {
    const t = transports.get(kc);
    if (t?.kind === 'http2') void t.session.then((s) => s === session && transports.delete(kc));
  };
  // a session that ends or is told to go away takes no new stream: the next watch connects again, and one told to
  // go away closes once its open streams are done
  session.on('close', forget);
  session.on('goaway', () => {
    forget();
    if (!session.closed) session.close();
  });
  // its open streams get the error too; without a listener it would be thrown
  session.on('error', forget);
  session.unref();
  return session;
}

/** Pings `session` until it closes; destroys it when a PING fails or goes unanswered (see HTTP2_PING_INTERVAL_MS). */
function keepAlive(session: http2.ClientHttp2Session): void {
  const pinger = setInterval(() => {
    if (session.closed || session.destroyed) return;
    const dead = setTimeout(
      () =>
        session.destroy(new Error(`no answer to an HTTP/2 PING within ${HTTP2_PING_TIMEOUT_MS / 1000} s`)),
      HTTP2_PING_TIMEOUT_MS,
    );
    dead.unref();
    session.ping((err) => {
      clearTimeout(dead);
      if (err && !session.destroyed) session.destroy(err);
    });
  }, HTTP2_PING_INTERVAL_MS);
  pinger.unref();
  session.once('close', () => clearInterval(pinger));
}
