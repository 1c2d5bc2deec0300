/**
 * The SidecarSet controller's pod watch (lib/controllers/sidecarset/podWatch.ts): a pod names the SidecarSets of its
 * injected-list annotation, with no read, and the request it makes is a cluster-scoped key (no namespace).
 */
import { CONTROLLERS } from '../../../../lib/controllers/index.js';
import { sidecarSetsForPod } from '../../../../lib/controllers/sidecarset/podWatch.js';
import { requestsForChange, watchStreams, type MapReads } from '../../../../lib/source/watchSpec.js';
import type { Logger } from '../../../../lib/core/logger.js';

const pod = (annotations?: Record<string, string>) => ({
  metadata: { name: 'p', namespace: 'ns1', resourceVersion: '7', ...(annotations ? { annotations } : {}) },
});

describe('SidecarSet pod watch (enqueueRequestForPod)', () => {
  it('names the listed SidecarSets once each, and none for a pod without the annotation', async () => {
    expect(await sidecarSetsForPod(pod({ 'kruise.io/sidecarset-injected-list': 'a,b,a' }))).toEqual([
      { name: 'a' },
      { name: 'b' },
    ]);
    expect(await sidecarSetsForPod(pod({ 'kruise.io/sidecarset-injected-list': '' }))).toEqual([]);
    expect(await sidecarSetsForPod(pod())).toEqual([]);
  });

  it('is the stream of every pod (no label selector, shared with the PodUnavailableBudget, the WorkloadSpread and the For watch of the container launch priority controller) and makes namespace-less requests, reading nothing', async () => {
    const stream = watchStreams(CONTROLLERS).find(
      (s) => s.watched.plural === 'pods' && s.labelSelector === undefined,
    );
    expect(stream?.consumers.map((c) => c.controller.kind)).toEqual([
      'apps.kruise.io/SidecarSet',
      'policy.kruise.io/PodUnavailableBudget',
      'apps.kruise.io/WorkloadSpread',
      'core/Pod',
    ]);
    const reads = {
      cluster: 'c1',
      kube: {
        get: () => Promise.reject(new Error('no read expected')),
        list: () => Promise.reject(new Error('no read expected')),
      },
    };
    const requests = await requestsForChange(
      stream!,
      pod({ 'kruise.io/sidecarset-injected-list': 'log' }),
      reads,
      {} as Logger,
    );
    expect(requests).toEqual([
      {
        version: expect.any(Number) as number,
        cluster: 'c1',
        kind: 'apps.kruise.io/SidecarSet',
        name: 'log',
        reason: 'MappedObjectChanged',
        resourceVersion: '7',
      },
    ]);
  });

  it('a modified pod names no NotUpdate SidecarSet and none that is gone (upstream updatePod), one GET each', async () => {
    const got: string[] = [];
    const stored: Record<string, unknown> = {
      roll: { metadata: { name: 'roll' }, spec: { updateStrategy: { type: 'RollingUpdate' } } },
      frozen: { metadata: { name: 'frozen' }, spec: { updateStrategy: { type: 'NotUpdate' } } },
    };
    const reads = {
      cluster: 'c1',
      kube: {
        get: (_r: unknown, ref: { name: string }) => {
          got.push(ref.name);
          return Promise.resolve(stored[ref.name]);
        },
        list: () => Promise.reject(new Error('no list expected')),
      },
    } as unknown as MapReads;
    const injected = pod({ 'kruise.io/sidecarset-injected-list': 'frozen,roll,gone' });
    expect(await sidecarSetsForPod(injected, reads, 'MODIFIED')).toEqual([{ name: 'roll' }]);
    expect(got).toEqual(['frozen', 'roll', 'gone']);
    got.length = 0;
    for (const change of ['ADDED', 'DELETED', 'LISTED'] as const)
      expect(await sidecarSetsForPod(injected, reads, change)).toEqual([
        { name: 'frozen' },
        { name: 'roll' },
        { name: 'gone' },
      ]);
    expect(got).toEqual([]);
  });

  it('requestsForChange hands the watch event type to the map function', async () => {
    const stream = watchStreams(CONTROLLERS).find(
      (s) => s.watched.plural === 'pods' && s.labelSelector === undefined,
    );
    const reads = {
      cluster: 'c1',
      kube: {
        get: () =>
          Promise.resolve({ metadata: { name: 'x' }, spec: { updateStrategy: { type: 'NotUpdate' } } }),
        // the PodUnavailableBudget's map lists the namespace's PUBs for a new pod without its annotation
        list: () => Promise.resolve({ items: [] }),
      },
    } as unknown as MapReads;
    const injected = pod({ 'kruise.io/sidecarset-injected-list': 'x' });
    expect(await requestsForChange(stream!, injected, reads, {} as Logger, 'MODIFIED')).toEqual([]);
    expect(
      (await requestsForChange(stream!, injected, reads, {} as Logger, 'ADDED')).map((r) => r.name),
    ).toEqual(['x']);
  });
});
