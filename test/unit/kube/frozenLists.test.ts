/**
 * lib/kube/frozenLists.ts: LISTs of the named resources answer deep-frozen items; other resources and other calls
 * pass through untouched. The client is a stub answering fresh objects.
 */
import { describe, expect, it } from '@jest/globals';
import type { Pod } from '../../../lib/api/types.js';
import { frozenListsKube } from '../../../lib/kube/frozenLists.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import type { KubeClient, Listed } from '../../../lib/kube/types.js';

const stub = (): KubeClient =>
  ({
    async list(): Promise<Listed<Pod>> {
      return {
        items: [{ metadata: { name: 'web-0', labels: { a: 'b' } }, spec: { containers: [] } }],
        resourceVersion: '7',
      };
    },
  }) as unknown as KubeClient;

describe('frozenListsKube', () => {
  it('freezes every item of a LIST of a named resource, all the way down', async () => {
    const kube = frozenListsKube(stub(), [RESOURCES.pods]);
    const listed = await kube.list<Pod>(RESOURCES.pods, { namespace: 'ns' });
    expect(listed.resourceVersion).toBe('7');
    expect(Object.isFrozen(listed.items[0])).toBe(true);
    expect(() => {
      (listed.items[0].metadata.labels as Record<string, string>).a = 'changed';
    }).toThrow(TypeError);
    // the array is the reader's own
    listed.items.push(listed.items[0]);
    expect(listed.items).toHaveLength(2);
  });

  it('leaves the LISTs of other resources as they come, and returns the client itself for no resources', async () => {
    const base = stub();
    const kube = frozenListsKube(base, [RESOURCES.persistentvolumeclaims]);
    const listed = await kube.list<Pod>(RESOURCES.pods, { namespace: 'ns' });
    expect(Object.isFrozen(listed.items[0])).toBe(false);
    expect(frozenListsKube(base, [])).toBe(base);
  });
});
