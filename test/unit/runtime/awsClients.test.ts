/**
 * The AWS SDK clients of the functions have deadlines (lib/runtime/awsClients.ts; review finding 14): a DynamoDB
 * endpoint that accepts the connection and never answers fails the call in seconds, after the SDK's retries,
 * instead of holding the invocation (and its lease) until Lambda kills it.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { AWS_REQUEST_TIMEOUT_MS, awsClientConfig } from '../../../lib/runtime/awsClients.js';
import { fakeApiServer, type FakeApiServer } from '../kube/support/fakeApiServer.js';

const servers: FakeApiServer[] = [];
afterEach(async () => {
  for (const srv of servers.splice(0)) await srv.close();
});

describe('awsClientConfig', () => {
  it('lets three attempts that all time out end well inside the shortest function timeout but admission', () => {
    expect(3 * AWS_REQUEST_TIMEOUT_MS).toBeLessThan(60_000);
    expect(awsClientConfig().requestHandler).toEqual({
      connectionTimeout: 3000,
      requestTimeout: 5000,
      throwOnRequestTimeout: true,
    });
  });

  it('makes a call to an endpoint that never answers fail after its deadline, each SDK attempt timed out', async () => {
    const srv = await fakeApiServer(() => undefined);
    servers.push(srv);
    const client = new DynamoDBClient({
      ...awsClientConfig({ requestTimeoutMs: 200 }),
      endpoint: srv.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      maxAttempts: 2,
    });
    const started = Date.now();
    await expect(
      client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'a' }, sk: { S: 'b' } } })),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(srv.seen).toHaveLength(2);
    client.destroy();
  });
});
