import {
  InvalidSelectorError,
  isEmptySelector,
  selectorMatches,
  selectorString,
} from '../../../lib/api/selector.js';
import type { LabelSelector } from '../../../lib/api/types.js';

describe('selectorString (status.labelSelector, docs/behaviour/cloneset.md#status-fields)', () => {
  test.each<[LabelSelector, string]>([
    [{ matchLabels: { b: '2', a: '1' } }, 'a=1,b=2'],
    [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['y', 'x'] }] }, 'k in (x,y)'],
    [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['x'] }] }, 'k in (x)'],
    [{ matchExpressions: [{ key: 'k', operator: 'NotIn', values: ['b', 'a'] }] }, 'k notin (a,b)'],
    [{ matchExpressions: [{ key: 'k', operator: 'Exists' }] }, 'k'],
    [{ matchExpressions: [{ key: 'k', operator: 'DoesNotExist' }] }, '!k'],
    [
      {
        matchLabels: { z: '1' },
        matchExpressions: [
          { key: 'a', operator: 'Exists' },
          { key: 'm', operator: 'NotIn', values: ['v'] },
        ],
      },
      'a,m notin (v),z=1',
    ],
    [{}, ''],
  ])('%j → %p', (sel, want) => {
    expect(selectorString(sel)).toBe(want);
  });

  test.each<[LabelSelector]>([
    [{ matchExpressions: [{ key: 'k', operator: 'In', values: [] }] }],
    [{ matchExpressions: [{ key: 'k', operator: 'Exists', values: ['x'] }] }],
    [{ matchExpressions: [{ key: 'k', operator: 'Gt', values: ['1'] }] }],
  ])('invalid selector %j throws', (sel) => {
    expect(() => selectorString(sel)).toThrow(InvalidSelectorError);
  });
});

describe('selectorMatches', () => {
  const sel: LabelSelector = {
    matchLabels: { app: 'demo' },
    matchExpressions: [
      { key: 'tier', operator: 'In', values: ['web', 'api'] },
      { key: 'env', operator: 'NotIn', values: ['prod'] },
      { key: 'team', operator: 'Exists' },
      { key: 'legacy', operator: 'DoesNotExist' },
    ],
  };
  test.each<[Record<string, string> | undefined, boolean]>([
    [{ app: 'demo', tier: 'web', team: 'x' }, true],
    [{ app: 'demo', tier: 'api', team: 'x', env: 'dev' }, true],
    [{ app: 'demo', tier: 'web', team: 'x', env: 'prod' }, false],
    [{ app: 'demo', tier: 'db', team: 'x' }, false],
    [{ app: 'demo', tier: 'web' }, false],
    [{ app: 'demo', tier: 'web', team: 'x', legacy: '' }, false],
    [{ app: 'other', tier: 'web', team: 'x' }, false],
    [undefined, false],
  ])('labels %j → %p', (labels, want) => {
    expect(selectorMatches(sel, labels)).toBe(want);
  });

  test('an empty selector matches everything and is reported empty', () => {
    expect(selectorMatches({}, { a: 'b' })).toBe(true);
    expect(isEmptySelector({})).toBe(true);
    expect(isEmptySelector(undefined)).toBe(true);
    expect(isEmptySelector({ matchLabels: { a: 'b' } })).toBe(false);
  });
});
