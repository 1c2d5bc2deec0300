import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  createStateStores,
  ensureTable,
  FencedOutError,
  StateStoreError,
  type Lease,
} from '../../../lib/state/index.js';
import { uniqueTableName, useDynalite } from '../support/dynamo.js';
import { DURATION, KEY, PK, T0 } from './fixtures.js';

const db = useDynalite();

describe('state table (docs/architecture.md#state-table)', () => {
  test('ensureTable creates an ACTIVE pk/sk table and is a no-op the second time', async () => {
    const client = db.client();
    const name = uniqueTableName();
    await ensureTable(client, name);
    await ensureTable(client, name);
    const t = (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
    expect(t?.TableStatus).toBe('ACTIVE');
    expect(t?.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
  });

  test('every store fails with StateStoreError naming the operation and key when the table is missing', async () => {
    const name = uniqueTableName('missing');
    const s = createStateStores({ client: db.client(), tableName: name });
    const lease: Lease = { key: KEY, holder: 'inv-a', token: 1, expiresAt: T0 + DURATION };
    const acquire = s.leases.acquire(KEY, 'inv-a', DURATION, T0);
    await expect(acquire).rejects.toBeInstanceOf(StateStoreError);
    await expect(acquire).rejects.toMatchObject({
      operation: 'lease.acquire (UpdateItem)',
      key: `${PK}/lease`,
      cause: expect.objectContaining({ name: 'ResourceNotFoundException' }),
    });
    await expect(acquire).rejects.toThrow(
      `DynamoDB lease.acquire (UpdateItem) on ${PK}/lease failed: ResourceNotFoundException: `,
    );
    const calls: [string, Promise<unknown>][] = [
      ['lease.renew (UpdateItem)', s.leases.renew(lease, DURATION, T0)],
      ['lease.release (UpdateItem)', s.leases.release(lease)],
      ['expectations.get (GetItem)', s.expectations.get(KEY)],
      ['expectations.put (PutItem)', s.expectations.put(lease, { creates: [], deletes: [], updates: [] })],
      ['ledger.get (GetItem)', s.ledger.get(KEY)],
      ['ledger.record (PutItem)', s.ledger.record(lease, { intentId: 'i', createdAt: T0, pods: [] })],
      ['ledger.clear (UpdateItem)', s.ledger.clear(lease, 'i')],
      ['clusters.get (GetItem)', s.clusters.get('prod-eu')],
      ['clusters.list (Query)', s.clusters.list()],
      ['clusters.names (Query)', s.clusters.names()],
      ['watch.acquire (UpdateItem)', s.watches.acquire('prod-eu', 'pump', DURATION, T0)],
      ['watch.save (UpdateItem)', s.watches.save('prod-eu', 'pump', 1, { pods: '1' })],
    ];
    // settled together: a rejection that lands before its turn in a loop of awaits would count as unhandled
    const settled = await Promise.allSettled(calls.map(([, call]) => call));
    settled.forEach((result, i) => {
      expect(result.status).toBe('rejected');
      const reason = (result as PromiseRejectedResult).reason as unknown;
      expect(reason).toMatchObject({ name: 'StateStoreError', operation: calls[i][0] });
      expect(reason).not.toBeInstanceOf(FencedOutError);
    });
  });

  test('a stored item of an unexpected shape is a StateStoreError, not a crash', async () => {
    const client = db.client();
    const name = uniqueTableName();
    await ensureTable(client, name);
    const s = createStateStores({ client, tableName: name });
    const { DynamoDBDocumentClient, PutCommand } = await import('@aws-sdk/lib-dynamodb');
    await DynamoDBDocumentClient.from(client).send(
      new PutCommand({
        TableName: name,
        Item: { pk: PK, sk: 'expectations', creates: 'web-1', fence: 1 },
      }),
    );
    await expect(s.expectations.get(KEY)).rejects.toThrow(
      `DynamoDB expectations.get on ${PK}/expectations failed: stored item has an unexpected shape: creates: Invalid input: expected array, received string`,
    );
  });
});
