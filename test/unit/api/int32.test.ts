import { MAX_INT32, MIN_INT32, isInt32, parseInt32 } from '../../../lib/api/int32.js';

describe('int32 (Go strconv.ParseInt(s, 10, 32))', () => {
  test.each([
    ['0', 0],
    ['+7', 7],
    ['-12', -12],
    ['007', 7],
    ['2147483647', MAX_INT32],
    ['-2147483648', MIN_INT32],
    ['2147483648', undefined],
    ['-2147483649', undefined],
    ['', undefined],
    ['1.5', undefined],
    [' 1', undefined],
    ['0x10', undefined],
  ])('parseInt32(%j) = %j', (s, want) => {
    expect(parseInt32(s)).toBe(want);
  });

  test('isInt32 bounds', () => {
    expect([MIN_INT32 - 1, MIN_INT32, 0, MAX_INT32, MAX_INT32 + 1].map(isInt32)).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
  });
});
