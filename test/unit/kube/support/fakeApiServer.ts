/**
 * A local HTTP server standing in for an API server where a real one cannot be made to misbehave on demand (hang,
 * stall a body, refuse a token): every request and every TCP connection is recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface SeenRequest {
  method: string;
  url: string;
  authorization?: string;
  userAgent?: string;
}

/** The running server. */
export interface FakeApiServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  seen: SeenRequest[];
  /** TCP connections accepted so far. */
  connections: number;
  /** TCP connections closed so far (by either side). */
  closed: number;
  close(): Promise<void>;
}

/**
 * Starts a server answering with `handler` (which may never answer, to stand for a hung API server).
 * @param handler gets the request (body already read) and the index of the request (0 for the first)
 */
export async function fakeApiServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, index: number) => void,
): Promise<FakeApiServer> {
  const state = { seen: [] as SeenRequest[], connections: 0, closed: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const index = state.seen.length;
      state.seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        userAgent: req.headers['user-agent'],
      });
      handler(req, res, index);
    });
  });
  server.on('connection', (socket) => {
    state.connections++;
    socket.on('close', () => state.closed++);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get seen() {
      return state.seen;
    },
    get connections() {
      return state.connections;
    },
    get closed() {
      return state.closed;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers `status` with a JSON body. */
export function answer(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A `metav1.Status` body. */
export function status(code: number, reason: string, message: string): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message };
}

/** An empty PodList at resourceVersion 42. */
export const POD_LIST = { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '42' }, items: [] };

/** Resolves once `check` holds, polling every 10 ms, or rejects after `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
