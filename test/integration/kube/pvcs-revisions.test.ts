/**
 * The generic KubeClient on PVCs and ControllerRevisions, on a real API server: create, owner-reference patch with a
 * UID precondition (lib/kube/ownerReferences.ts), UID-guarded delete, replace with a resourceVersion precondition,
 * list by label selector, and a resource the server does not serve.
 */
import type { CloneSet, ControllerRevision, OwnerReference } from '../../../lib/api/types.js';
import { createKubeClient } from '../../../lib/kube/client.js';
import { isNotFound } from '../../../lib/kube/errors.js';
import { listIfServed } from '../../../lib/kube/list.js';
import { patchOwnerReferences } from '../../../lib/kube/ownerReferences.js';
import type { Resource } from '../../../lib/kube/resource.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import type { KubeClient } from '../../../lib/kube/types.js';
import { useTestNamespace } from '../support/cluster.js';
import { waitFor } from '../support/wait.js';
import { kubeError, seedCloneSet } from './fixtures.js';

const t = useTestNamespace('kube-pvc');
let kube: KubeClient;

beforeAll(() => {
  kube = createKubeClient(t.kc, { retry: { retries: 1, minTimeoutMs: 50 } });
});

const ref = (name: string) => ({ namespace: t.namespace, name });
const listPVCs = (labelSelector?: string) =>
  kube.list(RESOURCES.persistentvolumeclaims, {
    namespace: t.namespace,
    ...(labelSelector ? { labelSelector } : {}),
  });
const listRevisions = (labelSelector: string) =>
  kube.list(RESOURCES.controllerrevisions, { namespace: t.namespace, labelSelector });

/** Owner reference to a real CloneSet (the garbage collector deletes dependents of missing owners). */
let owner: OwnerReference;

beforeAll(async () => {
  const cs = (await t.custom.createNamespacedCustomObject({
    group: 'apps.kruise.io',
    version: 'v1alpha1',
    plural: 'clonesets',
    namespace: t.namespace,
    body: seedCloneSet(t.namespace),
  })) as CloneSet;
  owner = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    name: 'cs-no-pvc-sample',
    uid: cs.metadata.uid as string,
    controller: true,
    blockOwnerDeletion: true,
  };
});

function revision(name: string, rev: number, hash: string): ControllerRevision {
  return {
    metadata: {
      name,
      namespace: t.namespace,
      labels: { app: 'cs-no-pvc-sample', 'controller.kubernetes.io/hash': hash },
    },
    revision: rev,
    data: {
      spec: {
        template: {
          $patch: 'replace',
          metadata: { labels: { app: 'cs-no-pvc-sample' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.18-alpine' }] },
        },
      },
    },
  };
}

describe('KubeClient on PersistentVolumeClaims', () => {
  test('create, patchOwnerReferences and delete with UID preconditions', async () => {
    const pvc = await kube.create(RESOURCES.persistentvolumeclaims, {
      metadata: {
        name: 'data-cs-abcde',
        namespace: t.namespace,
        labels: { 'apps.kruise.io/cloneset-instance-id': 'abcde' },
      },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    const uid = pvc.metadata.uid as string;
    expect(typeof pvc.metadata.creationTimestamp).toBe('string');
    expect(pvc.metadata.managedFields).toEqual([expect.objectContaining({ manager: 'kruiseless' })]);

    await patchOwnerReferences(kube, RESOURCES.persistentvolumeclaims, ref('data-cs-abcde'), uid, [owner]);
    const [listed] = (await listPVCs('apps.kruise.io/cloneset-instance-id=abcde')).items;
    expect(listed.metadata.ownerReferences).toEqual([owner]);
    expect(listed.spec).toMatchObject({ accessModes: ['ReadWriteOnce'] });

    const wrongUid = await kubeError(
      patchOwnerReferences(kube, RESOURCES.persistentvolumeclaims, ref('data-cs-abcde'), 'not-the-uid', []),
    );
    expect(wrongUid.statusCode).toBe(422);
    expect(wrongUid.reason).toBe('Invalid');
    expect(wrongUid.apiMessage).toMatch(/metadata.uid: Invalid value: "not-the-uid": field is immutable/);
    const [unchanged] = (await listPVCs()).items;
    expect(unchanged.metadata.ownerReferences).toEqual([owner]);

    const wrongDelete = await kubeError(
      kube.delete(RESOURCES.persistentvolumeclaims, ref('data-cs-abcde'), { uid: 'not-the-uid' }),
    );
    expect(wrongDelete.reason).toBe('Conflict');

    await kube.delete(RESOURCES.persistentvolumeclaims, ref('data-cs-abcde'), { uid });
    // pvc-protection adds a finalizer; the claim is unused, so the controller lets it go.
    await waitFor('PVC gone', 30000, async () => ((await listPVCs()).items.length === 0 ? true : undefined));
  });
});

describe('KubeClient on ControllerRevisions', () => {
  test('create stores data and revision, returned as plain JSON', async () => {
    const created = await kube.create(
      RESOURCES.controllerrevisions,
      revision('cs-no-pvc-sample-aaaaa', 1, 'aaaaa'),
    );
    expect(created.revision).toBe(1);
    expect(created.data).toEqual(revision('x', 1, 'x').data);
    expect(created.kind).toBe('ControllerRevision');
    expect(typeof created.metadata.creationTimestamp).toBe('string');
  });

  test('replace bumps revision and rejects a stale resourceVersion', async () => {
    await kube.create(RESOURCES.controllerrevisions, revision('cs-no-pvc-sample-bbbbb', 2, 'bbbbb'));
    const [cur] = (await listRevisions('controller.kubernetes.io/hash=aaaaa')).items;
    const replaced = await kube.replace(RESOURCES.controllerrevisions, { ...cur, revision: 3 });
    expect(replaced.revision).toBe(3);
    expect(replaced.metadata.resourceVersion).not.toBe(cur.metadata.resourceVersion);
    const stale = await kubeError(kube.replace(RESOURCES.controllerrevisions, { ...cur, revision: 4 }));
    expect(stale.statusCode).toBe(409);
    expect(stale.reason).toBe('Conflict');
  });

  test('list filters by label selector', async () => {
    const all = await listRevisions('app=cs-no-pvc-sample');
    expect(all.items.map((r) => [r.metadata.name, r.revision]).sort()).toEqual([
      ['cs-no-pvc-sample-aaaaa', 3],
      ['cs-no-pvc-sample-bbbbb', 2],
    ]);
    expect(all.resourceVersion).toMatch(/^\d+$/);
    const one = await listRevisions('controller.kubernetes.io/hash=bbbbb');
    expect(one.items.map((r) => r.metadata.name)).toEqual(['cs-no-pvc-sample-bbbbb']);
  });

  test('delete removes it; deleting again is NotFound', async () => {
    await kube.delete(RESOURCES.controllerrevisions, ref('cs-no-pvc-sample-bbbbb'));
    const left = await listRevisions('app=cs-no-pvc-sample');
    expect(left.items.map((r) => r.metadata.name)).toEqual(['cs-no-pvc-sample-aaaaa']);
    const again = await kubeError(kube.delete(RESOURCES.controllerrevisions, ref('cs-no-pvc-sample-bbbbb')));
    expect(isNotFound(again)).toBe(true);
  });
});

describe('a resource the API server does not serve (no CRD)', () => {
  const unserved: Resource = {
    group: 'apps.kruise.io',
    version: 'v1alpha1',
    plural: 'notservedhere',
    namespaced: true,
    kind: 'NotServedHere',
  };

  test('a list is 404 NotFound; listIfServed makes it undefined', async () => {
    const err = await kubeError(kube.list(unserved, { namespace: t.namespace }));
    expect(isNotFound(err)).toBe(true);
    expect(err.operation).toBe(`list notservedhere ${t.namespace}`);
    await expect(listIfServed(kube, unserved, { namespace: t.namespace })).resolves.toBeUndefined();
    await expect(
      listIfServed(kube, RESOURCES.controllerrevisions, { namespace: t.namespace }),
    ).resolves.toMatchObject({
      items: [expect.objectContaining({ kind: 'ControllerRevision' })],
    });
  });
});
