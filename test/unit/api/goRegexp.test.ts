/** lib/api/goRegexp.ts: a Go RE2 pattern's leading flag group becomes JavaScript flags; the rest is JavaScript's. */
import { goRegExp } from '../../../lib/api/goRegexp.js';

describe('goRegExp', () => {
  it('(?i) matches case-insensitively, as Go', () => {
    expect(goRegExp('(?i)^APP-').test('app-web')).toBe(true);
    expect(goRegExp('(?is)^a.b$').test('A\nB')).toBe(true);
  });

  it('other patterns as written, unanchored as MatchString', () => {
    expect(goRegExp('engine.v4').test('large.engine.v4')).toBe(true);
    expect(goRegExp('^app$').test('app-web')).toBe(false);
  });

  it('what JavaScript cannot compile still throws', () => {
    expect(() => goRegExp('[invalid(regex')).toThrow(SyntaxError);
    expect(() => goRegExp('(?U)a+')).toThrow(SyntaxError);
  });
});
