/**
 * An in-process dynalite (docs/architecture.md#embedded-default) for one test file — the same
 * starter the embedded default uses (lib/emulator/dynalite.ts). Call {@link useDynalite} at the top level of a test
 * file: it starts the server in beforeAll and closes it in afterAll.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startDynalite, type LocalDynamo } from '../../../lib/emulator/dynalite.js';

/** What a test file gets; `endpoint` and `client()` are valid from its beforeAll on. */
export interface DynaliteHandle {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** A new client for the server (dummy credentials, no SDK retries so failures show at once). */
  client(): DynamoDBClient;
}

/** A table name unique within the run (dynalite requires at least 3 characters). */
export function uniqueTableName(prefix = 'state'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Registers beforeAll/afterAll hooks that start and stop one dynalite server for the test file. */
export function useDynalite(): DynaliteHandle {
  let local: LocalDynamo | undefined;
  const handle: DynaliteHandle = {
    endpoint: '',
    client() {
      if (!local) throw new Error('dynalite is not started yet: call client() from a test or beforeAll');
      return local.client({ region: 'us-east-1', maxAttempts: 1 });
    },
  };
  beforeAll(async () => {
    local = await startDynalite();
    handle.endpoint = local.endpoint;
  });
  afterAll(async () => {
    await local?.close();
  });
  return handle;
}
