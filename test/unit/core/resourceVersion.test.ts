/**
 * The one resourceVersion ordering (lib/core/resourceVersion.ts), used by the pump's resume point, the coalescer
 * and the expectation observer.
 */
import { describe, expect, test } from '@jest/globals';
import { compareResourceVersions, newerResourceVersion } from '../../../lib/core/resourceVersion.js';

describe('compareResourceVersions', () => {
  test.each<[string, string, number | undefined]>([
    ['5', '5', 0],
    ['5', '12', -1],
    ['12', '5', 1],
    ['18446744073709551616', '18446744073709551615', 1],
    ['abc', '5', undefined],
    ['5', '', undefined],
  ])('%s vs %s → %s', (a, b, want) => {
    expect(compareResourceVersions(a, b)).toBe(want);
  });
});

describe('newerResourceVersion (e.g. the pump resume point never moves backwards)', () => {
  test.each<[string | undefined, string | undefined, string | undefined]>([
    [undefined, '726', '726'],
    ['726', undefined, '726'],
    [undefined, undefined, undefined],
    ['800', '726', '800'],
    ['800', '809', '809'],
    ['999', '1000', '1000'],
    ['18446744073709551615', '18446744073709551616', '18446744073709551616'],
    ['abc', '5', '5'],
    ['5', 'opaque', 'opaque'],
  ])('current %s, next %s → %s', (current, next, want) => {
    expect(newerResourceVersion(current, next)).toBe(want);
  });
});
