/**
 * The generic KubeClient on CloneSets (a CRD) and the CloneSet's typed writes (lib/controllers/cloneset/write.ts) on a
 * real API server: get/list, status through the status subresource, the podsToDelete merge patch, a JSON patch,
 * and resourceVersion preconditions.
 */
import type { CloneSet, CloneSetStatus } from '../../../lib/api/types.js';
import { createKubeClient } from '../../../lib/kube/client.js';
import { isConflict } from '../../../lib/kube/errors.js';
import type { KubeClient } from '../../../lib/kube/types.js';
import { patchCloneSetPodsToDelete, updateCloneSetStatus } from '../../../lib/controllers/cloneset/write.js';
import { useTestNamespace } from '../support/cluster.js';
import { kubeError, seedCloneSet } from './fixtures.js';
import { CLONESET_RESOURCE } from '../../../lib/controllers/cloneset/api/resource.js';

const t = useTestNamespace('kube-cs');
let kube: KubeClient;
let created: CloneSet;

const status: CloneSetStatus = {
  observedGeneration: 1,
  replicas: 2,
  readyReplicas: 1,
  availableReplicas: 1,
  updatedReplicas: 2,
  updatedReadyReplicas: 1,
  updatedAvailableReplicas: 1,
  expectedUpdatedReplicas: 2,
  updateRevision: 'cs-no-pvc-sample-7c6b5d4f9',
  currentRevision: 'cs-no-pvc-sample-7c6b5d4f9',
  collisionCount: 0,
  labelSelector: 'app=cs-no-pvc-sample',
  conditions: [
    {
      type: 'Progressing',
      status: 'True',
      reason: 'NewCloneSetAvailable',
      message: 'ok',
      lastUpdateTime: '2026-11-30T12:00:00Z',
      lastTransitionTime: '2026-11-30T12:00:00Z',
    },
  ],
};

const ref = () => ({ namespace: t.namespace, name: 'cs-no-pvc-sample' });
const getCloneSet = (name = 'cs-no-pvc-sample') =>
  kube.get(CLONESET_RESOURCE, { namespace: t.namespace, name });

beforeAll(async () => {
  kube = createKubeClient(t.kc, { retry: { retries: 1, minTimeoutMs: 50 } });
  created = (await t.custom.createNamespacedCustomObject({
    group: 'apps.kruise.io',
    version: 'v1alpha1',
    plural: 'clonesets',
    namespace: t.namespace,
    body: seedCloneSet(t.namespace),
  })) as CloneSet;
});

describe('KubeClient on CloneSets', () => {
  test('get returns the seed CloneSet as plain JSON with defaults and a string creationTimestamp', async () => {
    const cs = await getCloneSet();
    expect(cs?.metadata.uid).toBe(created.metadata.uid);
    expect(cs?.spec.replicas).toBe(2);
    expect(cs?.spec.updateStrategy).toMatchObject({ type: 'InPlaceIfPossible', partition: 0 });
    expect(typeof cs?.metadata.creationTimestamp).toBe('string');
    expect(cs?.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Object.getPrototypeOf(cs)).toBe(Object.prototype);
  });

  test('get of a missing CloneSet is undefined', async () => {
    await expect(getCloneSet('missing')).resolves.toBeUndefined();
  });

  test('list returns the items and the collection resourceVersion, in a namespace and across all', async () => {
    const inNs = await kube.list(CLONESET_RESOURCE, { namespace: t.namespace });
    expect(inNs.items.map((c) => c.metadata.name)).toEqual(['cs-no-pvc-sample']);
    expect(inNs.resourceVersion).toMatch(/^\d+$/);
    expect(Number(inNs.resourceVersion)).toBeGreaterThanOrEqual(Number(created.metadata.resourceVersion));
    expect(inNs.items[0].kind).toBe('CloneSet');
    expect(typeof inNs.items[0].metadata.creationTimestamp).toBe('string');
    const all = await kube.list(CLONESET_RESOURCE);
    expect(all.items.some((c) => c.metadata.uid === created.metadata.uid)).toBe(true);
  });

  test('updateCloneSetStatus writes status through the subresource and leaves spec untouched', async () => {
    const cs = (await getCloneSet()) as CloneSet;
    const tampered: CloneSet = { ...cs, spec: { ...cs.spec, replicas: 7 } };
    const updated = await updateCloneSetStatus(kube, tampered, status);
    expect(updated.status).toEqual(status);
    expect(updated.spec).toEqual(cs.spec);
    expect(updated.metadata.generation).toBe(cs.metadata.generation);
    expect(updated.metadata.resourceVersion).not.toBe(cs.metadata.resourceVersion);
    const reread = await getCloneSet();
    expect(reread?.status).toEqual(status);
    expect(reread?.spec.replicas).toBe(2);
  });

  test('updateCloneSetStatus with a stale resourceVersion fails with reason Conflict', async () => {
    const err = await kubeError(updateCloneSetStatus(kube, created, { ...status, replicas: 9 }));
    expect(err.statusCode).toBe(409);
    expect(err.reason).toBe('Conflict');
    expect(isConflict(err)).toBe(true);
    expect(err.operation).toBe(`replace cloneset status ${t.namespace}/cs-no-pvc-sample`);
    expect(err.apiMessage).toMatch(/the object has been modified/);
    const reread = await getCloneSet();
    expect(reread?.status?.replicas).toBe(2);
  });

  test('patchCloneSetPodsToDelete sets spec.scaleStrategy.podsToDelete , rejects a stale resourceVersion, and removes the field for an empty list', async () => {
    const cs = (await getCloneSet()) as CloneSet;
    const patched = await patchCloneSetPodsToDelete(kube, cs, ['pod-a', 'pod-b']);
    expect(patched.spec.scaleStrategy?.podsToDelete).toEqual(['pod-a', 'pod-b']);
    expect(patched.spec.template).toEqual(cs.spec.template);
    expect(patched.status).toEqual(status);
    const err = await kubeError(patchCloneSetPodsToDelete(kube, cs, ['pod-c']));
    expect(err.reason).toBe('Conflict');
    const reread = await getCloneSet();
    expect(reread?.spec.scaleStrategy?.podsToDelete).toEqual(['pod-a', 'pod-b']);
    const emptied = await patchCloneSetPodsToDelete(kube, reread as CloneSet, []);
    expect(emptied.spec.scaleStrategy).toEqual({});
  });

  test('a JSON patch applies its operations; a resourceVersion precondition becomes a test operation, 422 Invalid on a stale version', async () => {
    const cs = (await getCloneSet()) as CloneSet;
    const patched = await kube.patch(
      CLONESET_RESOURCE,
      ref(),
      { type: 'json', body: [{ op: 'replace', path: '/spec/minReadySeconds', value: 3 }] },
      { preconditions: { resourceVersion: cs.metadata.resourceVersion } },
    );
    expect(patched.spec.minReadySeconds).toBe(3);
    const err = await kubeError(
      kube.patch(
        CLONESET_RESOURCE,
        ref(),
        { type: 'json', body: [{ op: 'replace', path: '/spec/minReadySeconds', value: 4 }] },
        { preconditions: { resourceVersion: cs.metadata.resourceVersion } },
      ),
    );
    // a failed `test` operation is 422 Invalid, not 409: the API server rejects the patch document itself
    expect(err).toMatchObject({ statusCode: 422, reason: 'Invalid' });
    expect((await getCloneSet())?.spec.minReadySeconds).toBe(3);
  });
});
