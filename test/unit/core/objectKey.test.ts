/** The object key (docs/architecture.md#object-key): one identity and one text rendering for every kind. */
import { describe, expect, it } from '@jest/globals';
import {
  InvalidObjectKeyError,
  controllerNameOf,
  isGroupKind,
  kindLookup,
  namespaceOf,
  objectKeyOf,
  objectKeyText,
  parseGroupKind,
} from '../../../lib/core/objectKey.js';

const web = { cluster: 'prod', kind: 'apps.kruise.io/CloneSet', namespace: 'shop', name: 'web' };
const shared = { cluster: 'prod', kind: 'apps.kruise.io/ResourceDistribution', name: 'shared' };

describe('objectKeyText', () => {
  it('renders cluster/group/Kind/namespace/name, and without the namespace for a cluster-scoped key', () => {
    expect(objectKeyText(web)).toBe('prod/apps.kruise.io/CloneSet/shop/web');
    expect(objectKeyText(shared)).toBe('prod/apps.kruise.io/ResourceDistribution/shared');
  });
});

describe('objectKeyOf', () => {
  it('keeps only the key fields of a request, and no namespace field when there is none', () => {
    expect(objectKeyOf({ ...web, version: 2, reason: 'Resync' } as typeof web)).toEqual(web);
    expect(Object.keys(objectKeyOf(shared))).toEqual(['cluster', 'kind', 'name']);
  });
});

describe('parseGroupKind', () => {
  it('splits <group>/<Kind>', () => {
    expect(parseGroupKind('apps.kruise.io/CloneSet')).toEqual({ group: 'apps.kruise.io', kind: 'CloneSet' });
    expect(parseGroupKind('policy.kruise.io/PodUnavailableBudget').kind).toBe('PodUnavailableBudget');
  });

  it.each(['CloneSet', '/CloneSet', 'apps.kruise.io/', 'apps.kruise.io/cloneSet', 'Apps/CloneSet', 'a/b/C'])(
    'rejects %j',
    (kind) => {
      expect(isGroupKind(kind)).toBe(false);
      expect(() => parseGroupKind(kind)).toThrow(InvalidObjectKeyError);
    },
  );
});

describe('namespaceOf', () => {
  it('gives the namespace of a namespaced key and refuses a key without one', () => {
    expect(namespaceOf(web)).toBe('shop');
    expect(() => namespaceOf(shared)).toThrow(
      new InvalidObjectKeyError(
        'prod/apps.kruise.io/ResourceDistribution/shared has no namespace, and code for a namespaced kind needs one',
      ),
    );
  });
});

describe('controllerNameOf and kindLookup', () => {
  it('names the controller by its lower-cased Kind, and looks kinds up in a table', () => {
    expect(controllerNameOf(web.kind)).toBe('cloneset');
    const kinds = kindLookup({ [web.kind]: { namespaced: true }, [shared.kind]: { namespaced: false } });
    expect(kinds(web.kind)).toEqual({ namespaced: true });
    expect(kinds(shared.kind)).toEqual({ namespaced: false });
    expect(kinds('apps/Deployment')).toBeUndefined();
    expect(kinds('__proto__')).toBeUndefined();
  });
});
