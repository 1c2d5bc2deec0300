import { laterResourceVersion } from '../../../lib/forward/pump.js';

describe('laterResourceVersion (the pump resume point never moves backwards)', () => {
  test.each<[string | undefined, string, string]>([
    [undefined, '726', '726'],
    ['800', '726', '800'],
    ['800', '809', '809'],
    ['999', '1000', '1000'],
    ['18446744073709551615', '18446744073709551616', '18446744073709551616'],
    ['abc', '5', '5'],
    ['5', 'opaque', 'opaque'],
  ])('current %s, next %s → %s', (current, next, want) => {
    expect(laterResourceVersion(current, next)).toBe(want);
  });
});
