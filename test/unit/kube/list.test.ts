/**
 * The LIST helpers (lib/kube/list.ts) over a scripted `list`: every page by `continue`, a resource that is not
 * served (404) as undefined, any other error thrown, and "is there any" as one LIST of one item.
 */
import { describe, expect, test } from '@jest/globals';
import { KubeApiError } from '../../../lib/kube/errors.js';
import { anyExists, listAll, listIfServed } from '../../../lib/kube/list.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import type { KubeClient, Listed, ListOptions } from '../../../lib/kube/types.js';
import type { Pod } from '../../../lib/api/types.js';

const pod = (name: string): Pod => ({ metadata: { name }, spec: { containers: [] } });

/** A `list` that answers `pages` in turn (or throws `error`), recording each call's options. */
function scripted(pages: Listed<Pod>[], error?: KubeApiError) {
  const calls: ListOptions[] = [];
  const kube = {
    list: async (_resource: unknown, options: ListOptions = {}) => {
      calls.push(options);
      if (error) throw error;
      const page = pages[calls.length - 1];
      if (!page) throw new Error('no more pages scripted');
      return page;
    },
  } as unknown as Pick<KubeClient, 'list'>;
  return { kube, calls };
}

describe('listAll', () => {
  test('follows continue to the last page, keeping the page size and the selectors', async () => {
    const { kube, calls } = scripted([
      { items: [pod('a'), pod('b')], resourceVersion: '10', continue: 'c1' },
      { items: [pod('c')], resourceVersion: '10', continue: 'c2' },
      { items: [], resourceVersion: '11' },
    ]);
    const all = await listAll(kube, RESOURCES.pods, { namespace: 'ns', labelSelector: 'app=x', limit: 2 });
    expect(all).toEqual({ items: [pod('a'), pod('b'), pod('c')], resourceVersion: '11' });
    expect(calls).toEqual([
      { namespace: 'ns', labelSelector: 'app=x', limit: 2 },
      { namespace: 'ns', labelSelector: 'app=x', limit: 2, continue: 'c1' },
      { namespace: 'ns', labelSelector: 'app=x', limit: 2, continue: 'c2' },
    ]);
  });

  test('an unlimited list is one call', async () => {
    const { kube, calls } = scripted([{ items: [pod('a')], resourceVersion: '3' }]);
    await expect(listAll(kube, RESOURCES.pods)).resolves.toEqual({ items: [pod('a')], resourceVersion: '3' });
    expect(calls).toHaveLength(1);
  });
});

describe('listIfServed and anyExists', () => {
  const notFound = new KubeApiError('list nodeimages', 404, 'NotFound', 'the server could not find it');
  const forbidden = new KubeApiError('list nodeimages', 403, 'Forbidden', 'no');

  test('404 (no CRD) is undefined, and no object', async () => {
    await expect(listIfServed(scripted([], notFound).kube, RESOURCES.imagepulljobs)).resolves.toBeUndefined();
    await expect(anyExists(scripted([], notFound).kube, RESOURCES.nodeimages)).resolves.toBe(false);
  });

  test('another error is thrown', async () => {
    await expect(listIfServed(scripted([], forbidden).kube, RESOURCES.imagepulljobs)).rejects.toBe(forbidden);
    await expect(anyExists(scripted([], forbidden).kube, RESOURCES.nodeimages)).rejects.toBe(forbidden);
  });

  test('anyExists asks for one item', async () => {
    const some = scripted([{ items: [pod('node-1')], resourceVersion: '1', continue: 'c' }]);
    await expect(anyExists(some.kube, RESOURCES.nodeimages)).resolves.toBe(true);
    expect(some.calls).toEqual([{ limit: 1 }]);
    await expect(
      anyExists(scripted([{ items: [], resourceVersion: '1' }]).kube, RESOURCES.nodeimages),
    ).resolves.toBe(false);
  });
});
