/**
 * The controller's status and deletion costs against OpenKruise v1.9.0's `calculateWorkloadSpreadStatus` and
 * `updateDeletionCost` (pkg/controller/workloadspread): replicas and missingReplicas per subset, a creating record
 * ended by its pod or kept until 30 s, a deleting record kept until 15 s, the fake subset, and the deletion cost of
 * pods within and over their subset's maximum.
 */
import type { Pod } from '../../../../../lib/api/types.js';
import { planWorkloadSpread } from '../../../../../lib/controllers/workloadspread/plan/index.js';
import { pod, workloadSpread } from '../fixtures.js';

const NOW = Date.parse('2026-12-04T07:30:00Z');
const target = (pods: Pod[], replicas = 3) => ({ pods, replicas, latestVersion: 'versionIgnored' });

describe('planWorkloadSpread', () => {
  it('three pods over zone-a (max 2) and zone-b: replicas, missing replicas, and no record left', () => {
    const ws = workloadSpread({
      status: {
        versionedSubsetStatuses: {
          versionIgnored: [
            {
              name: 'zone-a',
              replicas: 0,
              missingReplicas: 0,
              creatingPods: { p1: '2026-12-04T07:29:50Z', p2: '2026-12-04T07:29:51Z' },
            },
            { name: 'zone-b', replicas: 0, missingReplicas: -1 },
          ],
        },
      },
    });
    const plan = planWorkloadSpread(
      ws,
      target([pod('p1', 'zone-a'), pod('p2', 'zone-a'), pod('p3', 'zone-b')]),
      NOW,
    );
    const statuses = [
      { name: 'zone-a', replicas: 2, missingReplicas: 0 },
      { name: 'zone-b', replicas: 1, missingReplicas: -1 },
    ];
    expect(plan).toEqual({
      adoptions: [],
      deletionCosts: [
        { pod: 'p1', cost: '200' },
        { pod: 'p2', cost: '200' },
        { pod: 'p3', cost: '100' },
      ],
      status: {
        observedGeneration: 1,
        subsetStatuses: statuses,
        versionedSubsetStatuses: { versionIgnored: statuses },
      },
      changed: true,
      events: [],
      unschedulable: [],
    });
  });

  it('a creating record without its pod is kept until 30 s and counted; a deleting one until 15 s: 2 - 1 active + 1 deleting - 1 creating = 1 missing', () => {
    const ws = workloadSpread({
      status: {
        versionedSubsetStatuses: {
          versionIgnored: [
            {
              name: 'zone-a',
              replicas: 1,
              missingReplicas: 0,
              creatingPods: { p9: '2026-12-04T07:29:40Z', old: '2026-12-04T07:29:00Z' },
              deletingPods: { p1: '2026-12-04T07:29:55Z' },
            },
            { name: 'zone-b', replicas: 0, missingReplicas: -1 },
          ],
        },
      },
    });
    const plan = planWorkloadSpread(ws, target([pod('p1', 'zone-a')]), NOW);
    expect(plan.status.versionedSubsetStatuses).toEqual({
      versionIgnored: [
        {
          name: 'zone-a',
          replicas: 1,
          missingReplicas: 1,
          creatingPods: { p9: '2026-12-04T07:29:40Z' },
          deletingPods: { p1: '2026-12-04T07:29:55Z' },
        },
        { name: 'zone-b', replicas: 0, missingReplicas: -1 },
      ],
    });
    expect(plan.events).toEqual([
      {
        type: 'Warning',
        reason: 'CreatePodFailed',
        message: "Pod ns/old was expected to be created but it wasn't",
      },
    ]);
    expect(plan.recheckAfterMs).toBe(10_000);
  });

  it('zone-a over its maximum: the least valuable pod (not ready) costs -100, the others 200; a pod of no subset -300', () => {
    const notReady = pod('p3', 'zone-a');
    notReady.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] };
    const stray = pod('p4');
    const plan = planWorkloadSpread(
      workloadSpread(),
      target([pod('p1', 'zone-a'), pod('p2', 'zone-a'), notReady, stray], 4),
      NOW,
    );
    expect(plan.deletionCosts).toEqual([
      { pod: 'p1', cost: '200' },
      { pod: 'p2', cost: '200' },
      { pod: 'p3', cost: '-100' },
      { pod: 'p4', cost: '-300' },
    ]);
  });

  it('a pod whose cost is already right is not patched, and an unchanged status is not written', () => {
    const statuses = [
      { name: 'zone-a', replicas: 1, missingReplicas: 1 },
      { name: 'zone-b', replicas: 0, missingReplicas: -1 },
    ];
    const ws = workloadSpread({
      status: {
        observedGeneration: 1,
        subsetStatuses: statuses,
        versionedSubsetStatuses: { versionIgnored: statuses },
      },
    });
    const p = pod('p1', 'zone-a', {});
    p.metadata.annotations = {
      ...p.metadata.annotations,
      'controller.kubernetes.io/pod-deletion-cost': '200',
    };
    expect(planWorkloadSpread(ws, target([p]), NOW)).toEqual({
      adoptions: [],
      deletionCosts: [],
      status: ws.status,
      changed: false,
      events: [],
      unschedulable: [],
    });
  });
});
