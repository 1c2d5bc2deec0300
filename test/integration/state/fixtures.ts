/**
 * Shared set-up of the state integration tests: one DynamoDB server (dynalite, or moto in the state-moto project) per test file, a fresh table per test, the stores
 * under test and a raw document client for reading items exactly as stored.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  createStateStores,
  ensureTable,
  type ObjectKey,
  type StateStores,
} from '../../../lib/state/index.js';
import { uniqueTableName, useDynalite } from '../support/dynamo.js';

/** A fresh table with its stores and raw item access. */
export interface StateFixture {
  tableName: string;
  /** The client the stores use (e.g. to add a middleware that records its commands). */
  client: DynamoDBClient;
  stores: StateStores;
  /** The item as stored, without pk/sk; undefined when absent. */
  item(pk: string, sk: string): Promise<Record<string, unknown> | undefined>;
  putItem(item: Record<string, unknown>): Promise<void>;
  deleteItem(pk: string, sk: string): Promise<void>;
}

/** Call at the top level of a test file; call `fresh()` inside each test. */
export function useStateFixture(): { fresh(clock?: () => number): Promise<StateFixture> } {
  const db = useDynalite();
  return {
    async fresh(clock) {
      const client = db.client();
      const tableName = uniqueTableName();
      await ensureTable(client, tableName);
      const doc = DynamoDBDocumentClient.from(client);
      return {
        tableName,
        client,
        stores: createStateStores({ client, tableName, clock }),
        async item(pk, sk) {
          const out = await doc.send(
            new GetCommand({ TableName: tableName, Key: { pk, sk }, ConsistentRead: true }),
          );
          if (!out.Item) return undefined;
          const { pk: _pk, sk: _sk, ...rest } = out.Item;
          return rest;
        },
        async putItem(item) {
          await doc.send(new PutCommand({ TableName: tableName, Item: item }));
        },
        async deleteItem(pk, sk) {
          await doc.send(new DeleteCommand({ TableName: tableName, Key: { pk, sk } }));
        },
      };
    },
  };
}

/** The CloneSet most tests use; its partition key is {@link PK}. */
export const KEY: ObjectKey = {
  cluster: 'prod-eu',
  kind: 'apps.kruise.io/CloneSet',
  namespace: 'shop',
  name: 'web',
};
export const PK = 'obj#prod-eu#apps.kruise.io/CloneSet#shop#web';
/** A fixed "now" (epoch ms) and lease duration (ms) for readable expected values. */
export const T0 = 1_700_000_000_000;
export const DURATION = 60_000;
/** ttl (epoch s) of an item whose relevance ends at `ms`: one day later, rounded up. */
export const ttlOf = (ms: number): number => Math.ceil((ms + 86_400_000) / 1000);

/** One DynamoDB call as the client sent it. */
export interface SentCommand {
  command: string;
  input: Record<string, unknown>;
}

/** Records every command `client` sends from now on (an SDK middleware; the calls still go to the server). */
export function recordCommands(client: DynamoDBClient): SentCommand[] {
  const sent: SentCommand[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push({ command: String(context.commandName), input: args.input as Record<string, unknown> });
      return next(args);
    },
    { step: 'initialize', name: 'recordCommands' },
  );
  return sent;
}
