/**
 * kube-controller-manager's garbage collector on the local control plane: pods owned (ownerReferences)
 * by a ConfigMap or by a CloneSet are deleted when the owner is deleted, and kwok completes the deletion.
 */
import { ApiException, type V1OwnerReference } from '@kubernetes/client-node';
import { useTestNamespace } from './support/cluster.js';
import { waitFor } from './support/wait.js';

const t = useTestNamespace('gc');

async function createOwnedPods(owner: V1OwnerReference, names: string[]): Promise<void> {
  for (const name of names) {
    await t.core.createNamespacedPod({
      namespace: t.namespace,
      body: {
        metadata: { name, labels: { owner: owner.name }, ownerReferences: [owner] },
        spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] },
      },
    });
  }
}

async function podNames(owner: string): Promise<string[]> {
  const list = await t.core.listNamespacedPod({ namespace: t.namespace, labelSelector: `owner=${owner}` });
  return list.items.map((p) => p.metadata?.name ?? '').sort();
}

async function waitNoPods(owner: string): Promise<string[]> {
  return waitFor(`pods of ${owner} garbage-collected`, 60000, async () => {
    const names = await podNames(owner);
    return names.length === 0 ? names : undefined;
  });
}

describe('garbage collection', () => {
  test('deleting a ConfigMap deletes the pods it owns', async () => {
    const cm = await t.core.createNamespacedConfigMap({
      namespace: t.namespace,
      body: { metadata: { name: 'owner-cm' }, data: { k: 'v' } },
    });
    const ref: V1OwnerReference = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'owner-cm',
      uid: cm.metadata?.uid ?? '',
      controller: true,
      blockOwnerDeletion: true,
    };
    await createOwnedPods(ref, ['cm-pod-0', 'cm-pod-1']);
    expect(await podNames('owner-cm')).toEqual(['cm-pod-0', 'cm-pod-1']);
    await t.core.deleteNamespacedConfigMap({ name: 'owner-cm', namespace: t.namespace });
    expect(await waitNoPods('owner-cm')).toEqual([]);
  });

  test('deleting a CloneSet deletes the pods it owns', async () => {
    const cs = (await t.custom.createNamespacedCustomObject({
      group: 'apps.kruise.io',
      version: 'v1alpha1',
      plural: 'clonesets',
      namespace: t.namespace,
      body: {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        metadata: { name: 'owner-cs' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { owner: 'owner-cs' } },
          template: {
            metadata: { labels: { owner: 'owner-cs' } },
            spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] },
          },
        },
      },
    })) as { metadata: { uid: string } };
    const ref: V1OwnerReference = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      name: 'owner-cs',
      uid: cs.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    };
    await createOwnedPods(ref, ['cs-pod-0']);
    await waitFor('owned pod Running', 30000, async () => {
      const p = await t.core.readNamespacedPod({ name: 'cs-pod-0', namespace: t.namespace });
      return p.status?.phase === 'Running';
    });
    await t.custom.deleteNamespacedCustomObject({
      group: 'apps.kruise.io',
      version: 'v1alpha1',
      plural: 'clonesets',
      namespace: t.namespace,
      name: 'owner-cs',
    });
    expect(await waitNoPods('owner-cs')).toEqual([]);
    await expect(
      t.core.readNamespacedPod({ name: 'cs-pod-0', namespace: t.namespace }).catch((e: unknown) => {
        throw new Error(e instanceof ApiException ? `HTTP ${e.code}` : String(e));
      }),
    ).rejects.toThrow('HTTP 404');
  });
});
