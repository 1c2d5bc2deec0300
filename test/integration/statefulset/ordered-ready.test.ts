/**
 * Advanced StatefulSet through the whole pipeline on the local control plane (the embedded default: watch pump →
 * bus → reconcile handler → the real API server; kwok makes pods Running and Ready): OrderedReady scales 0 → 3 one
 * pod at a time in ordinal order, each created only after the previous one is Ready, a PVC per pod first; the
 * status ends exact; scaled to 1, the highest ordinals go first. Asserted from API objects only.
 */
import type { Embedded } from '../../../lib/local/embedded.js';
import type { PersistentVolumeClaim, Pod } from '../../../lib/api/types.js';
import type { StatefulSet } from '../../../lib/controllers/statefulset/api/types.js';
import { useTestNamespace } from '../support/cluster.js';
import { startPipeline } from '../support/pipeline.js';
import { waitFor } from '../support/wait.js';

const ctx = useTestNamespace('asts-ordered');
let embedded: Embedded;

beforeAll(async () => {
  embedded = await startPipeline(ctx.namespace);
}, 30_000);

afterAll(async () => {
  await embedded?.stop();
});

const API = { group: 'apps.kruise.io', version: 'v1beta1', plural: 'statefulsets' };

function webSet(replicas: number): StatefulSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'web' },
    spec: {
      replicas,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25-alpine' }] },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    },
  };
}

async function getSet(): Promise<StatefulSet> {
  return (await ctx.custom.getNamespacedCustomObject({
    ...API,
    namespace: ctx.namespace,
    name: 'web',
  })) as StatefulSet;
}

async function pods(): Promise<Pod[]> {
  const list = await ctx.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector: 'app=web' });
  return (list.items as unknown as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
}

const readyAt = (p: Pod): number =>
  Date.parse(
    p.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True')?.lastTransitionTime ?? '',
  );

describe('Advanced StatefulSet OrderedReady through the whole pipeline', () => {
  test('0 → 3: pods one at a time in ordinal order, each after the previous is Ready; PVCs; status exact', async () => {
    await ctx.custom.createNamespacedCustomObject({ ...API, namespace: ctx.namespace, body: webSet(3) });
    const done = await waitFor('READY 3', 120_000, async () => {
      const s = (await getSet()).status;
      return s?.readyReplicas === 3 && s.replicas === 3 && s.availableReplicas === 3 ? s : undefined;
    });
    const listed = (await pods()).sort((a, b) =>
      (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
    );
    expect(listed.map((p) => p.metadata.name)).toEqual(['web-0', 'web-1', 'web-2']);
    // each pod was created no earlier than its predecessor became Ready (timestamps have 1 s resolution)
    for (let i = 1; i < 3; i++)
      expect(Date.parse(listed[i].metadata.creationTimestamp ?? '')).toBeGreaterThanOrEqual(
        readyAt(listed[i - 1]),
      );
    const rev = done.updateRevision ?? '';
    expect(rev).toMatch(/^web-[0-9a-z]+$/);
    expect(listed.map((p) => p.metadata.labels)).toEqual(
      [0, 1, 2].map((i) => ({
        app: 'web',
        'statefulset.kubernetes.io/pod-name': `web-${i}`,
        'apps.kubernetes.io/pod-index': String(i),
        'controller-revision-hash': rev,
        'lifecycle.apps.kruise.io/state': 'Normal',
      })),
    );
    const set = await getSet();
    expect(listed.map((p) => p.metadata.ownerReferences)).toEqual(
      [0, 1, 2].map(() => [
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'StatefulSet',
          name: 'web',
          uid: set.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]),
    );
    const claims = (await ctx.core.listNamespacedPersistentVolumeClaim({ namespace: ctx.namespace }))
      .items as unknown as PersistentVolumeClaim[];
    expect(
      claims
        .map((c) => ({
          name: c.metadata.name,
          labels: c.metadata.labels,
          owners: c.metadata.ownerReferences,
        }))
        .sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '')),
    ).toEqual([0, 1, 2].map((i) => ({ name: `data-web-${i}`, labels: { app: 'web' }, owners: undefined })));
    expect(set.status).toEqual({
      observedGeneration: 1,
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      updatedReadyReplicas: 3,
      updatedAvailableReplicas: 3,
      currentRevision: rev,
      updateRevision: rev,
      collisionCount: 0,
      labelSelector: 'app=web',
      // each pod runs only once its claim is bound, with the capacity it requested
      volumeClaims: [{ volumeClaimName: 'data', compatibleReplicas: 3, compatibleReadyReplicas: 3 }],
    });
  }, 180_000);

  test('scaled to 1: web-2, then web-1 are deleted; web-0 and every PVC stay (Retain)', async () => {
    await ctx.custom.patchNamespacedCustomObject({
      ...API,
      namespace: ctx.namespace,
      name: 'web',
      body: [{ op: 'replace', path: '/spec/replicas', value: 1 }],
    });
    await waitFor('READY 1', 120_000, async () => {
      const s = (await getSet()).status;
      const names = (await pods()).map((p) => p.metadata.name);
      return s?.replicas === 1 && s.readyReplicas === 1 && names.length === 1 ? true : undefined;
    });
    expect((await pods()).map((p) => p.metadata.name)).toEqual(['web-0']);
    const events = await ctx.core.listNamespacedEvent({ namespace: ctx.namespace });
    const deletes = events.items
      .filter((e) => e.reason === 'SuccessfulDelete')
      // in the order they were stored (resourceVersion: their timestamps have 1 s resolution)
      .sort((a, b) => Number(a.metadata?.resourceVersion) - Number(b.metadata?.resourceVersion))
      .map((e) => e.message);
    expect(deletes).toEqual([
      'delete Pod web-2 in StatefulSet web successful',
      'delete Pod web-1 in StatefulSet web successful',
    ]);
    const claims = (await ctx.core.listNamespacedPersistentVolumeClaim({ namespace: ctx.namespace })).items;
    expect(claims.map((c) => c.metadata?.name).sort()).toEqual(['data-web-0', 'data-web-1', 'data-web-2']);
  }, 180_000);
});
