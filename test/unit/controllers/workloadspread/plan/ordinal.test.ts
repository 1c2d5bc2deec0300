/**
 * A StatefulSet's pods by ordinal, against OpenKruise v1.9.0's `acquireSuitableSubset` (its StatefulSet case) and
 * `getParentNameAndOrdinal`: each subset takes the next `maxReplicas` ordinals, a subset without a maximum the rest,
 * a percentage counts as 0 (`IntValue`), a subset not schedulable is skipped.
 */
import type { Pod } from '../../../../../lib/api/types.js';
import { podOrdinal, subsetByOrdinal } from '../../../../../lib/controllers/workloadspread/plan/index.js';
import { workloadSpread } from '../fixtures.js';

const stsPod = (name: string): Pod => ({ metadata: { name, namespace: 'ns' }, spec: { containers: [] } });

const ws = (subsets: { name: string; maxReplicas?: number | string }[]) =>
  workloadSpread({
    spec: { targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web' }, subsets },
  });

describe('podOrdinal', () => {
  it('reads the digits after the last dash; -1 without them', () => {
    expect([podOrdinal('web-0'), podOrdinal('web-a-12'), podOrdinal('web'), podOrdinal('web-1x')]).toEqual([
      0, 12, -1, -1,
    ]);
  });
});

describe('subsetByOrdinal', () => {
  const three = ws([{ name: 'a', maxReplicas: 2 }, { name: 'b', maxReplicas: 3 }, { name: 'c' }]);

  it('ordinals 0-1 to a, 2-4 to b, 5 and beyond to c', () => {
    expect(
      ['web-0', 'web-1', 'web-2', 'web-4', 'web-5', 'web-99'].map((n) => subsetByOrdinal(three, stsPod(n))),
    ).toEqual(['a', 'a', 'b', 'b', 'c', 'c']);
  });

  it('a name without an ordinal (-1) falls in the first subset', () => {
    expect(subsetByOrdinal(three, stsPod('web'))).toBe('a');
  });

  it('no subset for an ordinal past every maximum', () => {
    expect(
      subsetByOrdinal(
        ws([
          { name: 'a', maxReplicas: 1 },
          { name: 'b', maxReplicas: '2' },
        ]),
        stsPod('web-3'),
      ),
    ).toBe(undefined);
  });

  it('a percentage counts as 0: its subset takes no ordinal', () => {
    const pct = ws([
      { name: 'a', maxReplicas: '50%' },
      { name: 'b', maxReplicas: 2 },
    ]);
    expect(['web-0', 'web-1', 'web-2'].map((n) => subsetByOrdinal(pct, stsPod(n)))).toEqual([
      'b',
      'b',
      undefined,
    ]);
  });

  it('a subset whose Schedulable condition is False is skipped, its ordinals going to the next', () => {
    const w = {
      ...three,
      status: {
        subsetStatuses: [
          {
            name: 'a',
            replicas: 0,
            missingReplicas: 2,
            conditions: [
              {
                type: 'Schedulable',
                status: 'False',
                reason: 'x',
                message: '',
                lastTransitionTime: '2026-12-04T07:00:00Z',
              },
            ],
          },
        ],
      },
    };
    expect(['web-0', 'web-2', 'web-3'].map((n) => subsetByOrdinal(w, stsPod(n)))).toEqual(['b', 'b', 'c']);
  });
});
