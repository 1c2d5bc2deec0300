/**
 * The DynamoDB adapter of the state ports (lib/state/dynamo) over dynalite, for the randomized fault test's
 * `--stores dynamo` runs (docs/reliability.md#randomized-fault-test): the two-write acquire (take, then raise the
 * fences), the two-step release and the ledger's read-after-failed-condition run as separate DynamoDB requests, so
 * the overlapping executions of a scenario interleave them for real. One table per run. Test-only.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startDynalite } from '../../../../../../lib/emulator/dynalite.js';
import { createStateStores, ensureTable } from '../../../../../../lib/state/index.js';
import type { ChaosStores } from './mutants.js';

let tables = 0;

/** Stores on a new, empty table of the DynamoDB server `client` talks to. */
export async function freshChaosStores(client: DynamoDBClient): Promise<ChaosStores> {
  const tableName = `chaos-${Date.now().toString(36)}-${++tables}`;
  await ensureTable(client, tableName);
  const { leases, expectations, ledger } = createStateStores({ client, tableName });
  return { leases, expectations, ledger };
}

/** A dynalite server handing out fresh state stores, one table each. */
export interface ChaosDynamo {
  /** Stores on a new, empty table. */
  stores(): Promise<ChaosStores>;
  close(): Promise<void>;
}

/** Starts dynalite in-process. @throws when it cannot listen */
export async function startChaosDynamo(): Promise<ChaosDynamo> {
  const local = await startDynalite();
  const client = local.client({ region: 'us-east-1', maxAttempts: 1 });
  return {
    stores: () => freshChaosStores(client),
    async close() {
      client.destroy();
      await local.close();
    },
  };
}
