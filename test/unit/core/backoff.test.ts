import { exponentialDelay } from '../../../lib/core/backoff.js';

describe('exponentialDelay (lib/core/backoff.ts)', () => {
  test('0 without a failure, then base doubling up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 11, 12, 2000].map((n) => exponentialDelay(n, 1, 1000))).toEqual([
      0, 1, 2, 4, 8, 16, 32, 1000, 1000, 1000,
    ]);
    expect([1, 2, 3, 7].map((n) => exponentialDelay(n, 1000, 60_000))).toEqual([1000, 2000, 4000, 60_000]);
  });

  test('a negative or fractional failure count is a RangeError', () => {
    expect(() => exponentialDelay(-1, 1, 10)).toThrow(
      new RangeError('failures must be an integer ≥ 0, got -1'),
    );
    expect(() => exponentialDelay(1.5, 1, 10)).toThrow(RangeError);
  });
});
