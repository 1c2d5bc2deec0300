/**
 * The resync of a controller that reconciles only some objects of its resource (`selects`: the pod registration's
 * pods some concern takes, here those still waiting on a barrier, out of every pod of the cluster): the pods are listed in
 * pages of 500, each cut down to the selected ones, and only those are published; a controller without `selects`
 * is listed in one LIST, as before; an object without metadata is skipped, not a crash.
 */
import type { JsonObject, Pod } from '../../../lib/api/types.js';
import { silentLogger } from '../../../lib/core/logger.js';
import { cloneSetKind } from '../../../lib/controllers/cloneset/kind.js';
import { podKind } from '../../../lib/controllers/podKind.js';
import type { KubeObject } from '../../../lib/kube/resource.js';
import type { KubeClient, Listed, ListOptions } from '../../../lib/kube/types.js';
import { barrierEnv } from '../../../lib/podset/launchPriority.js';
import { resyncCluster } from '../../../lib/source/resync.js';
import { recordingPublisher } from '../support/recordingPublisher.js';

const waiting = (name: string): Pod => ({
  metadata: { name, namespace: 'ns', resourceVersion: '5' },
  spec: {
    containers: [
      { name: 'a', env: [barrierEnv(0, name)] },
      { name: 'b', env: [barrierEnv(10, name)] },
    ],
  },
});
const plain = (name: string): Pod => ({
  metadata: { name, namespace: 'ns', resourceVersion: '5' },
  spec: { containers: [{ name: 'main' }] },
});

test('pods in pages of 500, only those waiting on their barrier published', async () => {
  const pods: unknown[] = [
    ...Array.from({ length: 700 }, (_, i) => plain(`p-${i}`)),
    waiting('w-1'),
    { kind: 'Pod' },
    waiting('w-2'),
  ];
  const calls: ListOptions[] = [];
  const kube: Pick<KubeClient, 'list'> = {
    list: <T extends KubeObject>(_r: unknown, options: ListOptions = {}): Promise<Listed<T>> => {
      calls.push(options);
      const from = Number(options.continue ?? 0);
      const to = options.limit ? from + options.limit : pods.length;
      return Promise.resolve({
        items: pods.slice(from, to) as T[],
        resourceVersion: '9',
        ...(to < pods.length ? { continue: String(to) } : {}),
      });
    },
  };
  const publisher = recordingPublisher();
  const { published } = publisher;
  const result = await resyncCluster('c1', kube, publisher, [podKind], silentLogger);
  expect(calls).toEqual([{ limit: 500 }, { limit: 500, continue: '500' }]);
  expect(published.map((r) => [r.kind, r.namespace, r.name, r.reason])).toEqual([
    ['core/Pod', 'ns', 'w-1', 'Resync'],
    ['core/Pod', 'ns', 'w-2', 'Resync'],
  ]);
  expect(result.objects).toEqual({ 'core/Pod': 2 });
});

test('a controller without selects: one LIST of its resource, every object published', async () => {
  const calls: ListOptions[] = [];
  const kube: Pick<KubeClient, 'list'> = {
    list: <T extends KubeObject>(_r: unknown, options: ListOptions = {}): Promise<Listed<T>> => {
      calls.push(options);
      return Promise.resolve({
        items: [{ metadata: { name: 'web', namespace: 'ns' } } as JsonObject as unknown as T],
        resourceVersion: '3',
      });
    },
  };
  const publisher = recordingPublisher();
  const { published } = publisher;
  await resyncCluster('c1', kube, publisher, [cloneSetKind], silentLogger);
  expect(calls).toEqual([{}]);
  expect(published.map((r) => r.name)).toEqual(['web']);
});
