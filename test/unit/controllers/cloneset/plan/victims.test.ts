/**
 * Scale-in victim ordering (docs/behaviour/cloneset.md#scale-in-victims): TestSortingActivePods /
 * TestSameNodeRanker / TestSpreadConstraintsRanker (scenario 59, docs/behaviour/scenarios.md#s59) and the
 * field case C18.
 */
import type { Pod } from '../../../../../lib/api/types.js';
import {
  chooseScaleDownVictims,
  sameNodeRanks,
  sortForDeletion,
  spreadRanks,
  type NodeLabels,
} from '../../../../../lib/controllers/cloneset/plan/sync/victims.js';
import { comparePodsForDeletion } from '../../../../../lib/podset/podOrder.js';
import { scalePhaseIsUpdated } from '../../../../../lib/controllers/cloneset/plan/sync/diff.js';
import { cloneSet, named, NEW_REV, NOW, OLD_REV, P, phaseContext } from '../../../support/fixtures.js';

const now = NOW.toISOString();
const then = new Date(NOW.getTime() - 30 * 24 * 3600 * 1000).toISOString();

function sorterPod(
  name: string,
  nodeName: string,
  phase: string,
  ready: boolean,
  restarts = 0,
  readySince = '',
  created = '',
  annotations?: Record<string, string>,
): Pod {
  return {
    metadata: {
      name,
      ...(created ? { creationTimestamp: created } : {}),
      ...(annotations ? { annotations } : {}),
    },
    spec: { containers: [], ...(nodeName ? { nodeName } : {}) },
    status: {
      phase,
      ...(ready
        ? {
            conditions: [
              { type: 'Ready', status: 'True', ...(readySince ? { lastTransitionTime: readySince } : {}) },
            ],
            containerStatuses: [{ name: 'c', image: 'i', imageID: '', ready: true, restartCount: restarts }],
          }
        : {}),
    },
  };
}

describe('comparePodsForDeletion (scenario 59, docs/behaviour/scenarios.md#s59, TestSortingActivePods)', () => {
  const unscheduled = sorterPod('unscheduled', '', 'Pending', false);
  const pending = sorterPod('pending', 'node', 'Pending', false);
  const unknown = sorterPod('unknown-phase', 'node', 'Unknown', false);
  const notReady = sorterPod('not-ready', 'node', 'Running', false);
  const readyZero = sorterPod('ready-no-last-transition-time', 'node', 'Running', true);
  const readyNow = sorterPod('ready-now', 'node', 'Running', true, 0, now, now);
  const readyThen = sorterPod('ready-then', 'node', 'Running', true, 0, then, then);
  const highRestarts = sorterPod('ready-high-restarts', 'node', 'Running', true, 9001, now, now);
  const createdThen = sorterPod('ready-now-created-then', 'node', 'Running', true, 0, now, then);
  const lowCost = sorterPod('low-deletion-cost', 'node', 'Running', true, 0, now, then, {
    'controller.kubernetes.io/pod-deletion-cost': '10',
  });
  const highCost = sorterPod('high-deletion-cost', 'node', 'Running', true, 0, now, then, {
    'controller.kubernetes.io/pod-deletion-cost': '100',
  });

  it.each([unscheduled, pending, unknown, notReady, createdThen, readyNow, readyThen, highRestarts])(
    'a pod is not less than itself ($metadata.name)',
    (p) => expect(comparePodsForDeletion(p, p)).toBe(0),
  );

  it.each([
    [unscheduled, pending],
    [pending, unknown],
    [unknown, notReady],
    [notReady, readyZero],
    [readyZero, readyNow],
    [readyNow, readyThen],
    [highRestarts, readyNow],
    [readyNow, createdThen],
    [lowCost, highCost],
  ])('%p goes before %p', (lesser, greater) => {
    expect(comparePodsForDeletion(lesser, greater)).toBeLessThan(0);
    expect(comparePodsForDeletion(greater, lesser)).toBeGreaterThan(0);
  });

  it('strict order, victim first', () => {
    const shuffled = [
      highCost,
      readyThen,
      createdThen,
      readyNow,
      lowCost,
      readyZero,
      notReady,
      unknown,
      pending,
      unscheduled,
    ];
    const ctx = phaseContext(cloneSet(1), []);
    expect(sortForDeletion(ctx, shuffled).map((p) => p.metadata.name)).toEqual([
      'unscheduled',
      'pending',
      'unknown-phase',
      'not-ready',
      'ready-no-last-transition-time',
      'ready-now',
      'ready-now-created-then',
      'ready-then',
      'low-deletion-cost',
      'high-deletion-cost',
    ]);
  });

  it('ranks zero for ready: unavailable (minReadySeconds) goes before available', () => {
    const available = (p: Pod) => p.metadata.name === 'b';
    const a = sorterPod('a', 'n', 'Running', true, 0, now);
    const b = sorterPod('b', 'n', 'Running', true, 0, then);
    expect(comparePodsForDeletion(b, a, { available })).toBeGreaterThan(0);
    expect(comparePodsForDeletion(a, b, { available })).toBeLessThan(0);
  });

  it('a higher rank goes first', () => {
    const a = sorterPod('a', 'n', 'Running', false);
    const b = sorterPod('b', 'n', 'Running', false);
    const ranks = new Map([[b, 1]]);
    expect(comparePodsForDeletion(a, b, { ranks })).toBeGreaterThan(0);
  });
});

describe('sameNodeRanks (TestSameNodeRanker)', () => {
  it('nodes a:{0,4,10}, b:{3,6}, c:{5}, d:{7,8,9} → ranks {0:2, 4:1, 3:1, 7:2, 8:1}', () => {
    const nodes = ['a', '', '', 'b', 'a', 'c', 'b', 'd', 'd', 'd', 'a'];
    const pods = nodes.map((n, i) => sorterPod(String(i), n, '', false));
    const ranks = sameNodeRanks(pods);
    const got = Object.fromEntries([...ranks].map(([p, r]) => [p.metadata.name, r]));
    expect(got).toEqual({ '0': 2, '4': 1, '3': 1, '7': 2, '8': 1 });
  });
});

describe('spreadRanks (TestSpreadConstraintsRanker)', () => {
  const zone = 'failure-domain.beta.kubernetes.io/zone';
  const host = 'kubernetes.io/hostname';
  const nodeLabels: NodeLabels = { a: {} };
  for (const [n, z] of [
    ['b', 'z1'],
    ['c', 'z1'],
    ['d', 'z1'],
    ['e', 'z2'],
    ['f', 'z2'],
    ['g', 'z2'],
    ['h', 'z3'],
    ['i', 'z3'],
  ]) {
    nodeLabels[n] = { [host]: n, [zone]: z };
  }
  const pods = (
    [
      ['a', 2],
      ['b', 2],
      ['c', 3],
      ['d', 5],
      ['e', 5],
      ['f', 3],
      ['i', 5],
    ] as [string, number][]
  ).flatMap(([node, n]) => Array.from({ length: n }, (_, i) => sorterPod(`${node}-${i}`, node, '', false)));
  const order = (keys: string[]) => {
    const ranks = spreadRanks(pods, keys, nodeLabels);
    return pods
      .filter((p) => (ranks.get(p) ?? 0) > 0)
      .map((p, i) => ({ p, i, r: ranks.get(p) ?? 0 }))
      .sort((x, y) => y.r - x.r || x.i - y.i)
      .map(({ p }) => p.metadata.name);
  };

  it('zone{no limit}', () => {
    expect(order([zone])).toEqual([
      'd-0',
      'd-1',
      'c-0',
      'e-0',
      'd-2',
      'e-1',
      'b-0',
      'e-2',
      'c-1',
      'f-0',
      'i-0',
      'd-3',
      'e-3',
      'i-1',
      'b-1',
      'f-1',
      'i-2',
      'c-2',
      'e-4',
      'i-3',
      'd-4',
      'f-2',
      'i-4',
    ]);
  });

  it('zone{no limit}, host', () => {
    expect(order([zone, host])).toEqual([
      'd-0',
      'e-0',
      'd-1',
      'e-1',
      'c-0',
      'i-0',
      'd-2',
      'e-2',
      'i-1',
      'f-0',
      'b-0',
      'c-1',
      'i-2',
      'd-3',
      'e-3',
      'f-1',
      'i-3',
      'b-1',
      'c-2',
      'e-4',
      'd-4',
      'f-2',
      'i-4',
    ]);
  });

  it('sortForDeletion uses the spread ranker only with topologySpreadConstraints and node labels', () => {
    const cs = cloneSet(1);
    cs.spec.template.spec.topologySpreadConstraints = [{ topologyKey: zone }];
    const ctx = phaseContext(cs, pods);
    expect(sortForDeletion(ctx, pods, nodeLabels)[0].metadata.name).toBe('d-0');
    // without node labels: same-node ranker (d, e and i host 5 pods each → their first pods rank 4)
    expect(sortForDeletion(ctx, pods)[0].metadata.name).toBe('d-0');
    expect(
      sortForDeletion(ctx, pods)
        .slice(1, 3)
        .map((p) => p.metadata.name),
    ).toEqual(['e-0', 'i-0']);
  });
});

describe('chooseScaleDownVictims (docs/behaviour/cloneset.md#scale-in-victims)', () => {
  const pods = named([
    P(OLD_REV, 'Normal', true, false, { nodeName: 'n1' }),
    P(OLD_REV, 'Normal', false, false, { nodeName: 'n1' }),
    P(NEW_REV, 'Normal', true, false, { nodeName: 'n2' }),
    P(NEW_REV, 'Normal', false, false, { nodeName: 'n3' }),
    P(OLD_REV, 'PreparingUpdate', true, false, { nodeName: 'n2' }),
  ]);
  const ctx = phaseContext(cloneSet(2), pods);
  const isUpdated = scalePhaseIsUpdated(ctx);
  const names = (ps: Pod[]) => ps.map((p) => p.metadata.name);

  it('takes all from not-updated pods when scaleDownNumOld ≥ scaleDownNum', () => {
    expect(names(chooseScaleDownVictims(ctx, pods, 1, 2, isUpdated))).toEqual(['pod-1']);
    expect(names(chooseScaleDownVictims(ctx, pods, 2, 2, isUpdated))).toEqual(['pod-0', 'pod-1']);
  });

  it('splits between groups when 0 < scaleDownNumOld < scaleDownNum (PreparingUpdate counts as updated and is unavailable)', () => {
    expect(names(chooseScaleDownVictims(ctx, pods, 3, 1, isUpdated))).toEqual(['pod-1', 'pod-3', 'pod-4']);
  });

  it('takes the whole group when the count exceeds it, and only updated pods when scaleDownNumOld is 0', () => {
    expect(names(chooseScaleDownVictims(ctx, pods, 4, 0, isUpdated))).toEqual(['pod-2', 'pod-3', 'pod-4']);
  });
});

describe('C18: which pod is deleted first', () => {
  it('scale 4 → 2 deletes sample-a (unassigned) then sample-c (no cost, Ready for less time)', () => {
    const ago = (s: number) => new Date(NOW.getTime() - s * 1000).toISOString();
    const pods = [
      P(NEW_REV, 'Normal', false, false, { name: 'sample-a', phase: 'Pending' }),
      P(NEW_REV, 'Normal', true, false, {
        name: 'sample-b',
        nodeName: 'node-1',
        readySince: ago(3600),
        annotations: { 'controller.kubernetes.io/pod-deletion-cost': '100' },
      }),
      P(NEW_REV, 'Normal', true, false, { name: 'sample-c', nodeName: 'node-2', readySince: ago(300) }),
      P(NEW_REV, 'Normal', true, false, { name: 'sample-d', nodeName: 'node-3', readySince: ago(7200) }),
    ];
    const ctx = phaseContext(cloneSet(2), pods, { current: NEW_REV });
    expect(
      chooseScaleDownVictims(ctx, pods, 2, 0, scalePhaseIsUpdated(ctx)).map((p) => p.metadata.name),
    ).toEqual(['sample-a', 'sample-c']);
  });
});
