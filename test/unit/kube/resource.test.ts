/**
 * The REST paths of the generic client (lib/kube/resource.ts): core and named groups, namespaced and
 * cluster-scoped resources, all-namespace collections, subresources, encoded names, and the errors for a path that
 * cannot exist.
 */
import { describe, expect, test } from '@jest/globals';
import { apiVersionOf, refText, resourcePath, watchPath } from '../../../lib/kube/resource.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import { CLONESET_RESOURCE } from '../../../lib/controllers/cloneset/api/resource.js';

describe('resourcePath', () => {
  test.each([
    ['/api/v1/namespaces/ns/pods', RESOURCES.pods, 'ns', undefined, undefined],
    ['/api/v1/namespaces/ns/pods/web-abcde', RESOURCES.pods, 'ns', 'web-abcde', undefined],
    ['/api/v1/namespaces/ns/pods/web-abcde/status', RESOURCES.pods, 'ns', 'web-abcde', 'status'],
    ['/api/v1/pods', RESOURCES.pods, undefined, undefined, undefined],
    ['/apis/apps.kruise.io/v1alpha1/clonesets', CLONESET_RESOURCE, undefined, undefined, undefined],
    [
      '/apis/apps.kruise.io/v1alpha1/namespaces/ns/clonesets/web/status',
      CLONESET_RESOURCE,
      'ns',
      'web',
      'status',
    ],
    [
      '/apis/apps/v1/namespaces/ns/controllerrevisions/web-1',
      RESOURCES.controllerrevisions,
      'ns',
      'web-1',
      undefined,
    ],
    ['/apis/apps.kruise.io/v1alpha1/nodeimages', RESOURCES.nodeimages, undefined, undefined, undefined],
    ['/apis/apps.kruise.io/v1alpha1/nodeimages/node-1', RESOURCES.nodeimages, 'ignored', 'node-1', undefined],
    ['/api/v1/namespaces/a%20b/events/x%2Fy', RESOURCES.events, 'a b', 'x/y', undefined],
  ])('%s', (path, resource, namespace, name, subresource) => {
    expect(resourcePath(resource, namespace, name, subresource)).toBe(path);
  });

  test('a namespaced object without a namespace, or a subresource without an object, is an error', () => {
    expect(() => resourcePath(RESOURCES.pods, undefined, 'web-abcde')).toThrow(/needs a namespace/);
    expect(() => resourcePath(RESOURCES.pods, 'ns', undefined, 'status')).toThrow(/without an object name/);
  });

  test('the watch path is the collection, cluster-wide without a namespace (the watch pump)', () => {
    expect(watchPath(RESOURCES.persistentvolumeclaims)).toBe('/api/v1/persistentvolumeclaims');
    expect(watchPath(RESOURCES.pods, 'ns')).toBe('/api/v1/namespaces/ns/pods');
  });
});

describe('apiVersionOf and refText', () => {
  test('the core group has a bare version; a named group is <group>/<version>', () => {
    expect(apiVersionOf(RESOURCES.pods)).toBe('v1');
    expect(apiVersionOf(RESOURCES.controllerrevisions)).toBe('apps/v1');
    expect(apiVersionOf(CLONESET_RESOURCE)).toBe('apps.kruise.io/v1alpha1');
  });

  test('a namespaced reference reads ns/name, a cluster-scoped one name', () => {
    expect(refText(RESOURCES.pods, { namespace: 'ns', name: 'p' })).toBe('ns/p');
    expect(refText(RESOURCES.nodeimages, { namespace: 'ns', name: 'node-1' })).toBe('node-1');
  });
});
