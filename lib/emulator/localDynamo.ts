/**
 * What a local DynamoDB server (dynalite in-process, moto in a child process) hands its users: the endpoint and
 * clients for it, closed together with the server.
 */
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';

/** A running local DynamoDB server. */
export interface LocalDynamo {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** A new client for it, with dummy credentials (local servers accept any); `overrides` e.g. `{ maxAttempts: 1 }`. */
  client(overrides?: DynamoDBClientConfig): DynamoDBClient;
  /** Destroy every client handed out, then stop the server. */
  close(): Promise<void>;
}

/**
 * A {@link LocalDynamo} for a server at `endpoint` in `region`, whose own shutdown is `stopServer` (run after every
 * client handed out has been destroyed).
 */
export function localDynamo(endpoint: string, region: string, stopServer: () => Promise<void>): LocalDynamo {
  const clients: DynamoDBClient[] = [];
  return {
    endpoint,
    client(overrides = {}) {
      const c = new DynamoDBClient({
        endpoint,
        region,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        ...overrides,
      });
      clients.push(c);
      return c;
    },
    async close() {
      for (const c of clients) c.destroy();
      await stopServer();
    },
  };
}
