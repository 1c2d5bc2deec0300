/**
 * `kruiseless cluster add`: registering clusters in the real state table (dynalite). EKS itself cannot be reached
 * from this machine, so the DescribeCluster answers are given by a stub `send` (the only fake here).
 */
import type { EKSClient } from '@aws-sdk/client-eks';
import { ClusterNotReadyError, addCluster } from '../../../lib/admin/clusters.js';
import { InvalidClusterRecordError, createStateStores, ensureTable } from '../../../lib/state/index.js';
import { uniqueTableName, useDynalite } from '../support/dynamo.js';

const dynamo = useDynalite();
/** base64 of a PEM certificate block, as EKS returns `certificateAuthority.data`. */
const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64');

async function registry(allowNonEksEndpoints = false) {
  const client = dynamo.client();
  const tableName = uniqueTableName('clusters');
  await ensureTable(client, tableName);
  return createStateStores({ client, tableName, clusters: { allowNonEksEndpoints } }).clusters;
}

function eksAnswering(cluster: object): Pick<EKSClient, 'send'> & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    send: async (command: { input: { name?: string } }) => {
      calls.push(command.input.name ?? '');
      return { cluster };
    },
  };
}

describe('cluster add', () => {
  test('reads endpoint and CA with one DescribeCluster and stores an eks record', async () => {
    const clusters = await registry();
    const eks = eksAnswering({
      endpoint: 'https://ABC.gr7.eu-west-1.eks.amazonaws.com',
      certificateAuthority: { data: CA },
    });
    const record = await addCluster(clusters, eks, {
      name: 'prod',
      eksCluster: 'prod-eks',
      region: 'eu-west-1',
    });
    expect(eks.calls).toEqual(['prod-eks']);
    expect(record).toEqual({
      name: 'prod',
      endpoint: 'https://ABC.gr7.eu-west-1.eks.amazonaws.com',
      caData: CA,
      auth: { type: 'eks', clusterName: 'prod-eks', region: 'eu-west-1' },
    });
    expect(await clusters.get('prod')).toEqual(record);
  });

  test('given endpoint and CA, does not call EKS and keeps the role to assume', async () => {
    const clusters = await registry();
    const eks = eksAnswering({});
    await addCluster(clusters, eks, {
      name: 'staging',
      region: 'us-east-1',
      endpoint: 'https://5E1D0CEXAMPLEA591B746AFC5AB30262.yl4.us-east-1.eks.amazonaws.com',
      caData: CA,
      roleArn: 'arn:aws:iam::123456789012:role/kruiseless-access',
    });
    expect(eks.calls).toEqual([]);
    expect((await clusters.list()).map((c) => [c.name, c.auth])).toEqual([
      [
        'staging',
        {
          type: 'eks',
          clusterName: 'staging',
          region: 'us-east-1',
          roleArn: 'arn:aws:iam::123456789012:role/kruiseless-access',
        },
      ],
    ]);
  });

  test('a cluster EKS still creates is refused with its status, and nothing is stored', async () => {
    const clusters = await registry();
    await expect(
      addCluster(clusters, eksAnswering({ status: 'CREATING' }), { name: 'new', region: 'us-east-1' }),
    ).rejects.toThrow(new ClusterNotReadyError('new', 'status CREATING: no endpoint or CA yet'));
    expect(await clusters.list()).toEqual([]);
  });

  test('a name with # is rejected before anything is written', async () => {
    const clusters = await registry();
    await expect(
      addCluster(clusters, undefined, {
        name: 'a#b',
        region: 'us-east-1',
        endpoint: 'https://x',
        caData: CA,
      }),
    ).rejects.toBeInstanceOf(InvalidClusterRecordError);
    expect(await clusters.list()).toEqual([]);
  });

  test('an endpoint that is not the EKS endpoint of the region is refused, unless the registry allows it', async () => {
    const strict = await registry();
    const opts = { name: 'edge', region: 'us-east-1', endpoint: 'https://127.0.0.1:6443', caData: CA };
    await expect(addCluster(strict, undefined, opts)).rejects.toThrow(
      "invalid cluster record: endpoint: must be an EKS API endpoint of the cluster's region",
    );
    expect(await strict.list()).toEqual([]);
    const lenient = await registry(true);
    await expect(addCluster(lenient, undefined, opts)).resolves.toMatchObject({
      name: 'edge',
      endpoint: 'https://127.0.0.1:6443',
    });
  });
});
