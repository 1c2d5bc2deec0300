/**
 * The capacity-enforcing DynamoDB client of the tests (test/support/dynamoCapacity, docs/reliability.md#dynamodb-capacity)
 * charges what AWS charges and throttles where AWS throttles, on both DynamoDB implementations: write units from the
 * larger of the item before and after (also for a failed condition), read units per 4 KB, halved for eventually
 * consistent reads, a Query by the summed size of what it read; 1,000 WCU per second per item and partition key,
 * answered with ProvisionedThroughputExceededException so the SDK retries; a refused write leaves the item as it was.
 */
import {
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { ensureTable, createStateStores, StateStoreError } from '../../../lib/state/index.js';
import { enforceCapacity, type CapacityHandle } from '../../support/dynamoCapacity/middleware.js';
import { testDynamoBackend, uniqueTableName, useDynalite } from '../support/dynamo.js';
import { DURATION, KEY, T0 } from './fixtures.js';

const db = useDynalite();

/** A fresh table and a metered client (SDK default of 3 attempts) over it, with a clock the test moves. */
async function metered(opts: { onRequest?: () => void; enforce?: boolean } = {}) {
  const raw = db.client();
  const table = uniqueTableName();
  await ensureTable(raw, table);
  const clock = { now: T0 };
  const client: DynamoDBClient = db.client({ maxAttempts: 3 });
  const handle: CapacityHandle = enforceCapacity(client, {
    raw,
    clock: () => clock.now,
    ...(opts.enforce === undefined ? {} : { enforce: opts.enforce }),
    ...(opts.onRequest ? { onRequest: opts.onRequest } : {}),
  });
  return { raw, table, client, clock, ...handle };
}

/** An item of `pk`/`sk` with a string attribute `v` making it exactly `bytes` long (names and values counted). */
const itemOf = (pk: string, sk: string, bytes: number) => {
  const fixed = 'pk'.length + pk.length + 'sk'.length + sk.length + 'v'.length;
  return { pk: { S: pk }, sk: { S: sk }, v: { S: 'x'.repeat(bytes - fixed) } };
};

describe(`capacity as AWS charges it, on ${testDynamoBackend()}`, () => {
  test('a write costs 1 WCU per started KB of the larger of before and after, at least 1; a failed condition the existing item', async () => {
    const m = await metered();
    const put = (bytes: number, condition?: string) =>
      m.client.send(
        new PutItemCommand({
          TableName: m.table,
          Item: itemOf('p', 'a', bytes),
          ConditionExpression: condition,
        }),
      );
    await put(2500); // new item of 2,500 bytes: 3
    await put(1024); // replaces 2,500 with 1,024 bytes: the larger, 3
    await put(1024); // 1,024 over 1,024: 1
    await expect(put(100, 'attribute_not_exists(pk)')).rejects.toThrow(/conditional/i); // existing 1,024: 1
    await m.client.send(
      new UpdateItemCommand({
        TableName: m.table,
        Key: { pk: { S: 'p' }, sk: { S: 'a' } },
        UpdateExpression: 'SET w = :w',
        ExpressionAttributeValues: { ':w': { S: 'y'.repeat(3000) } },
      }),
    ); // 1,024 → 4,025 bytes: 4
    await expect(
      m.client.send(
        new PutItemCommand({
          TableName: m.table,
          Item: itemOf('p', 'b', 10),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      ),
    ).rejects.toThrow(/conditional/i); // no item: 1
    await m.client.send(
      new DeleteItemCommand({ TableName: m.table, Key: { pk: { S: 'p' }, sk: { S: 'a' } } }),
    ); // 4,025: 4
    expect(m.meter.stats.total.write).toBe(3 + 3 + 1 + 1 + 4 + 1 + 4);
    expect(m.meter.stats.requests.write).toBe(7);
    expect(m.meter.stats.byItem['p/a']).toEqual({
      units: { read: 0, write: 16 },
      requests: { read: 0, write: 6 },
    });
    expect(m.meter.stats.largestItemBytes).toBe(4025);
  });

  test('a read costs 1 RCU per started 4 KB, half when eventually consistent, 1 for an absent item; a Query the sum of what it read', async () => {
    const m = await metered();
    await m.raw.send(new PutItemCommand({ TableName: m.table, Item: itemOf('p', 'a', 5000) }));
    await m.raw.send(new PutItemCommand({ TableName: m.table, Item: itemOf('p', 'b', 4000) }));
    const get = (sk: string, consistent: boolean) =>
      m.client.send(
        new GetItemCommand({
          TableName: m.table,
          Key: { pk: { S: 'p' }, sk: { S: sk } },
          ConsistentRead: consistent,
        }),
      );
    await get('a', true); // 5,000 bytes: 2
    await get('a', false); // 1
    await get('zz', true); // absent: 1
    await m.client.send(
      new QueryCommand({
        TableName: m.table,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': 'pk' },
        ExpressionAttributeValues: { ':pk': { S: 'p' } },
        ConsistentRead: true,
      }),
    ); // 9,000 bytes read: 3
    expect(m.meter.stats.total.read).toBe(2 + 1 + 1 + 3);
    expect(m.meter.stats.requests.read).toBe(4);
  });

  test('over 1,000 WCU in one second on one item: ProvisionedThroughputExceededException after the SDK retried, the item left as it was', async () => {
    const m = await metered();
    const put = (bytes: number) =>
      m.client.send(new PutItemCommand({ TableName: m.table, Item: itemOf('p', 'a', bytes) }));
    await put(300 * 1024); // 300
    await put(350 * 1024); // 350 (the larger)
    const refused = put(380 * 1024); // 380: 1,030 in the second
    await expect(refused).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
      $metadata: { attempts: 3 },
      ThrottlingReasons: [{ reason: 'TableWriteKeyRangeThroughputExceeded' }],
    });
    expect(m.calls.PutItemCommand).toBe(5);
    expect(m.meter.stats.throttled.write).toBe(3);
    expect(m.meter.stats.total.write).toBe(650);
    const stored = await m.raw.send(
      new GetItemCommand({
        TableName: m.table,
        Key: { pk: { S: 'p' }, sk: { S: 'a' } },
        ConsistentRead: true,
      }),
    );
    expect(stored.Item?.v.S).toHaveLength(350 * 1024 - 'pkpskav'.length);
    // another item of the same partition key shares the partition's 1,000
    await expect(
      m.client.send(new PutItemCommand({ TableName: m.table, Item: itemOf('p', 'b', 360 * 1024) })),
    ).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    // another partition key does not
    await m.client.send(new PutItemCommand({ TableName: m.table, Item: itemOf('q', 'a', 360 * 1024) }));
    // a second later the item takes writes again
    m.clock.now += 1000;
    await put(380 * 1024);
    expect(m.meter.stats.peakPerItem.write).toBe(650);
    expect(m.meter.stats.peakPerPartition.write).toBe(650);
  });

  test('a retry the SDK makes once the second has passed succeeds', async () => {
    let requests = 0;
    const m = await metered({
      onRequest: () => {
        // the fourth request, the first retry, comes a second after the first two writes
        if (++requests === 4) m.clock.now += 1000;
      },
    });
    const put = (bytes: number) =>
      m.client.send(new PutItemCommand({ TableName: m.table, Item: itemOf('p', 'a', bytes) }));
    await put(300 * 1024);
    await put(350 * 1024);
    const out = await put(380 * 1024);
    expect(out.$metadata.attempts).toBe(2);
    expect(m.meter.stats.throttled.write).toBe(1);
    expect(m.meter.stats.total.write).toBe(300 + 350 + 380);
  });

  test('the state stores see a throttled write as StateStoreError naming the exception', async () => {
    const m = await metered();
    const stores = createStateStores({ client: m.client, tableName: m.table, clock: () => T0 });
    const r = await stores.leases.acquire(KEY, 'inv-a', DURATION, T0);
    if (!r.acquired) throw new Error('expected to acquire');
    const big = Array.from({ length: 3000 }, (_, i) => ({
      name: `web-${i}`.padEnd(63, 'x'),
      uid: `u-${i}`.padEnd(36, '0'),
      at: T0,
    }));
    const e = { creates: [], deletes: big, updates: [] };
    await stores.expectations.put(r.lease, e); // 344 KB: 344 WCU
    await stores.expectations.put(r.lease, e); // 689 in the second, with the lease's fence raise
    const refused = stores.expectations.put(r.lease, e);
    await expect(refused).rejects.toBeInstanceOf(StateStoreError);
    await expect(refused).rejects.toThrow(/ProvisionedThroughputExceededException|throughput/);
  });

  test('counting only: the would-be throttles are counted and nothing is refused', async () => {
    const m = await metered({ enforce: false });
    for (let i = 0; i < 4; i++)
      await m.client.send(new PutItemCommand({ TableName: m.table, Item: itemOf('p', 'a', 300 * 1024) }));
    expect(m.meter.stats.throttled.write).toBe(1);
    expect(m.meter.stats.peakPerItem.write).toBe(1200);
  });
});
