/**
 * A DynamoDB server for one test file: dynalite in-process (docs/architecture.md#embedded-default, the same
 * starter the embedded default uses), or moto in server mode when `KRUISELESS_TEST_DYNAMO=moto` (the `state-moto`
 * jest project, docs/reliability.md#two-dynamodb-implementations). Call {@link useDynalite} at the top level of a
 * test file: it starts the server in beforeAll and closes it in afterAll.
 */
import type { DynamoDBClient, DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { startDynalite, type LocalDynamo } from '../../../lib/emulator/dynalite.js';
import { startMoto } from '../../../lib/emulator/moto.js';

/** The DynamoDB implementations the state tests run on. */
export type DynamoBackend = 'dynalite' | 'moto';

/** The backend of this run: `KRUISELESS_TEST_DYNAMO` (`dynalite` when unset). @throws Error on another value */
export function testDynamoBackend(): DynamoBackend {
  const v = process.env.KRUISELESS_TEST_DYNAMO ?? 'dynalite';
  if (v !== 'dynalite' && v !== 'moto') throw new Error(`KRUISELESS_TEST_DYNAMO=${v}: use dynalite or moto`);
  return v;
}

/** What a test file gets; `endpoint` and `client()` are valid from its beforeAll on. */
export interface DynaliteHandle {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /**
   * A new client for the server (dummy credentials, no SDK retries so failures show at once, unless `overrides`
   * says otherwise, e.g. `{ maxAttempts: 3 }`, the SDK's default).
   */
  client(overrides?: DynamoDBClientConfig): DynamoDBClient;
}

/** A table name unique within the run (dynalite requires at least 3 characters). */
export function uniqueTableName(prefix = 'state'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Registers beforeAll/afterAll hooks that start and stop one server of {@link testDynamoBackend} for the test file. */
export function useDynalite(): DynaliteHandle {
  let local: LocalDynamo | undefined;
  const handle: DynaliteHandle = {
    endpoint: '',
    client(overrides = {}) {
      if (!local) throw new Error('DynamoDB is not started yet: call client() from a test or beforeAll');
      return local.client({ region: 'us-east-1', maxAttempts: 1, ...overrides });
    },
  };
  beforeAll(async () => {
    local = testDynamoBackend() === 'moto' ? await startMoto() : await startDynalite();
    handle.endpoint = local.endpoint;
  }, 60_000);
  afterAll(async () => {
    await local?.close();
  });
  return handle;
}
