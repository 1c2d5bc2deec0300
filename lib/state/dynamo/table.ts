/**
 * The one table client every store is built from (docs/architecture.md#state-table: one table, partition key `pk`, sort key `sk`,
 * TTL attribute `ttl`). It turns SDK errors into {@link StateStoreError} and a failed condition into a plain
 * `false`, so the stores decide what a failed condition means (usually {@link FencedOutError}).
 * Only single-item operations are used: dynalite, the local DynamoDB, has no transactions (docs/architecture.md#embedded-default).
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type ReturnValue,
} from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type NativeAttributeValue,
} from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod';
import { systemClock, type Clock } from '../../core/clock.js';
import { StateStoreError } from '../errors.js';
import { itemKey } from '../itemKeys.js';

/** A stored item as the document client returns it (numbers as JS numbers). */
export type Item = Record<string, NativeAttributeValue>;

/** Garbage-collection horizon added to every `ttl`: 1 day, in milliseconds. */
export const GC_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * The `ttl` attribute for an item whose relevance ends at `epochMs`: `epochMs` + 1 day, in epoch **seconds**
 * (DynamoDB TTL). Garbage collection only; no code reads it for correctness.
 */
export function gcTtl(epochMs: number): number {
  return Math.ceil((epochMs + GC_AFTER_MS) / 1000);
}

/** Expression parts of a conditional write; `#x` names and `:x` values as in the DynamoDB API. */
export interface Expression {
  condition?: string;
  names?: Record<string, string>;
  values?: Record<string, NativeAttributeValue>;
}

/** Outcome of a conditional write: `ok: false` only when the condition check failed. */
export type WriteResult = { ok: true; attributes?: Item } | { ok: false };

function isConditionFailure(err: unknown): boolean {
  return err instanceof Error && err.name === 'ConditionalCheckFailedException';
}

/**
 * Thin wrapper around the document client bound to one table. `operation` arguments label errors, e.g.
 * `lease.acquire`.
 */
export class StateTable {
  private readonly doc: DynamoDBDocumentClient;

  constructor(
    client: DynamoDBClient,
    readonly tableName: string,
    /** Wall clock for `ttl` of bookkeeping items, epoch ms. */
    readonly clock: Clock = systemClock,
  ) {
    this.doc = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true },
    });
  }

  /**
   * GetItem, strongly consistent unless `consistent` is false (an eventually consistent read costs half the read
   * units and may miss a write of the last second).
   * @returns the item, or undefined when absent
   * @throws StateStoreError on any SDK error
   */
  async get(operation: string, pk: string, sk: string, consistent = true): Promise<Item | undefined> {
    try {
      const out = await this.doc.send(
        new GetCommand({ TableName: this.tableName, Key: { pk, sk }, ConsistentRead: consistent }),
      );
      return out.Item;
    } catch (err) {
      throw new StateStoreError(`${operation} (GetItem)`, itemKey(pk, sk), err);
    }
  }

  /**
   * PutItem of the whole item (`pk`, `sk` added), optionally conditional.
   * @throws StateStoreError on any SDK error other than a failed condition
   */
  async put(operation: string, pk: string, sk: string, attrs: Item, expr: Expression = {}): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...attrs, pk, sk },
          ConditionExpression: expr.condition,
          ExpressionAttributeNames: expr.names,
          ExpressionAttributeValues: expr.values,
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw new StateStoreError(`${operation} (PutItem)`, itemKey(pk, sk), err);
    }
  }

  /**
   * UpdateItem with an update expression, optionally conditional.
   * @param returnValues `ALL_OLD` / `ALL_NEW` to get the item before / after the update
   * @throws StateStoreError on any SDK error other than a failed condition
   */
  async update(
    operation: string,
    pk: string,
    sk: string,
    update: string,
    expr: Expression,
    returnValues: ReturnValue = 'NONE',
  ): Promise<WriteResult> {
    try {
      const out = await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk, sk },
          UpdateExpression: update,
          ConditionExpression: expr.condition,
          ExpressionAttributeNames: expr.names,
          ExpressionAttributeValues: expr.values,
          ReturnValues: returnValues,
        }),
      );
      return { ok: true, attributes: out.Attributes };
    } catch (err) {
      if (isConditionFailure(err)) return { ok: false };
      throw new StateStoreError(`${operation} (UpdateItem)`, itemKey(pk, sk), err);
    }
  }

  /**
   * Every item of partition `pk` whose sort key begins with `skPrefix`, in sort-key order: one Query per page,
   * following `LastEvaluatedKey` to the end (DynamoDB ends a page at 1 MB read, or after `pageLimit` items).
   * @param opts.consistent strongly consistent pages (default false: eventually consistent, half the read units)
   * @param opts.pageLimit items per page at most (DynamoDB's `Limit`); default none, pages end at 1 MB
   * @throws StateStoreError on any SDK error
   */
  async query(
    operation: string,
    pk: string,
    skPrefix: string,
    opts: { consistent?: boolean; pageLimit?: number } = {},
  ): Promise<Item[]> {
    const items: Item[] = [];
    let start: Item | undefined;
    try {
      do {
        const out = await this.doc.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
            ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
            ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
            ConsistentRead: opts.consistent ?? false,
            ...(opts.pageLimit === undefined ? {} : { Limit: opts.pageLimit }),
            ExclusiveStartKey: start,
          }),
        );
        items.push(...(out.Items ?? []));
        start = out.LastEvaluatedKey;
      } while (start);
    } catch (err) {
      throw new StateStoreError(`${operation} (Query)`, itemKey(pk, `${skPrefix}*`), err);
    }
    return items;
  }
}

/**
 * Creates the state table (`pk` S hash, `sk` S range, on-demand) if it does not exist and waits until it is
 * ACTIVE. For the embedded default (lib/local) and tests only; in AWS the table comes from serverless.yml,
 * which also enables TTL on `ttl` (dynalite does not implement UpdateTimeToLive).
 * @param timeoutMs how long to wait for ACTIVE, default 30 000 ms
 * @throws StateStoreError when DynamoDB fails or the table is not ACTIVE in time
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  timeoutMs = 30_000,
): Promise<void> {
  const status = async (): Promise<string | undefined> => {
    try {
      const out = await client.send(new DescribeTableCommand({ TableName: tableName }));
      return out.Table?.TableStatus;
    } catch (err) {
      if (err instanceof Error && err.name === 'ResourceNotFoundException') return undefined;
      throw new StateStoreError('ensureTable (DescribeTable)', tableName, err);
    }
  };
  if ((await status()) === undefined) {
    try {
      await client.send(
        new CreateTableCommand({
          TableName: tableName,
          AttributeDefinitions: [
            { AttributeName: 'pk', AttributeType: 'S' },
            { AttributeName: 'sk', AttributeType: 'S' },
          ],
          KeySchema: [
            { AttributeName: 'pk', KeyType: 'HASH' },
            { AttributeName: 'sk', KeyType: 'RANGE' },
          ],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
    } catch (err) {
      // Another caller created it meanwhile: fine, wait for ACTIVE below.
      if (!(err instanceof Error && err.name === 'ResourceInUseException'))
        throw new StateStoreError('ensureTable (CreateTable)', tableName, err);
    }
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await status();
    if (s === 'ACTIVE') return;
    if (Date.now() > deadline)
      throw new StateStoreError(
        'ensureTable (DescribeTable)',
        tableName,
        undefined,
        `table not ACTIVE after ${timeoutMs} ms (status ${s ?? 'missing'})`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Reads a stored item through a zod schema.
 * @throws StateStoreError when the stored item does not have the expected shape (written by other code, or
 *   edited by hand)
 */
export function decodeItem<T>(
  schema: z.ZodType<T>,
  item: Item,
  operation: string,
  pk: string,
  sk: string,
): T {
  const parsed = schema.safeParse(item);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new StateStoreError(
    operation,
    itemKey(pk, sk),
    parsed.error,
    `stored item has an unexpected shape: ${detail}`,
  );
}
