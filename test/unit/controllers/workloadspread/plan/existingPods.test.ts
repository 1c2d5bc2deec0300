/**
 * Pods created before the WorkloadSpread, against OpenKruise v1.9.0's `groupPodBySubset` /
 * `getAndUpdateSuitableSubsetName` / `matchesSubset` / `patchFavoriteSubsetMetadataToPod`: taken into the subset
 * their node fits (preferred terms, patch already applied, room left, in that order of weight), patched with the
 * annotation and the patch's metadata, then counted in the status and given deletion costs like the others.
 */
import type { Node } from '../../../../../lib/api/node.js';
import type { Pod } from '../../../../../lib/api/types.js';
import { planWorkloadSpread } from '../../../../../lib/controllers/workloadspread/plan/index.js';
import { pod, workloadSpread } from '../fixtures.js';

const NOW = Date.parse('2026-12-04T07:30:00Z');

const node = (name: string, labels: Record<string, string>, taints: Node['spec'] = {}): Node => ({
  metadata: { name, labels },
  spec: taints,
});

const nodes = new Map([
  ['na', node('na', { zone: 'a', disk: 'ssd' })],
  ['nb', node('nb', { zone: 'b' })],
  ['nt', node('nt', { zone: 'a' }, { taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] })],
]);

const on = (name: string, nodeName: string | undefined, subset?: string): Pod => {
  const p = pod(name, subset);
  p.spec = { ...p.spec, nodeName };
  return p;
};

const annotation = (subset: string) => ({
  'apps.kruise.io/matched-workloadspread': JSON.stringify({ name: 'ws-a', subset }),
});

describe('pods created before the WorkloadSpread', () => {
  it('are taken in by node, patched, counted and costed; one without a node or on a gone node stays in the fake subset', () => {
    const pods = [on('p1', 'na'), on('p2', 'nb'), on('p3', 'na'), on('p4', undefined), on('p5', 'gone')];
    const plan = planWorkloadSpread(
      workloadSpread(),
      { pods, replicas: 5, latestVersion: 'versionIgnored', nodes },
      NOW,
    );
    expect(plan.adoptions).toEqual([
      { pod: 'p1', subset: 'zone-a', patch: { metadata: { annotations: annotation('zone-a') } } },
      { pod: 'p2', subset: 'zone-b', patch: { metadata: { annotations: annotation('zone-b') } } },
      { pod: 'p3', subset: 'zone-a', patch: { metadata: { annotations: annotation('zone-a') } } },
    ]);
    expect(plan.status.subsetStatuses).toEqual([
      { name: 'zone-a', replicas: 2, missingReplicas: 0 },
      { name: 'zone-b', replicas: 1, missingReplicas: -1 },
    ]);
    expect(plan.deletionCosts).toEqual([
      { pod: 'p1', cost: '200' },
      { pod: 'p3', cost: '200' },
      { pod: 'p2', cost: '100' },
      { pod: 'p4', cost: '-300' },
      { pod: 'p5', cost: '-300' },
    ]);
  });

  it('a subset past its maximum still takes a pod its node fits (no room only lowers the score): zone-a 3 of 2, the extra costs -100', () => {
    const pods = [on('p1', 'na', 'zone-a'), on('p2', 'na', 'zone-a'), on('p3', 'na')];
    const plan = planWorkloadSpread(
      workloadSpread(),
      { pods, replicas: 3, latestVersion: 'versionIgnored', nodes },
      NOW,
    );
    expect(plan.adoptions.map((a) => a.subset)).toEqual(['zone-a']);
    expect(plan.status.subsetStatuses?.[0]).toEqual({ name: 'zone-a', replicas: 3, missingReplicas: 0 });
    expect(plan.deletionCosts.filter((c) => c.cost === '-100')).toHaveLength(1);
  });

  it('between two fitting subsets: preferred weight first, then room left', () => {
    const ws = workloadSpread();
    ws.spec.subsets = [
      { name: 'full', maxReplicas: 0 },
      { name: 'open', maxReplicas: 5 },
      {
        name: 'ssd',
        maxReplicas: 0,
        preferredNodeSelector: [
          {
            weight: 10,
            preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] },
          },
        ],
      },
    ];
    const plan = planWorkloadSpread(
      ws,
      { pods: [on('p1', 'na'), on('p2', 'nb')], replicas: 2, latestVersion: 'versionIgnored', nodes },
      NOW,
    );
    expect(plan.adoptions.map((a) => [a.pod, a.subset])).toEqual([
      ['p1', 'ssd'],
      ['p2', 'open'],
    ]);
  });

  it('a patch the pod already has scores over room left; the patch’s metadata is written unless ignore-patch-existing-pods-metadata', () => {
    const ws = workloadSpread();
    ws.spec.subsets = [
      { name: 'room', maxReplicas: 5 },
      {
        name: 'web',
        maxReplicas: 0,
        patch: { metadata: { labels: { app: 'web' }, annotations: { team: 'x' } } },
      },
    ];
    const target = { pods: [on('p1', 'nb')], replicas: 1, latestVersion: 'versionIgnored', nodes };
    expect(planWorkloadSpread(ws, target, NOW).adoptions).toEqual([
      {
        pod: 'p1',
        subset: 'web',
        patch: { metadata: { labels: { app: 'web' }, annotations: { team: 'x', ...annotation('web') } } },
      },
    ]);
    ws.metadata.annotations = { 'workloadspread.kruise.io/ignore-patch-existing-pods-metadata': 'True' };
    expect(planWorkloadSpread(ws, target, NOW).adoptions[0]?.patch).toEqual({
      metadata: { annotations: annotation('web') },
    });
  });

  it('a node taint the pod and subset do not tolerate rules the subset out; the subset’s toleration lets it in', () => {
    const ws = workloadSpread();
    const target = { pods: [on('p1', 'nt')], replicas: 1, latestVersion: 'versionIgnored', nodes };
    expect(planWorkloadSpread(ws, target, NOW).adoptions).toEqual([]);
    ws.spec.subsets[0] = { ...ws.spec.subsets[0], tolerations: [{ key: 'dedicated', operator: 'Exists' }] };
    expect(planWorkloadSpread(ws, target, NOW).adoptions.map((a) => a.subset)).toEqual(['zone-a']);
  });

  it('the pod’s own required terms are ANDed with the subset’s: a pod pinned to zone b fits no zone-a node', () => {
    const p = on('p1', 'na');
    p.spec = {
      ...p.spec,
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }],
          },
        },
      },
    };
    const plan = planWorkloadSpread(
      workloadSpread(),
      { pods: [p], replicas: 1, latestVersion: 'versionIgnored', nodes },
      NOW,
    );
    expect(plan.adoptions).toEqual([]);
  });
});
