/**
 * The PUB controller's workload watches (lib/controllers/podunavailablebudget/workloadWatch.ts): a workload created,
 * deleted or with an unobserved spec change names the PUB that covers it; a relisted one or a status-only change
 * names nothing.
 */
import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../../../lib/api/types.js';
import type { KubeObject, Listed } from '../../../../lib/kube/types.js';
import { podUnavailableBudgetKind } from '../../../../lib/controllers/podunavailablebudget/kind.js';
import { pubsForWorkload } from '../../../../lib/controllers/podunavailablebudget/workloadWatch.js';

const pubs = [
  {
    metadata: { name: 'by-ref', namespace: 'ns' },
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' }, maxUnavailable: 1 },
  },
  {
    metadata: { name: 'by-selector', namespace: 'ns' },
    spec: { selector: { matchLabels: { tier: 'front' } }, maxUnavailable: 1 },
  },
];
const listed: string[] = [];
const reads = {
  cluster: 'c1',
  kube: {
    list: <T extends KubeObject>(r: { plural: string }, o?: { namespace?: string }): Promise<Listed<T>> => {
      listed.push(`${r.plural} ${o?.namespace ?? ''}`);
      return Promise.resolve({ items: pubs as unknown as T[], resourceVersion: '1' });
    },
    get: () => Promise.reject(new Error('no get expected')),
  },
};
const workload = (name: string, generation: number, observed: number, labels: Record<string, string> = {}) =>
  ({
    metadata: { name, namespace: 'ns', generation },
    spec: { replicas: 3, template: { metadata: { labels } } },
    status: { observedGeneration: observed },
  }) as unknown as JsonObject;

describe('pubsForWorkload', () => {
  it('a Deployment scaled (generation ahead) names the PUB whose targetRef names it', async () => {
    listed.length = 0;
    await expect(pubsForWorkload('Deployment')(workload('api', 2, 1), reads, 'MODIFIED')).resolves.toEqual([
      { namespace: 'ns', name: 'by-ref' },
    ]);
    expect(listed).toEqual(['podunavailablebudgets ns']);
  });
  it("a CloneSet created names the selector PUB matching its template's labels", async () => {
    await expect(
      pubsForWorkload('CloneSet')(workload('web', 1, 0, { tier: 'front' }), reads, 'ADDED'),
    ).resolves.toEqual([{ namespace: 'ns', name: 'by-selector' }]);
  });
  it('a status-only change and a relist name nothing, with no LIST', async () => {
    listed.length = 0;
    await expect(pubsForWorkload('Deployment')(workload('api', 2, 2), reads, 'MODIFIED')).resolves.toEqual(
      [],
    );
    await expect(pubsForWorkload('Deployment')(workload('api', 2, 1), reads, 'LISTED')).resolves.toEqual([]);
    expect(listed).toEqual([]);
  });
  it('the kind watches the four workloads upstream watches', () => {
    expect(
      podUnavailableBudgetKind.watches.map((w) =>
        w.type === 'Map' ? `${w.resource.group}/${w.resource.plural}` : w.type,
      ),
    ).toEqual([
      'For',
      '/pods',
      'apps/deployments',
      'apps.kruise.io/statefulsets',
      'apps.kruise.io/clonesets',
      'apps/statefulsets',
    ]);
  });
});
