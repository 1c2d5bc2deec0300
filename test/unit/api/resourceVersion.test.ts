import { compareResourceVersions } from '../../../lib/api/resourceVersion.js';

describe('compareResourceVersions', () => {
  it.each([
    ['9', '10', -1],
    ['10', '9', 1],
    ['42', '42', 0],
    ['007', '7', 0],
    ['18446744073709551616', '18446744073709551615', 1],
  ])('%s vs %s → %d', (a, b, want) => {
    expect(compareResourceVersions(a, b)).toBe(want);
  });

  it.each([
    [undefined, '1'],
    ['1', undefined],
    ['', '1'],
    ['abc', '1'],
    ['1', '1.5'],
    ['-1', '1'],
  ])('%s vs %s has no order', (a, b) => {
    expect(compareResourceVersions(a, b)).toBeUndefined();
  });
});
