import {
  cloneSetKeyString,
  clusterKeyString,
  InvalidStateKeyError,
  parseCloneSetKey,
} from '../../../lib/state/index.js';

describe('state keys (docs/architecture.md#state-table)', () => {
  test('a CloneSet key renders as cs#<cluster>#<ns>#<name> and parses back', () => {
    const key = { cluster: 'prod-eu', namespace: 'shop', name: 'web' };
    expect(cloneSetKeyString(key)).toBe('cs#prod-eu#shop#web');
    expect(parseCloneSetKey('cs#prod-eu#shop#web')).toEqual(key);
  });

  test("a part containing '#' is rejected with the part named", () => {
    expect(() => cloneSetKeyString({ cluster: 'a#b', namespace: 'shop', name: 'web' })).toThrow(
      new InvalidStateKeyError('a#b/shop/web', `cluster "a#b" contains '#'`),
    );
    expect(() => cloneSetKeyString({ cluster: 'a#b', namespace: 'shop', name: 'web' })).toThrow(
      `invalid state key "a#b/shop/web": cluster "a#b" contains '#'`,
    );
    expect(() => clusterKeyString('x#y')).toThrow(`invalid state key "x#y": cluster "x#y" contains '#'`);
  });

  test('an empty part is rejected', () => {
    expect(() => cloneSetKeyString({ cluster: 'prod', namespace: '', name: 'web' })).toThrow(
      'invalid state key "prod//web": namespace is empty',
    );
    expect(() => parseCloneSetKey('cs#prod##web')).toThrow(
      'invalid state key "cs#prod##web": namespace is empty',
    );
  });

  test('a string with the wrong prefix or part count is rejected', () => {
    expect(() => parseCloneSetKey('cluster#prod')).toThrow(
      `invalid state key "cluster#prod": expected prefix 'cs#' (cs#<cluster>#<namespace>#<name>)`,
    );
    expect(() => parseCloneSetKey('cs#a#b#shop#web')).toThrow(
      `invalid state key "cs#a#b#shop#web": expected 4 '#'-separated parts (cs#<cluster>#<namespace>#<name>), got 5; no part may contain '#'`,
    );
  });
});
