/**
 * The AWS runtime's clusters (lib/runtime/registryClusters.ts; review finding 15): warm invocations of one container
 * share a cluster's client and its connections, the registry is read once per invocation, and what it refuses.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createEksTokenProvider } from '../../../lib/kube/config.js';
import { createClusterConnections, type ClusterConnections } from '../../../lib/kube/connections.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import { registryClusters } from '../../../lib/runtime/registryClusters.js';
import { UnknownClusterError } from '../../../lib/runtime/types.js';
import type { ClusterRecord } from '../../../lib/state/index.js';
import { answer, fakeApiServer, POD_LIST, type FakeApiServer } from '../kube/support/fakeApiServer.js';

const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64');
const servers: FakeApiServer[] = [];
const caches: ClusterConnections[] = [];

async function setUp(records: Record<string, ClusterRecord>) {
  const srv = await fakeApiServer((_req, res) => answer(res, 200, POD_LIST));
  servers.push(srv);
  const reads: string[] = [];
  const registry = {
    async get(name: string) {
      reads.push(name);
      const r = records[name];
      return r ? { ...r, endpoint: r.endpoint.replace('$SERVER', srv.url) } : undefined;
    },
    names: async () => Object.keys(records).sort(),
  };
  let signed = 0;
  const connections = createClusterConnections({
    tokenProvider: createEksTokenProvider({
      sign: async () => ({ token: `t${++signed}`, expiresAt: new Date(Date.now() + 14 * 60_000) }),
    }),
  });
  caches.push(connections);
  return { srv, reads, clusters: registryClusters(registry, connections) };
}

const PROD: ClusterRecord = {
  name: 'prod',
  endpoint: '$SERVER',
  caData: CA,
  auth: { type: 'eks', clusterName: 'prod', region: 'eu-west-1' },
};

afterEach(async () => {
  for (const c of caches.splice(0)) c.close();
  for (const srv of servers.splice(0)) await srv.close();
});

describe('registryClusters', () => {
  it('gives every invocation of a container the same client, over one connection, reading the record each time', async () => {
    const { srv, reads, clusters } = await setUp({ prod: PROD });
    const first = await clusters.cluster('prod');
    await first.kube.list(RESOURCES.pods, { namespace: 'ns' });
    const second = await clusters.cluster('prod');
    await second.kube.list(RESOURCES.pods, { namespace: 'ns' });
    expect(second.kube).toBe(first.kube);
    expect(srv.connections).toBe(1);
    expect(reads).toEqual(['prod', 'prod']);
  });

  it('lists the registry names', async () => {
    const { clusters } = await setUp({ prod: PROD, edge: { ...PROD, name: 'edge' } });
    await expect(clusters.clusterNames()).resolves.toEqual(['edge', 'prod']);
  });

  it('refuses an unregistered cluster and an auth type it does not serve', async () => {
    const { clusters } = await setUp({
      lab: {
        ...PROD,
        name: 'lab',
        auth: { type: 'kubeconfigSecret', secretArn: 'arn:aws:secretsmanager:x' },
      },
    });
    await expect(clusters.cluster('nope')).rejects.toThrow(
      new UnknownClusterError('nope', 'no registry/cluster#nope item'),
    );
    await expect(clusters.cluster('lab')).rejects.toThrow(
      'cluster "lab" is not registered (auth type kubeconfigSecret is not supported yet; use eks)',
    );
  });
});
