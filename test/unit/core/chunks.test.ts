/** lib/core/chunks.ts: one cutting of a list, shared by the event publisher and the watch slices. */
import { describe, expect, it } from '@jest/globals';
import { chunks } from '../../../lib/core/chunks.js';

describe('chunks', () => {
  it('cuts every size in order, the rest last; none for no item; Infinity is one piece', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([1, 2, 3], 3)).toEqual([[1, 2, 3]]);
    expect(chunks([], 10)).toEqual([]);
    expect(chunks(['a', 'b'], Number.POSITIVE_INFINITY)).toEqual([['a', 'b']]);
  });

  it('refuses a size below 1 or NaN, which would never end', () => {
    expect(() => chunks([1], 0)).toThrow('chunk size must be at least 1, not 0');
    expect(() => chunks([1], Number.NaN)).toThrow(RangeError);
  });
});
