/**
 * A tiny AWS endpoint on 127.0.0.1:0 for SDK clients in unit tests. It speaks just enough of the JSON protocols
 * (awsJson1_1 for EventBridge, restJson1 for Scheduler) for the operations under test; each test scripts the
 * answers, so faults that cannot be caused against a real service here (partial PutEvents failures, a schedule
 * name that already exists) are reproducible.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body. */
  body: Record<string, unknown>;
}

/** The scripted answer: status, JSON body and extra headers (e.g. `x-amzn-errortype`). */
export interface FakeResponse {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** A running fake endpoint. */
export interface FakeAws {
  endpoint: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a fake endpoint answering each request with `respond(request, index)`. */
export async function startFakeAws(
  respond: (request: RecordedRequest, index: number) => FakeResponse,
): Promise<FakeAws> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
      requests.push(recorded);
      const answer = respond(recorded, requests.length - 1);
      res.writeHead(answer.status ?? 200, {
        'content-type': 'application/x-amz-json-1.1',
        ...answer.headers,
      });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/** Static dummy credentials: the fake endpoint does not check signatures. */
export const DUMMY_CREDENTIALS = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' };
