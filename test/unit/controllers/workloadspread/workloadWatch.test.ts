/**
 * The WorkloadSpread controller's workload watches (lib/controllers/workloadspread/workloadWatch.ts), as OpenKruise
 * v1.9.0's `workloadEventHandler`: a target created, deleted or with an unobserved spec change names the first
 * WorkloadSpread, not being deleted, whose targetRef has its group, Kind and name; a relisted one or a status-only
 * change names nothing and lists nothing; and the watches share the streams the other controllers follow.
 */
import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../../../lib/api/types.js';
import { CONTROLLER_KINDS } from '../../../../lib/controllers/kinds.js';
import { workloadSpreadsForWorkload } from '../../../../lib/controllers/workloadspread/workloadWatch.js';
import type { KubeObject, Listed } from '../../../../lib/kube/types.js';
import { watchStreams } from '../../../../lib/source/watchSpec.js';
import { workloadSpread } from './fixtures.js';

const spreads = [
  workloadSpread({ metadata: { name: 'gone', namespace: 'ns', deletionTimestamp: '2026-12-07T00:00:00Z' } }),
  workloadSpread({ metadata: { name: 'ws-a', namespace: 'ns' } }),
  workloadSpread({ metadata: { name: 'ws-b', namespace: 'ns' } }),
  (() => {
    const ws = workloadSpread({ metadata: { name: 'ws-sts', namespace: 'ns' } });
    ws.spec.targetRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' };
    return ws;
  })(),
];
const listed: string[] = [];
const reads = {
  cluster: 'c1',
  kube: {
    list: <T extends KubeObject>(r: { plural: string }, o?: { namespace?: string }): Promise<Listed<T>> => {
      listed.push(`${r.plural} ${o?.namespace ?? ''}`);
      return Promise.resolve({ items: spreads as unknown as T[], resourceVersion: '1' });
    },
    get: () => Promise.reject(new Error('no get expected')),
    serverResources: () => Promise.reject(new Error('no discovery expected')),
    getScale: () => Promise.reject(new Error('no scale expected')),
  },
};
const workload = (name: string, generation: number, observed: number) =>
  ({
    metadata: { name, namespace: 'ns', generation },
    spec: { replicas: 3 },
    status: { observedGeneration: observed },
  }) as unknown as JsonObject;

describe('workloadSpreadsForWorkload', () => {
  it('a CloneSet created or scaled names the first live WorkloadSpread targeting it; a status write names none', async () => {
    listed.length = 0;
    const cloneSet = workloadSpreadsForWorkload('CloneSet');
    await expect(cloneSet(workload('web', 1, 0), reads, 'ADDED')).resolves.toEqual([
      { namespace: 'ns', name: 'ws-a' },
    ]);
    await expect(cloneSet(workload('web', 2, 1), reads, 'MODIFIED')).resolves.toEqual([
      { namespace: 'ns', name: 'ws-a' },
    ]);
    await expect(cloneSet(workload('web', 2, 2), reads, 'MODIFIED')).resolves.toEqual([]);
    await expect(cloneSet(workload('web', 2, 1), reads, 'LISTED')).resolves.toEqual([]);
    await expect(cloneSet(workload('other', 1, 0), reads, 'DELETED')).resolves.toEqual([]);
    expect(listed).toEqual(['workloadspreads ns', 'workloadspreads ns', 'workloadspreads ns']);
  });

  it('a StatefulSet by its group: apps/v1 names the WorkloadSpread of apps/v1, an Advanced one of the same name none', async () => {
    await expect(
      workloadSpreadsForWorkload('StatefulSet')(workload('db', 1, 0), reads, 'ADDED'),
    ).resolves.toEqual([{ namespace: 'ns', name: 'ws-sts' }]);
    await expect(
      workloadSpreadsForWorkload('AdvancedStatefulSet')(workload('db', 1, 0), reads, 'ADDED'),
    ).resolves.toEqual([]);
  });

  it('adds no stream: the CloneSet, Deployment and StatefulSet streams are the ones other controllers follow', () => {
    const streams = watchStreams(CONTROLLER_KINDS);
    const consumers = (plural: string, group: string) =>
      streams
        .filter((s) => s.watched.plural === plural && s.watched.group === group)
        .map((s) => s.consumers.map((c) => c.controller.kind));
    for (const [plural, group] of [
      ['clonesets', 'apps.kruise.io'],
      ['deployments', 'apps'],
      ['statefulsets', 'apps'],
      ['statefulsets', 'apps.kruise.io'],
    ])
      expect(consumers(plural, group)).toEqual([expect.arrayContaining(['apps.kruise.io/WorkloadSpread'])]);
  });
});
