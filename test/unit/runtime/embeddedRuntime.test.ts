/**
 * The embedded runtime's clusters (lib/runtime/embedded.ts): one by default, more for the bench's fleet, each
 * reached under its own name.
 */
import { describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { embeddedRuntime, type EmbeddedRuntimeParts } from '../../../lib/runtime/embedded.js';
import { UnknownClusterError, type RuntimeCluster } from '../../../lib/runtime/types.js';
import type { KubeClient } from '../../../lib/kube/types.js';

const clusterNamed = (name: string): RuntimeCluster => ({
  name,
  kc: new KubeConfig(),
  kube: {} as KubeClient,
});

const adapters = {
  stores: {},
  publisher: {},
  requeue: {},
} as unknown as Pick<EmbeddedRuntimeParts, 'stores' | 'publisher' | 'requeue'>;

describe('embeddedRuntime', () => {
  it('serves one cluster and names it in the refusal of another', async () => {
    const local = clusterNamed('local');
    const runtime = embeddedRuntime({ ...adapters, cluster: local });
    expect(await runtime.clusterNames()).toEqual(['local']);
    expect(await runtime.cluster('local')).toBe(local);
    await expect(runtime.cluster('other')).rejects.toThrow(
      new UnknownClusterError('other', 'the embedded default serves only "local"'),
    );
  });

  it('serves more clusters, each under its own name, in the order given', async () => {
    const [a, b, c] = ['fleet-0', 'fleet-1', 'fleet-2'].map(clusterNamed);
    const runtime = embeddedRuntime({ ...adapters, cluster: a, moreClusters: [b, c] });
    expect(await runtime.clusterNames()).toEqual(['fleet-0', 'fleet-1', 'fleet-2']);
    expect(await runtime.cluster('fleet-2')).toBe(c);
    expect(await runtime.cluster('fleet-0')).toBe(a);
    await expect(runtime.cluster('fleet-3')).rejects.toThrow(
      'cluster "fleet-3" is not registered (the embedded default serves 3 clusters, not this one)',
    );
  });

  it('refuses two clusters of one name', () => {
    expect(() =>
      embeddedRuntime({ ...adapters, cluster: clusterNamed('x'), moreClusters: [clusterNamed('x')] }),
    ).toThrow('embedded runtime: cluster name "x" given twice');
  });
});
