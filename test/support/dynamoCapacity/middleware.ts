/**
 * A DynamoDB client that consumes capacity as AWS does (docs/reliability.md#dynamodb-capacity): an SDK middleware,
 * inside the SDK's retry loop, that charges every request against a {@link CapacityMeter} — write units from the item
 * before and after the write, read units from the items read — and answers a request over the per-item or
 * per-partition limit the way DynamoDB does, with `ProvisionedThroughputExceededException` (throttling reason
 * `TableWriteKeyRangeThroughputExceeded` / `TableReadKeyRangeThroughputExceeded`, AWS's "hot partition"
 * reasons for on-demand and provisioned tables), so the SDK's retries (throttling: backoff, retry quota) run as
 * they would against AWS. An item over 400 KB is a `ValidationException`. Neither dynalite nor moto enforces
 * throughput: this is the only place the table's limits are checked. Test-only.
 *
 * How a request is measured: what it read is read once more, and the item a write changes is read (strongly
 * consistent) before and after it under a per-item lock, all through a second client that is not metered; a write over the limit is undone (the old item put back) and
 * answered as throttled, so the backend is left as if the request had never arrived. Modelled: GetItem, PutItem,
 * UpdateItem, DeleteItem, Query; DescribeTable and CreateTable pass uncharged; anything else (Scan, the batch and
 * transaction calls) fails, so a new call cannot bypass the model unnoticed.
 */
import {
  DeleteItemCommand,
  GetItemCommand,
  ProvisionedThroughputExceededException,
  PutItemCommand,
  QueryCommand,
  type AttributeValue,
  type GetItemCommandInput,
  type QueryCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { CapacityMeter, type CapacityKind } from './meter.js';
import { itemBytes, MAX_ITEM_BYTES, readUnits, writeUnits, type WireItem } from './units.js';

/** Options of {@link enforceCapacity}. */
export interface CapacityOptions {
  /** A client of the same server without this middleware: reads items before and after writes, undoes refused ones. */
  raw: DynamoDBClient;
  /** Clock of the one-second windows, ms; default `Date.now`. */
  clock?: () => number;
  /** Refuse requests over a limit (default true); false only counts them (`stats.throttled`). */
  enforce?: boolean;
  /** Called once per request attempt before it is charged (a simulation advances its clock here). */
  onRequest?: (command: string) => void;
}

/** The meter of a client, and the requests it saw per command (attempts, throttled ones included). */
export interface CapacityHandle {
  meter: CapacityMeter;
  calls: Record<string, number>;
}

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand']);
const PASSING = new Set(['DescribeTableCommand', 'CreateTableCommand']);

interface Input {
  TableName?: string;
  Key?: WireItem;
  Item?: WireItem;
  ConsistentRead?: boolean;
  KeyConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, AttributeValue>;
}

function throttled(kind: CapacityKind, table: string): ProvisionedThroughputExceededException {
  const reason =
    kind === 'write' ? 'TableWriteKeyRangeThroughputExceeded' : 'TableReadKeyRangeThroughputExceeded';
  return new ProvisionedThroughputExceededException({
    message:
      'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
    $metadata: { httpStatusCode: 400 },
    ThrottlingReasons: [{ reason, resource: `arn:aws:dynamodb:us-east-1:000000000000:table/${table}` }],
  });
}

function tooLarge(): DynamoDBServiceException {
  return new DynamoDBServiceException({
    name: 'ValidationException',
    $fault: 'client',
    message: 'Item size has exceeded the maximum allowed size',
    $metadata: { httpStatusCode: 400 },
  });
}

const str = (v: AttributeValue | undefined): string => v?.S ?? '';

/** The partition key value a Query's key condition names (`<name> = :v`, the name possibly `#alias`). */
function queriedPk(input: Input, pkName: string): string {
  for (const m of (input.KeyConditionExpression ?? '').matchAll(/(#?\w+)\s*=\s*(:\w+)/g)) {
    const name = m[1].startsWith('#') ? input.ExpressionAttributeNames?.[m[1]] : m[1];
    if (name === pkName) return str(input.ExpressionAttributeValues?.[m[2]]);
  }
  throw new Error(`Query without an equality on ${pkName}: ${input.KeyConditionExpression}`);
}

/**
 * Meters `client` from now on (its middleware stack is changed; build a fresh client per meter).
 * @returns the meter and per-command call counts
 */
export function enforceCapacity(client: DynamoDBClient, opts: CapacityOptions): CapacityHandle {
  const meter = new CapacityMeter(opts.clock ?? Date.now, opts.enforce ?? true);
  const calls: Record<string, number> = {};
  const locks = new Map<string, Promise<unknown>>();
  const [pkName, skName] = ['pk', 'sk'];

  const locked = async <T>(key: string, run: () => Promise<T>): Promise<T> => {
    const before = locks.get(key) ?? Promise.resolve();
    const mine = before.then(run, run);
    locks.set(
      key,
      mine.catch(() => undefined),
    );
    return mine;
  };
  const read = async (table: string, key: WireItem): Promise<WireItem | undefined> =>
    (await opts.raw.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
  const restore = async (table: string, key: WireItem, item: WireItem | undefined): Promise<void> => {
    if (item) await opts.raw.send(new PutItemCommand({ TableName: table, Item: item }));
    else await opts.raw.send(new DeleteItemCommand({ TableName: table, Key: key }));
  };

  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName);
      calls[command] = (calls[command] ?? 0) + 1;
      if (PASSING.has(command)) return next(args);
      opts.onRequest?.(command);
      const input = args.input as Input;
      const table = input.TableName ?? '';
      if (command === 'GetItemCommand' || command === 'QueryCommand') {
        const result = await next(args);
        // the output may already be unmarshalled (the document client): read the same again, raw
        const items =
          command === 'GetItemCommand'
            ? [(await opts.raw.send(new GetItemCommand(input as GetItemCommandInput))).Item].filter(
                (i): i is WireItem => i !== undefined,
              )
            : ((await opts.raw.send(new QueryCommand(input as QueryCommandInput))).Items ?? []);
        const bytes = items.reduce((s, i) => s + itemBytes(i), 0);
        for (const i of items) meter.sawItem(itemBytes(i));
        const pk = command === 'GetItemCommand' ? str(input.Key?.[pkName]) : queriedPk(input, pkName);
        const sk = command === 'GetItemCommand' ? str(input.Key?.[skName]) : undefined;
        if (!meter.charge('read', pk, sk, readUnits(bytes, input.ConsistentRead ?? false)))
          throw throttled('read', table);
        return result;
      }
      if (!WRITES.has(command))
        throw new Error(`${command} is not modelled by the capacity-enforcing client`);
      const keyItem = input.Key ?? input.Item ?? {};
      const key: WireItem = { [pkName]: keyItem[pkName], [skName]: keyItem[skName] };
      const pk = str(key[pkName]);
      const sk = str(key[skName]);
      return locked(`${table}|${pk}|${sk}`, async () => {
        const before = await read(table, key);
        meter.sawItem(itemBytes(before));
        let result: Awaited<ReturnType<typeof next>>;
        try {
          result = await next(args);
        } catch (e) {
          if (e instanceof Error && e.name === 'ConditionalCheckFailedException') {
            // a failed condition still consumes the existing item's units (at least 1)
            if (!meter.charge('write', pk, sk, writeUnits(itemBytes(before), 0, { conditionFailed: true })))
              throw throttled('write', table);
          }
          throw e;
        }
        const after = await read(table, key);
        const afterBytes = itemBytes(after);
        meter.sawItem(afterBytes);
        if (afterBytes > MAX_ITEM_BYTES) {
          await restore(table, key, before);
          throw tooLarge();
        }
        if (!meter.charge('write', pk, sk, writeUnits(itemBytes(before), afterBytes))) {
          await restore(table, key, before);
          throw throttled('write', table);
        }
        return result;
      });
    },
    { step: 'finalizeRequest', priority: 'low', name: 'enforceCapacity' },
  );
  return { meter, calls };
}
