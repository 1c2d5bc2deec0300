import {
  calculatePartitionReplicas,
  IntOrPercentError,
  legacyScaledValue,
  scaledValueFromIntOrPercent,
} from '../../../lib/api/intOrPercent.js';
import type { IntOrString } from '../../../lib/api/types.js';

describe('partition helper (docs/behaviour/cloneset.md#int-or-percent worked examples)', () => {
  test.each<[IntOrString | undefined, number | undefined, number]>([
    ['99%', 4, 3],
    ['90%', 10, 9],
    ['50%', 5, 3],
    ['10%', 6, 1],
    ['0%', 5, 0],
    ['100%', 4, 4],
    [7, 5, 5],
    [-3, 5, 0],
    [undefined, 5, 0],
    ['99%', 1, 1],
    [1, undefined, 1],
    ['10.5%', 10, 2],
  ])('partition %p of %p replicas keeps %p pods on the current revision', (p, r, want) => {
    expect(calculatePartitionReplicas(p, r)).toBe(want);
  });

  test('a string without % is an error', () => {
    expect(() => calculatePartitionReplicas('5', 10)).toThrow(IntOrPercentError);
  });
});

describe('validation helper', () => {
  test.each<[IntOrString, number, 'up' | 'down', number]>([
    [3, 10, 'up', 3],
    ['20%', 3, 'up', 1],
    ['20%', 3, 'down', 0],
    ['120%', 5, 'up', 6],
  ])('%p of %p rounded %s is %p', (v, total, r, want) => {
    expect(scaledValueFromIntOrPercent(v, total, r)).toBe(want);
  });

  test.each(['5', '%', 'x%'])('%p is rejected', (v) => {
    expect(() => scaledValueFromIntOrPercent(v, 10, 'up')).toThrow(IntOrPercentError);
  });
});

describe('legacy helper', () => {
  test.each<[IntOrString | undefined, number, 'up' | 'down', number]>([
    ['20%', 3, 'up', 1],
    ['20%', 3, 'down', 0],
    ['5', 100, 'up', 5],
    ['10.5%', 10, 'up', 0],
    [undefined, 10, 'up', 0],
    [2, 10, 'down', 2],
  ])('%p of %p rounded %s is %p (maxUnavailable "20%", R=3: MS=0 → 1, MS=1 → 0)', (v, total, r, want) => {
    expect(legacyScaledValue(v, total, r)).toBe(want);
  });
});
