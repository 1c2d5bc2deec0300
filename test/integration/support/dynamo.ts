/**
 * An in-process dynalite (DESIGN §5: the local DynamoDB; ecosystem-notes §4.1) on 127.0.0.1 with a random port,
 * and DynamoDB clients pointed at it. Call {@link useDynalite} at the top level of a test file: it starts the
 * server in beforeAll and closes it in afterAll.
 */
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** dynalite 4 ships no types; this is the part used here. */
type Dynalite = (options: {
  createTableMs?: number;
  deleteTableMs?: number;
  updateTableMs?: number;
}) => Server;
const dynalite = createRequire(import.meta.url)('dynalite') as Dynalite;

/** What a test file gets; `endpoint` and `client()` are valid from its beforeAll on. */
export interface DynaliteHandle {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** A new client for the server, with dummy credentials (dynalite accepts any). */
  client(): DynamoDBClient;
}

/** A table name unique within the run (dynalite requires at least 3 characters). */
export function uniqueTableName(prefix = 'state'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Registers beforeAll/afterAll hooks that start and stop one dynalite server for the test file. */
export function useDynalite(): DynaliteHandle {
  let server: Server | undefined;
  const clients: DynamoDBClient[] = [];
  const handle: DynaliteHandle = {
    endpoint: '',
    client() {
      const c = new DynamoDBClient({
        endpoint: handle.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        maxAttempts: 1,
      });
      clients.push(c);
      return c;
    },
  };
  beforeAll(async () => {
    const s = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    server = s;
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => resolve());
    });
    handle.endpoint = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    const s = server;
    if (s) await new Promise<void>((resolve, reject) => s.close((err) => (err ? reject(err) : resolve())));
  });
  return handle;
}
