/**
 * The target's pods and replicas for StatefulSet and Advanced StatefulSet targets (OpenKruise v1.9.0's
 * `GetPodsForRef`: the pods the StatefulSet controls), the nodes read for pods the WorkloadSpread did not place, and
 * no deletion cost for a StatefulSet's pods (`isEffectiveKindForDeletionCost`).
 */
import type { Pod } from '../../../../lib/api/types.js';
import { planWorkloadSpread } from '../../../../lib/controllers/workloadspread/plan/index.js';
import { readTargets } from '../../../../lib/controllers/workloadspread/targets.js';
import type { Resource } from '../../../../lib/kube/resource.js';
import type { KubeClient } from '../../../../lib/kube/types.js';
import { workloadSpread } from './fixtures.js';

const stsPod = (name: string, ownerUid: string, group: string, annotated: boolean): Pod => ({
  metadata: {
    name,
    namespace: 'ns',
    labels: { app: 'web' },
    ownerReferences: [
      { apiVersion: `${group}/v1`, kind: 'StatefulSet', name: 'web', uid: ownerUid, controller: true },
    ],
    ...(annotated
      ? { annotations: { 'apps.kruise.io/matched-workloadspread': '{"name":"ws-a","subset":"zone-a"}' } }
      : {}),
  },
  spec: { containers: [], nodeName: 'n1' },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
});

function fakeKube(objects: Record<string, unknown>, pods: Pod[], gets: string[]) {
  return {
    get: (r: Resource, ref: { name: string }) => {
      gets.push(`${r.group}/${r.plural}/${ref.name}`);
      return Promise.resolve(objects[`${r.group}/${r.plural}/${ref.name}`]);
    },
    list: () => Promise.resolve({ items: pods, resourceVersion: '1' }),
  } as unknown as Pick<KubeClient, 'get' | 'list'>;
}

const sts = (group: string, uid: string) => ({
  metadata: { name: 'web', namespace: 'ns', uid },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } },
});

describe('readTargets for StatefulSets', () => {
  it('an apps/v1 StatefulSet: its own pods (not the Advanced one’s), its replicas, versionIgnored, and the node of the pod not placed', async () => {
    const pods = [
      stsPod('web-0', 's1', 'apps', true),
      stsPod('web-1', 's1', 'apps', false),
      stsPod('x-0', 'k1', 'apps.kruise.io', false),
    ];
    const gets: string[] = [];
    const kube = fakeKube(
      { 'apps/statefulsets/web': sts('apps', 's1'), '/nodes/n1': { metadata: { name: 'n1' } } },
      pods,
      gets,
    );
    const ws = workloadSpread();
    ws.spec.targetRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web' };
    const read = await readTargets(kube, ws);
    expect(read.pods.map((p) => p.metadata.name)).toEqual(['web-0', 'web-1']);
    expect([read.replicas, read.latestVersion, read.kind]).toEqual([2, 'versionIgnored', 'StatefulSet']);
    expect([...(read.nodes?.keys() ?? [])]).toEqual(['n1']);
    expect(gets).toEqual(['apps/statefulsets/web', '/configmaps/kruise-configuration', '/nodes/n1']);
  });

  it('an Advanced StatefulSet named through v1alpha1 is read as v1beta1 statefulsets of apps.kruise.io', async () => {
    const gets: string[] = [];
    const kube = fakeKube(
      { 'apps.kruise.io/statefulsets/web': sts('apps.kruise.io', 'k1') },
      [stsPod('web-0', 'k1', 'apps.kruise.io', true)],
      gets,
    );
    const ws = workloadSpread();
    ws.spec.targetRef = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'StatefulSet', name: 'web' };
    const read = await readTargets(kube, ws);
    expect([read.pods.length, read.kind]).toEqual([1, 'AdvancedStatefulSet']);
    expect(gets).toEqual(['apps.kruise.io/statefulsets/web', '/configmaps/kruise-configuration']);
  });

  it('a StatefulSet being deleted has no pods and 0 replicas', async () => {
    const target = {
      ...sts('apps', 's1'),
      metadata: { ...sts('apps', 's1').metadata, deletionTimestamp: '2026-12-04T07:00:00Z' },
    };
    const kube = fakeKube({ 'apps/statefulsets/web': target }, [stsPod('web-0', 's1', 'apps', true)], []);
    const ws = workloadSpread();
    ws.spec.targetRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web' };
    expect(await readTargets(kube, ws)).toEqual({
      pods: [],
      replicas: 0,
      latestVersion: 'versionIgnored',
      kind: 'StatefulSet',
    });
  });

  it('a StatefulSet’s pods get no deletion cost, even over a maximum; the status counts them', () => {
    const ws = workloadSpread();
    ws.spec.targetRef = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web' };
    ws.spec.subsets[0] = { ...ws.spec.subsets[0], maxReplicas: 1 };
    const pods = [
      stsPod('web-0', 'k1', 'apps.kruise.io', true),
      stsPod('web-1', 'k1', 'apps.kruise.io', true),
    ];
    const plan = planWorkloadSpread(
      ws,
      { pods, replicas: 2, latestVersion: 'versionIgnored' },
      Date.parse('2026-12-04T07:30:00Z'),
    );
    expect(plan.deletionCosts).toEqual([]);
    expect(plan.status.subsetStatuses).toEqual([
      { name: 'zone-a', replicas: 2, missingReplicas: 0 },
      { name: 'zone-b', replicas: 0, missingReplicas: -1 },
    ]);
  });
});
