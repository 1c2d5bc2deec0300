import {
  clusterKeyString,
  InvalidStateKeyError,
  objectKeyString,
  parseObjectKey,
} from '../../../lib/state/index.js';

const CLONESET = 'apps.kruise.io/CloneSet';

describe('state keys (docs/architecture.md#state-table)', () => {
  test('an object key renders as obj#<cluster>#<group>/<Kind>#<ns>#<name> and parses back', () => {
    const key = { cluster: 'prod-eu', kind: CLONESET, namespace: 'shop', name: 'web' };
    expect(objectKeyString(key)).toBe('obj#prod-eu#apps.kruise.io/CloneSet#shop#web');
    expect(parseObjectKey('obj#prod-eu#apps.kruise.io/CloneSet#shop#web')).toEqual(key);
  });

  test('a cluster-scoped key has an empty namespace part and parses back without a namespace', () => {
    const key = { cluster: 'prod-eu', kind: 'apps.kruise.io/ResourceDistribution', name: 'shared' };
    expect(objectKeyString(key)).toBe('obj#prod-eu#apps.kruise.io/ResourceDistribution##shared');
    const parsed = parseObjectKey('obj#prod-eu#apps.kruise.io/ResourceDistribution##shared');
    expect(parsed).toEqual(key);
    expect(Object.keys(parsed)).not.toContain('namespace');
  });

  test('keys that differ only in kind, or in scope, are different items', () => {
    const strings = [
      objectKeyString({ cluster: 'p', kind: CLONESET, namespace: 'shop', name: 'web' }),
      objectKeyString({ cluster: 'p', kind: 'apps.kruise.io/BroadcastJob', namespace: 'shop', name: 'web' }),
      objectKeyString({ cluster: 'p', kind: CLONESET, name: 'web' }),
    ];
    expect(new Set(strings).size).toBe(3);
  });

  test("a part containing '#' is rejected with the part named", () => {
    expect(() => objectKeyString({ cluster: 'a#b', kind: CLONESET, namespace: 'shop', name: 'web' })).toThrow(
      new InvalidStateKeyError('a#b/apps.kruise.io/CloneSet/shop/web', `cluster "a#b" contains '#'`),
    );
    expect(() => objectKeyString({ cluster: 'a#b', kind: CLONESET, namespace: 'shop', name: 'web' })).toThrow(
      `invalid state key "a#b/apps.kruise.io/CloneSet/shop/web": cluster "a#b" contains '#'`,
    );
    expect(() => objectKeyString({ cluster: 'p', kind: 'x#y/Z', namespace: 'shop', name: 'web' })).toThrow(
      `invalid state key "p/x#y/Z/shop/web": kind "x#y/Z" contains '#'`,
    );
    expect(() => clusterKeyString('x#y')).toThrow(`invalid state key "x#y": cluster "x#y" contains '#'`);
  });

  test('an empty part is rejected; an empty namespace is not a cluster-scoped key', () => {
    expect(() => objectKeyString({ cluster: 'prod', kind: CLONESET, namespace: '', name: 'web' })).toThrow(
      'invalid state key "prod/apps.kruise.io/CloneSet//web": namespace is empty',
    );
    expect(() => objectKeyString({ cluster: 'prod', kind: '', namespace: 'shop', name: 'web' })).toThrow(
      'invalid state key "prod//shop/web": kind is empty',
    );
    expect(() => parseObjectKey('obj#prod#apps.kruise.io/CloneSet#shop#')).toThrow(
      'invalid state key "obj#prod#apps.kruise.io/CloneSet#shop#": name is empty',
    );
    expect(() => parseObjectKey('obj#prod##shop#web')).toThrow(
      'invalid state key "obj#prod##shop#web": kind is empty',
    );
  });

  test('a string with the wrong prefix or part count is rejected', () => {
    expect(() => parseObjectKey('cluster#prod')).toThrow(
      `invalid state key "cluster#prod": expected prefix 'obj#' (obj#<cluster>#<group>/<Kind>#<namespace>#<name>)`,
    );
    expect(() => parseObjectKey('cs#prod#shop#web')).toThrow(`expected prefix 'obj#'`);
    expect(() => parseObjectKey('obj#a#b#apps.kruise.io/CloneSet#shop#web')).toThrow(
      `invalid state key "obj#a#b#apps.kruise.io/CloneSet#shop#web": expected 5 '#'-separated parts (obj#<cluster>#<group>/<Kind>#<namespace>#<name>), got 6; no part may contain '#'`,
    );
  });
});
