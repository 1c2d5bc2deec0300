/**
 * The update-order strategies (lib/podset/updateSort.ts, docs/behaviour/cloneset.md#update-order; OpenKruise's
 * pkg/util/updatesort): `priorityStrategy` and `scatterStrategy` on indexes into a pod list.
 */
import type { Pod, UpdatePriorityStrategy } from '../../../lib/api/types.js';
import { sortByPriority, sortByScatter } from '../../../lib/podset/updateSort.js';

const labelled = (labels: Record<string, string>): Pod => ({
  metadata: { labels },
  spec: { containers: [] },
});
const fromStrings = (specs: string[]) =>
  specs.map((s) =>
    labelled(
      Object.fromEntries(
        s
          .split(',')
          .filter((kv) => kv.includes('='))
          .map((kv) => kv.split('=') as [string, string]),
      ),
    ),
  );

describe('priorityStrategy (docs/behaviour/cloneset.md#update-order)', () => {
  it('weightPriority: higher weight sum first, stable; invalid selectors ignored', () => {
    const pods = [labelled({ a: '1' }), labelled({ b: '1' }), labelled({ a: '1', b: '1' }), labelled({})];
    const strategy: UpdatePriorityStrategy = {
      weightPriority: [
        { weight: 50, matchSelector: { matchLabels: { a: '1' } } },
        { weight: 30, matchSelector: { matchLabels: { b: '1' } } },
        { weight: 99, matchSelector: { matchExpressions: [{ key: 'x', operator: 'Bogus' }] } },
      ],
    };
    expect(sortByPriority(pods, [3, 1, 0, 2], strategy)).toEqual([2, 0, 1, 3]);
  });
  it('orderPriority: pods without keys first, then by key index, then higher trailing number', () => {
    const pods = [labelled({ k1: 'sts-1' }), labelled({ k1: 'sts-10' }), labelled({ k2: 'x' }), labelled({})];
    expect(
      sortByPriority(pods, [0, 1, 2, 3], { orderPriority: [{ orderedKey: 'k1' }, { orderedKey: 'k2' }] }),
    ).toEqual([3, 1, 0, 2]);
    expect(sortByPriority(pods, [0, 1], {})).toEqual([0, 1]);
  });
});

describe('scatterStrategy (docs/behaviour/cloneset.md#update-order, upstream TestScatterPodsByRule)', () => {
  const term = [{ key: 'labelA', value: 'AAA' }];
  const cases: [string, string[], number[]][] = [
    ['even scattered + even ordinary', ['', '', '', '', 'labelA=AAA', 'labelA=AAA'], [4, 0, 1, 2, 3, 5]],
    ['odd + odd', ['', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'], [3, 0, 1, 4, 2, 5]],
    ['even + odd', ['', '', '', 'labelA=AAA', '', '', 'labelA=AAA'], [3, 0, 1, 2, 4, 5, 6]],
    [
      'odd + even',
      ['', '', '', '', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [6, 0, 1, 2, 7, 3, 4, 5, 8],
    ],
    [
      'more scattered, even',
      ['', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [2, 3, 0, 4, 1, 5],
    ],
    [
      'more scattered, even + odd',
      ['', '', 'labelA=AAA', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [2, 4, 0, 5, 6, 1, 7, 3, 8],
    ],
    [
      'more scattered, odd + even',
      ['', 'labelA=AAA', '', 'labelA=AAA', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'],
      [1, 0, 3, 2, 6, 4, 7, 5, 8],
    ],
    [
      'invalid labels',
      ['', '', '', '', 'ee', 'a', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA,labelB=BBB'],
      [7, 0, 1, 2, 3, 8, 4, 5, 6, 9],
    ],
    ['one matched only', ['labelA=AAA', ''], [0, 1]],
  ];
  it.each(cases)('%s', (_d, labels, expected) => {
    const pods = fromStrings(labels);
    expect(
      sortByScatter(
        pods,
        expected.map((_, i) => i).sort((a, b) => a - b),
        term,
      ),
    ).toEqual(expected);
  });

  it('density of the whole population shapes the groups (8 pods, 6 candidates; derived by stepping through upstream)', () => {
    const pods = fromStrings([
      '',
      '',
      '',
      'labelA=AAA',
      'labelA=AAA',
      'labelA=AAA',
      'labelA=AAA',
      'labelA=AAA',
    ]);
    // totals 4 matched (after setting the last aside) vs 3 unmatched are denser than the candidates' 2 vs 3:
    // group sizes 1/1, 2 groups, 1 unmatched remainder first.
    expect(sortByScatter(pods, [0, 1, 2, 3, 4, 5], term)).toEqual([0, 3, 1, 4, 2, 5]);
  });

  it('several terms are applied most-matched first (upstream TestSort "2 dimensions")', () => {
    const pods = [
      labelled({ labelB: 'BBB' }),
      labelled({ labelB: 'BBB' }),
      labelled({}),
      labelled({}),
      labelled({ labelA: 'AAA' }),
      labelled({ labelA: 'AAA' }),
    ];
    const terms = [
      { key: 'labelA', value: 'AAA' },
      { key: 'labelB', value: 'BBB' },
    ];
    expect(sortByScatter(pods, [0, 1, 2, 3, 4, 5], terms)).toEqual([0, 4, 2, 3, 5, 1]);
    expect(sortByScatter(pods, [0], terms)).toEqual([0]);
  });
});
