import { testDynamoBackend } from '../support/dynamo.js';
import {
  InvalidClusterRecordError,
  parseClusterRecord,
  type ClusterRecord,
} from '../../../lib/state/index.js';
import { DynamoClusterRegistry } from '../../../lib/state/clusters.js';
import { StateTable } from '../../../lib/state/dynamo/table.js';
import { recordCommands, useStateFixture } from './fixtures.js';

const fx = useStateFixture();

const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n').toString(
  'base64',
);

const EKS: ClusterRecord = {
  name: 'prod-eu',
  endpoint: 'https://ABCDEF.gr7.eu-west-1.eks.amazonaws.com',
  caData: CA,
  auth: {
    type: 'eks',
    clusterName: 'prod-eu',
    region: 'eu-west-1',
    roleArn: 'arn:aws:iam::123456789012:role/kruiseless',
  },
};
const SECRET: ClusterRecord = {
  name: 'edge.lab',
  endpoint: 'https://10.0.0.1:6443',
  caData: CA,
  auth: {
    type: 'kubeconfigSecret',
    secretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:edge-kubeconfig-AbCdEf',
  },
};

function invalid(input: unknown): InvalidClusterRecordError {
  try {
    parseClusterRecord(input);
  } catch (err) {
    if (err instanceof InvalidClusterRecordError) return err;
    throw err;
  }
  throw new Error('expected InvalidClusterRecordError');
}

describe(`ClusterRegistry on ${testDynamoBackend()} (docs/architecture.md#cluster-registry)`, () => {
  test('put then get returns the record; an unknown name gives undefined', async () => {
    const { stores, item } = await fx.fresh();
    await stores.clusters.put(EKS);
    await expect(stores.clusters.get('prod-eu')).resolves.toEqual(EKS);
    await expect(stores.clusters.get('nope')).resolves.toBeUndefined();
    expect(await item('registry', 'cluster#prod-eu')).toEqual(EKS);
    expect(await item('cluster#prod-eu', 'meta')).toBeUndefined();
  });

  test('list returns every cluster sorted by name and ignores CloneSet and watch items', async () => {
    const { stores } = await fx.fresh();
    await stores.clusters.put(EKS);
    await stores.clusters.put(SECRET);
    await stores.leases.acquire(
      { cluster: 'prod-eu', kind: 'apps.kruise.io/CloneSet', namespace: 'shop', name: 'web' },
      'inv-a',
      1000,
      1000,
    );
    await stores.watches.acquire('prod-eu', 'pump-a', 1000, 1000);
    await expect(stores.clusters.list()).resolves.toEqual([SECRET, EKS]);
  });

  test('put replaces the record of the same name', async () => {
    const { stores } = await fx.fresh();
    await stores.clusters.put(EKS);
    const moved = { ...EKS, endpoint: 'https://0123456789ABCDEF.yl4.eu-west-1.eks.amazonaws.com' };
    await stores.clusters.put(moved);
    await expect(stores.clusters.list()).resolves.toEqual([moved]);
  });

  test('an invalid record is rejected with every problem and its field path, and nothing is written', async () => {
    const { stores } = await fx.fresh();
    const bad = {
      ...EKS,
      endpoint: 'http://plain.example.com',
      caData: 'not base64!',
      auth: { type: 'eks', clusterName: 'prod-eu', region: 'Europe' },
    } as ClusterRecord;
    const put = stores.clusters.put(bad);
    await expect(put).rejects.toBeInstanceOf(InvalidClusterRecordError);
    await expect(put).rejects.toThrow(
      'invalid cluster record: endpoint: must be an https:// URL; ' +
        'caData: must be base64 of a PEM CA certificate (like certificate-authority-data in a kubeconfig); ' +
        'auth.region: must be an AWS region such as eu-west-1',
    );
    await expect(stores.clusters.list()).resolves.toEqual([]);
  });

  test("a name containing '#' is rejected", () => {
    expect(invalid({ ...EKS, name: 'a#b' }).errors).toEqual([
      {
        path: 'name',
        message:
          'must be 1-100 characters of letters, digits, ".", "_" or "-", starting with a letter or digit',
      },
    ]);
  });

  test('an unknown auth type names the accepted shapes', () => {
    expect(invalid({ ...EKS, auth: { type: 'token', token: 'x' } }).message).toBe(
      'invalid cluster record: auth.type: must be {type:"eks", clusterName, region, roleArn?} or {type:"kubeconfigSecret", secretArn}',
    );
  });

  test('a malformed secret ARN, a missing field and an unknown field are each reported', () => {
    const { endpoint: _e, ...noEndpoint } = SECRET;
    expect(
      invalid({ ...noEndpoint, extra: 1, auth: { type: 'kubeconfigSecret', secretArn: 'edge' } }).errors,
    ).toEqual([
      { path: 'endpoint', message: 'Invalid input: expected string, received undefined' },
      {
        path: 'auth.secretArn',
        message:
          'must be a Secrets Manager secret ARN (arn:aws:secretsmanager:<region>:<account>:secret:<name>)',
      },
      { path: '', message: 'Unrecognized key: "extra"' },
    ]);
  });

  test('a stored record that no longer validates is reported on get instead of being used', async () => {
    const { stores, putItem } = await fx.fresh();
    await putItem({ pk: 'registry', sk: 'cluster#prod-eu', ...EKS, endpoint: 'ftp://x' });
    await expect(stores.clusters.get('prod-eu')).rejects.toThrow(
      'invalid cluster record: endpoint: must be an https:// URL',
    );
  });

  test('names and list are Queries of the registry partition, eventually consistent, never a Scan of the table', async () => {
    const { stores, client } = await fx.fresh();
    await stores.clusters.put(EKS);
    await stores.clusters.put(SECRET);
    await stores.watches.acquire('prod-eu', 'pump-a', 1000, 1000);
    const sent = recordCommands(client);
    await expect(stores.clusters.names()).resolves.toEqual(['edge.lab', 'prod-eu']);
    await expect(stores.clusters.list()).resolves.toEqual([SECRET, EKS]);
    await expect(stores.clusters.list({ consistent: true })).resolves.toEqual([SECRET, EKS]);
    expect(sent.map((c) => [c.command, c.input.ConsistentRead, c.input.ExpressionAttributeValues])).toEqual([
      ['QueryCommand', false, { ':pk': 'registry', ':prefix': 'cluster#' }],
      ['QueryCommand', false, { ':pk': 'registry', ':prefix': 'cluster#' }],
      ['QueryCommand', true, { ':pk': 'registry', ':prefix': 'cluster#' }],
    ]);
  });

  test('get is one eventually consistent GetItem of the registry item', async () => {
    const { stores, client } = await fx.fresh();
    await stores.clusters.put(EKS);
    const sent = recordCommands(client);
    await expect(stores.clusters.get('prod-eu')).resolves.toEqual(EKS);
    expect(sent.map((c) => [c.command, c.input.Key, c.input.ConsistentRead])).toEqual([
      ['GetItemCommand', { pk: 'registry', sk: 'cluster#prod-eu' }, false],
    ]);
  });

  test('names and list follow the Query pages to the end', async () => {
    const { stores, client, tableName } = await fx.fresh();
    const registry = new DynamoClusterRegistry(new StateTable(client, tableName), {}, 2);
    const names = ['a', 'b', 'c', 'd', 'e'];
    for (const name of names) await stores.clusters.put({ ...EKS, name });
    const sent = recordCommands(client);
    await expect(registry.names()).resolves.toEqual(names);
    expect(sent.filter((c) => c.command === 'QueryCommand').length).toBeGreaterThanOrEqual(3);
    expect(sent[1].input.ExclusiveStartKey).toBeDefined();
    await expect(registry.list()).resolves.toEqual(names.map((name) => ({ ...EKS, name })));
  });

  test('an eks record is refused unless its endpoint is an EKS endpoint of its region, and nothing is written', async () => {
    const { stores } = await fx.fresh();
    for (const endpoint of [
      'https://attacker.example.com',
      'https://ABCDEF.gr7.us-east-1.eks.amazonaws.com',
      'https://ABCDEF.gr7.eu-west-1.eks.amazonaws.com:8443',
      'https://ABCDEF.gr7.eu-west-1.eks.amazonaws.com.attacker.example',
      'https://127.0.0.1:6443',
    ]) {
      const put = stores.clusters.put({ ...EKS, endpoint });
      await expect(put).rejects.toBeInstanceOf(InvalidClusterRecordError);
      await expect(put).rejects.toThrow(
        "invalid cluster record: endpoint: must be an EKS API endpoint of the cluster's region (https://<id>.<zone>.eu-west-1.eks.amazonaws.com)",
      );
    }
    await expect(stores.clusters.names()).resolves.toEqual([]);
  });

  test('a stored eks record pointing elsewhere is refused on get; names() still lists every cluster', async () => {
    const { stores, putItem } = await fx.fresh();
    await stores.clusters.put(SECRET);
    await putItem({
      pk: 'registry',
      sk: 'cluster#prod-eu',
      ...EKS,
      endpoint: 'https://attacker.example.com',
    });
    await expect(stores.clusters.get('prod-eu')).rejects.toBeInstanceOf(InvalidClusterRecordError);
    await expect(stores.clusters.names()).resolves.toEqual(['edge.lab', 'prod-eu']);
    await expect(stores.clusters.get('edge.lab')).resolves.toEqual(SECRET);
  });

  test('a registry that allows non-EKS endpoints stores and reads them', async () => {
    const { client, tableName } = await fx.fresh();
    const registry = new DynamoClusterRegistry(new StateTable(client, tableName), {
      allowNonEksEndpoints: true,
    });
    const local = { ...EKS, endpoint: 'https://127.0.0.1:6443' };
    await expect(registry.put(local)).resolves.toEqual(local);
    await expect(registry.get('prod-eu')).resolves.toEqual(local);
  });

  test('a registry larger than one 1 MB page is read in full', async () => {
    const { stores, client } = await fx.fresh();
    // a 100 KB CA bundle each: twelve records are more than DynamoDB returns in one Query page
    const bundle = Buffer.from(
      `${'-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n'.repeat(1700)}`,
    ).toString('base64');
    const names = Array.from({ length: 12 }, (_, i) => `c${String(i).padStart(2, '0')}`);
    for (const name of names) await stores.clusters.put({ ...EKS, name, caData: bundle });
    const sent = recordCommands(client);
    await expect(stores.clusters.names()).resolves.toEqual(names);
    expect(sent.length).toBeGreaterThanOrEqual(2);
  });
});
