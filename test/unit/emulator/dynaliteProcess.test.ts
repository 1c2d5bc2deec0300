/**
 * dynalite in a child process (lib/emulator/dynaliteProcess.ts): a real server on its own port that keeps what is
 * written, and is gone once closed — the bench's fleet runs its DynamoDB so.
 */
import { describe, expect, test } from '@jest/globals';
import { CreateTableCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { startDynaliteProcess } from '../../../lib/emulator/dynaliteProcess.js';

describe('startDynaliteProcess', () => {
  test('serves a table from a child process, and stops with close()', async () => {
    const dynamo = await startDynaliteProcess();
    expect(dynamo.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const client = dynamo.client({ maxAttempts: 1 });
    try {
      await client.send(
        new CreateTableCommand({
          TableName: 'kruiseless-test',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
      // tables are ACTIVE at once (--createTableMs 0): the put needs no wait
      await client.send(
        new PutItemCommand({ TableName: 'kruiseless-test', Item: { pk: { S: 'lease#a' }, n: { N: '1' } } }),
      );
      const got = await client.send(
        new GetItemCommand({ TableName: 'kruiseless-test', Key: { pk: { S: 'lease#a' } } }),
      );
      expect(got.Item).toEqual({ pk: { S: 'lease#a' }, n: { N: '1' } });
    } finally {
      await dynamo.close();
    }
    const after = await fetch(dynamo.endpoint, { signal: AbortSignal.timeout(2_000) }).then(
      () => 'answered',
      () => 'refused',
    );
    expect(after).toBe('refused');
  });
});
