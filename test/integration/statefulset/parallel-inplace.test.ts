/**
 * Advanced StatefulSet, Parallel with a partitioned in-place rolling update, through the whole pipeline on the local
 * control plane (kwok makes pods Running and Ready once every readiness gate is True): 3 pods in one burst; an image
 * change with `partition: 1` and `podUpdatePolicy: InPlaceIfPossible` updates ordinals 2 and 1 in place (same pod
 * UID, the new image) and leaves ordinal 0 at the current revision. Asserted from API objects only.
 */
import type { Embedded } from '../../../lib/local/embedded.js';
import type { Pod } from '../../../lib/api/types.js';
import type { StatefulSet } from '../../../lib/controllers/statefulset/api/types.js';
import { useTestNamespace } from '../support/cluster.js';
import { startPipeline } from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('asts-parallel');
let embedded: Embedded;

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
}, 30_000);

afterAll(async () => {
  await embedded?.stop();
});

const API = { group: 'apps.kruise.io', version: 'v1beta1', plural: 'statefulsets' };

const SET: StatefulSet = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  metadata: { name: 'web' },
  spec: {
    replicas: 3,
    serviceName: 'web',
    podManagementPolicy: 'Parallel',
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        containers: [{ name: 'nginx', image: 'nginx:1.25-alpine' }],
      },
    },
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', partition: 1, maxUnavailable: 3 },
    },
  },
};

async function getSet(): Promise<StatefulSet> {
  return (await ctx.custom.getNamespacedCustomObject({
    ...API,
    namespace: ctx.namespace,
    name: 'web',
  })) as StatefulSet;
}

async function pods(): Promise<Map<string, Pod>> {
  const list = await ctx.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector: 'app=web' });
  return new Map((list.items as unknown as Pod[]).map((p) => [p.metadata.name ?? '', p]));
}

describe('Advanced StatefulSet Parallel and in-place through the whole pipeline', () => {
  test('3 pods at once; partition 1: ordinals 2 and 1 updated in place, 0 not', async () => {
    await ctx.custom.createNamespacedCustomObject({ ...API, namespace: ctx.namespace, body: SET });
    const first = await waitFor('READY 3', 120_000, async () => {
      const s = (await getSet()).status;
      return s?.readyReplicas === 3 && s.replicas === 3 ? s : undefined;
    });
    const before = await pods();
    expect([...before.keys()].sort()).toEqual(['web-0', 'web-1', 'web-2']);
    await ctx.custom.patchNamespacedCustomObject({
      ...API,
      namespace: ctx.namespace,
      name: 'web',
      body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.26-alpine' }],
    });
    const done = await waitFor('2 updated, 3 ready', 120_000, async () => {
      const s = (await getSet()).status;
      return s?.observedGeneration === 2 &&
        s.updatedReplicas === 2 &&
        s.updatedReadyReplicas === 2 &&
        s.readyReplicas === 3
        ? s
        : undefined;
    });
    const after = await pods();
    const update = done.updateRevision ?? '';
    expect(update).not.toBe(first.updateRevision);
    for (const name of ['web-1', 'web-2']) {
      const p = after.get(name);
      expect(p?.metadata.uid).toBe(before.get(name)?.metadata.uid);
      expect(p?.spec.containers[0].image).toBe('nginx:1.26-alpine');
      expect(p?.metadata.labels?.['controller-revision-hash']).toBe(update);
    }
    const zero = after.get('web-0');
    expect(zero?.metadata.uid).toBe(before.get('web-0')?.metadata.uid);
    expect(zero?.spec.containers[0].image).toBe('nginx:1.25-alpine');
    expect(zero?.metadata.labels?.['controller-revision-hash']).toBe(first.updateRevision);
    expect({
      currentRevision: done.currentRevision,
      currentReplicas: done.currentReplicas,
      updatedReplicas: done.updatedReplicas,
      replicas: done.replicas,
    }).toEqual({
      currentRevision: first.updateRevision,
      currentReplicas: 1,
      updatedReplicas: 2,
      replicas: 3,
    });
  }, 240_000);
});
