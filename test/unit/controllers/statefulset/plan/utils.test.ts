import type { Pod } from '../../../../../lib/api/types.js';
import type { StatefulSet } from '../../../../../lib/controllers/statefulset/api/types.js';
import { isCurrentRevisionNeeded } from '../../../../../lib/controllers/statefulset/plan/newPod.js';
import { ordinalRange, parentAndOrdinal } from '../../../../../lib/controllers/statefulset/plan/ordinals.js';
import { podsToUpdate } from '../../../../../lib/controllers/statefulset/plan/update.js';

const at = (revision: string, extra: Record<string, string> = {}): Pod => ({
  metadata: { labels: { 'controller-revision-hash': revision, ...extra } },
  spec: { containers: [] },
});

const named = (start: number, size: number, revision: string): Pod[] =>
  Array.from({ length: size }, (_, i) => ({
    metadata: { name: `ss-${start + i}`, labels: { 'controller-revision-hash': revision } },
    spec: { containers: [] },
  }));

function sts(spec: Partial<StatefulSet['spec']>): StatefulSet {
  return { metadata: { name: 'ss' }, spec: { template: { spec: { containers: [] } }, ...spec } };
}

const weights = {
  weightPriority: [
    { weight: 20, matchSelector: { matchLabels: { k: 'v1' } } },
    { weight: 10, matchSelector: { matchLabels: { k: 'v2' } } },
  ],
};

describe('podsToUpdate (upstream TestSortPodsToUpdate)', () => {
  test.each<[string, StatefulSet, (Pod | undefined)[], number[]]>([
    ['no strategy: highest first', sts({ replicas: 3 }), [at('r0'), at('r0'), at('r0')], [2, 1, 0]],
    [
      'unordered with priority, partition 6 of 10: updated ones first, then by weight',
      sts({
        replicas: 10,
        updateStrategy: { rollingUpdate: { partition: 6, unorderedUpdate: { priorityStrategy: weights } } },
      }),
      [...Array.from({ length: 6 }, () => at('r0')), at('r1'), at('r1'), at('r0'), at('r0')],
      [7, 6, 9, 8],
    ],
    [
      'no strategy, some updated: still highest first',
      sts({ replicas: 3 }),
      [at('r1'), at('r1'), at('r0')],
      [2, 1, 0],
    ],
    [
      'partition 2 with reserved slots counts pods',
      sts({ replicas: 3, updateStrategy: { rollingUpdate: { partition: 2 } } }),
      [at('r0'), undefined, at('r0'), undefined, at('r0')],
      [4],
    ],
    [
      'unordered with priority and reserved slots',
      sts({
        replicas: 10,
        updateStrategy: { rollingUpdate: { partition: 6, unorderedUpdate: { priorityStrategy: weights } } },
      }),
      [
        at('r0'),
        at('r0'),
        at('r0'),
        undefined,
        at('r0'),
        at('r0'),
        at('r0'),
        at('r1'),
        at('r1'),
        at('r0'),
        undefined,
        at('r0'),
      ],
      [8, 7, 11, 9],
    ],
  ])('%s', (_name, set, replicas, expected) => {
    expect(podsToUpdate(set, 'r1', replicas)).toEqual(expected);
  });
});

describe('ordinalRange (upstream TestGetStatefulSetReplicasRange, gate StatefulSetStartOrdinal on)', () => {
  test.each<[number, number, number]>([
    [0, 0, 6],
    [2, 2, 7],
    [3, 3, 8],
    [4, 4, 8],
  ])('start %i with reserveOrdinals 1 and 3: [%i, %i)', (start, from, to) => {
    const r = ordinalRange(sts({ replicas: 4, reserveOrdinals: [1, 3], ordinals: { start } }), true);
    expect([r.start, r.end, [...r.reserved]]).toEqual([from, to, [1, 3]]);
  });

  test('an invalid range makes the whole reserved set empty, as upstream', () => {
    const r = ordinalRange(sts({ replicas: 2, reserveOrdinals: [0, '3-1'] }), false);
    expect([r.start, r.end, [...r.reserved]]).toEqual([0, 2, []]);
  });
});

describe('parentAndOrdinal (upstream TestGetParentNameAndOrdinal)', () => {
  test.each<[string, string, number]>([
    ['web-0', 'web', 0],
    ['my-web-12', 'my-web', 12],
    ['web', '', -1],
    ['web-99999999999', 'web', -1],
  ])('%s → %s, %i', (name, parent, ordinal) => {
    expect(parentAndOrdinal(name)).toEqual({ parent, ordinal });
  });
});

describe('isCurrentRevisionNeeded (upstream TestIsCurrentRevisionNeeded)', () => {
  const rolling = (partition?: number, unordered = false): StatefulSet['spec']['updateStrategy'] => ({
    type: 'RollingUpdate',
    ...(partition === undefined
      ? {}
      : { rollingUpdate: { partition, ...(unordered ? { unorderedUpdate: {} } : {}) } }),
  });
  test.each<[string, StatefulSet['spec']['updateStrategy'], number, number, number, Pod[], boolean]>([
    [
      'start 0, no partition, 0 and 2 current',
      rolling(),
      0,
      2,
      1,
      [...named(0, 1, '1'), ...named(2, 1, '1')],
      true,
    ],
    [
      'start 0, no partition, 2 updated',
      rolling(),
      0,
      1,
      1,
      [...named(0, 1, '1'), ...named(2, 1, '2')],
      false,
    ],
    [
      'start 0, partition 1, 0 and 2 current',
      rolling(1),
      0,
      2,
      1,
      [...named(0, 1, '1'), ...named(2, 1, '1')],
      false,
    ],
    ['start 0, partition 1, create 0', rolling(1), 0, 0, 0, named(1, 2, '1'), true],
    [
      'start 2, no partition, 2 and 4 current',
      rolling(),
      2,
      2,
      3,
      [...named(2, 1, '1'), ...named(4, 1, '1')],
      true,
    ],
    [
      'start 2, no partition, 4 updated',
      rolling(),
      2,
      1,
      3,
      [...named(2, 1, '1'), ...named(4, 1, '2')],
      false,
    ],
    ['start 2, partition 1, create 2', rolling(1), 2, 2, 2, named(3, 2, '1'), true],
    [
      'unordered, partition 1, 2 updated',
      rolling(1, true),
      0,
      1,
      1,
      [...named(0, 1, '1'), ...named(2, 1, '2')],
      false,
    ],
    ['OnDelete never', { type: 'OnDelete' }, 0, 3, 0, [], false],
  ])('%s', (_name, updateStrategy, start, currentReplicas, ordinal, replicas, expected) => {
    const set = sts({ replicas: 3, updateStrategy, ordinals: { start } });
    expect(isCurrentRevisionNeeded(set, '2', ordinal, replicas, start, currentReplicas)).toBe(expected);
  });
});
