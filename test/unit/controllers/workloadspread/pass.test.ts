/**
 * One reconcile pass against a recording client, in OpenKruise v1.9.0's `syncWorkloadSpread` order: the pods created
 * before the WorkloadSpread are read with their node, patched into their subset first, then the deletion costs, then
 * the status through the status subresource.
 */
import type { Pod } from '../../../../lib/api/types.js';
import { silentLogger } from '../../../../lib/core/logger.js';
import { runPass } from '../../../../lib/controllers/workloadspread/pass.js';
import type { Resource } from '../../../../lib/kube/resource.js';
import type { KubeClient } from '../../../../lib/kube/types.js';
import type { Lease } from '../../../../lib/state/index.js';
import { pod, workloadSpread } from './fixtures.js';

describe('runPass', () => {
  it('patches the subset of a pod created before the WorkloadSpread, then its deletion cost, then writes the status', async () => {
    const calls: string[] = [];
    const ws = workloadSpread();
    const cloneSet = {
      metadata: { name: 'web', namespace: 'ns', uid: 'cs-uid' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } },
    };
    const pods: Pod[] = [pod('p1', 'zone-a'), pod('p2')];
    const objects: Record<string, unknown> = {
      'apps.kruise.io/workloadspreads/ws-a': ws,
      'apps.kruise.io/clonesets/web': cloneSet,
      '/nodes/node-1': { metadata: { name: 'node-1', labels: { zone: 'a' } } },
    };
    const kube = {
      get: (r: Resource, ref: { name: string }) => {
        calls.push(`get ${r.plural}/${ref.name}`);
        return Promise.resolve(objects[`${r.group}/${r.plural}/${ref.name}`]);
      },
      list: (r: Resource) => {
        calls.push(`list ${r.plural}`);
        return Promise.resolve({ items: pods, resourceVersion: '1' });
      },
      patch: (r: Resource, ref: { name: string }, p: { body: unknown }) => {
        calls.push(`patch ${r.plural}/${ref.name} ${JSON.stringify(p.body)}`);
        return Promise.resolve({});
      },
      replace: (r: Resource, o: { status: unknown }) => {
        calls.push(`replace ${r.plural} ${JSON.stringify(o.status)}`);
        return Promise.resolve(o);
      },
    } as unknown as KubeClient;
    const result = await runPass(
      { kube, log: silentLogger, clock: () => Date.parse('2026-12-04T07:30:00Z') },
      { cluster: 'c', kind: 'apps.kruise.io/WorkloadSpread', namespace: 'ns', name: 'ws-a' },
      {} as Lease,
      new Set(),
    );
    expect(result.writes).toBe(4);
    const annotation = JSON.stringify({ name: 'ws-a', subset: 'zone-a' });
    const statuses = [
      { name: 'zone-a', replicas: 2, missingReplicas: 0 },
      { name: 'zone-b', replicas: 0, missingReplicas: -1 },
    ];
    expect(calls).toEqual([
      'get workloadspreads/ws-a',
      'get clonesets/web',
      'list pods',
      'get nodes/node-1',
      `patch pods/p2 ${JSON.stringify({ metadata: { annotations: { 'apps.kruise.io/matched-workloadspread': annotation } } })}`,
      'patch pods/p1 {"metadata":{"annotations":{"controller.kubernetes.io/pod-deletion-cost":"200"}}}',
      'patch pods/p2 {"metadata":{"annotations":{"controller.kubernetes.io/pod-deletion-cost":"200"}}}',
      `replace workloadspreads ${JSON.stringify({ observedGeneration: 1, subsetStatuses: statuses, versionedSubsetStatuses: { versionIgnored: statuses } })}`,
    ]);
  });
});
