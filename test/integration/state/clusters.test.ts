import { testDynamoBackend } from '../support/dynamo.js';
import {
  InvalidClusterRecordError,
  parseClusterRecord,
  type ClusterRecord,
} from '../../../lib/state/index.js';
import { useStateFixture } from './fixtures.js';

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
    expect(await item('cluster#prod-eu', 'meta')).toEqual(EKS);
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
    await stores.watches.acquire('prod-eu', 'pods', 'pump-a', 1000, 1000);
    await expect(stores.clusters.list()).resolves.toEqual([SECRET, EKS]);
  });

  test('put replaces the record of the same name', async () => {
    const { stores } = await fx.fresh();
    await stores.clusters.put(EKS);
    await stores.clusters.put({ ...EKS, endpoint: 'https://new.example.com' });
    await expect(stores.clusters.list()).resolves.toEqual([{ ...EKS, endpoint: 'https://new.example.com' }]);
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
    await putItem({ pk: 'cluster#prod-eu', sk: 'meta', ...EKS, endpoint: 'ftp://x' });
    await expect(stores.clusters.get('prod-eu')).rejects.toThrow(
      'invalid cluster record: endpoint: must be an https:// URL',
    );
  });
});
