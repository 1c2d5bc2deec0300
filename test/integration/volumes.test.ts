/**
 * The local control plane's volumes (infra/local/cluster.ts): a claim of the default StorageClass is provisioned by
 * hostpath-provisioner and bound by kube-controller-manager's PV controller, a resize on `allow-volume-expansion`
 * shows in `status.capacity` (kwok stage `pvc-resize`), `disallow-volume-expansion` refuses the resize, and a deleted
 * claim's volume is deleted (reclaim policy Delete). What OpenKruise's Advanced StatefulSet specs need (research §1.5).
 */
import {
  ApiException,
  PatchStrategy,
  setHeaderOptions,
  StorageV1Api,
  type V1PersistentVolumeClaim,
} from '@kubernetes/client-node';
import { useTestNamespace } from './support/cluster.js';
import { waitFor } from './support/wait.js';

const t = useTestNamespace('volumes');

function claim(name: string, storageClassName?: string): V1PersistentVolumeClaim {
  return {
    metadata: { name },
    spec: {
      ...(storageClassName ? { storageClassName } : {}),
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
    },
  };
}

const read = (name: string): Promise<V1PersistentVolumeClaim> =>
  t.core.readNamespacedPersistentVolumeClaim({ name, namespace: t.namespace });

/** Creates `body` and waits until it is Bound. @returns the bound claim */
async function createBound(body: V1PersistentVolumeClaim): Promise<V1PersistentVolumeClaim> {
  await t.core.createNamespacedPersistentVolumeClaim({ namespace: t.namespace, body });
  const name = body.metadata?.name ?? '';
  return waitFor(`claim ${name} Bound`, 30000, async () => {
    const cur = await read(name);
    return cur.status?.phase === 'Bound' ? cur : undefined;
  });
}

const resize = (name: string, storage: string): Promise<V1PersistentVolumeClaim> =>
  t.core.patchNamespacedPersistentVolumeClaim(
    { name, namespace: t.namespace, body: { spec: { resources: { requests: { storage } } } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );

describe('local control plane volumes', () => {
  test('the StorageClasses: standard is the default, only allow-volume-expansion allows expansion', async () => {
    const classes = await t.kc.makeApiClient(StorageV1Api).listStorageClass();
    const view = classes.items
      .map((c) => ({
        name: c.metadata?.name,
        isDefault: c.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true',
        provisioner: c.provisioner,
        allowVolumeExpansion: c.allowVolumeExpansion ?? false,
        volumeBindingMode: c.volumeBindingMode,
      }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
    const base = { provisioner: 'kruiseless.io/hostpath', volumeBindingMode: 'Immediate' };
    expect(view).toEqual([
      { name: 'allow-volume-expansion', isDefault: false, allowVolumeExpansion: true, ...base },
      { name: 'disallow-volume-expansion', isDefault: false, allowVolumeExpansion: false, ...base },
      { name: 'standard', isDefault: true, allowVolumeExpansion: false, ...base },
    ]);
  });

  test('a claim without a class gets the default one, a provisioned volume, Bound and status.capacity', async () => {
    const c = await createBound(claim('plain'));
    expect(c.spec?.storageClassName).toBe('standard');
    expect(c.status?.capacity).toEqual({ storage: '1Gi' });
    expect(c.metadata?.annotations?.['volume.kubernetes.io/storage-provisioner']).toBe(
      'kruiseless.io/hostpath',
    );
    const pv = await t.core.readPersistentVolume({ name: c.spec?.volumeName ?? '' });
    expect(pv.spec?.claimRef?.name).toBe('plain');
    expect(pv.spec?.capacity).toEqual({ storage: '1Gi' });
    expect(pv.spec?.persistentVolumeReclaimPolicy).toBe('Delete');
    expect(pv.status?.phase).toBe('Bound');
  });

  test('a resize on allow-volume-expansion shows in status.capacity', async () => {
    await createBound(claim('grows', 'allow-volume-expansion'));
    await resize('grows', '2Gi');
    const c = await waitFor('status.capacity 2Gi', 30000, async () => {
      const cur = await read('grows');
      return cur.status?.capacity?.storage === '2Gi' ? cur : undefined;
    });
    expect(c.spec?.resources?.requests).toEqual({ storage: '2Gi' });
    expect(c.status?.phase).toBe('Bound');
  });

  test('disallow-volume-expansion refuses the resize and keeps the capacity', async () => {
    await createBound(claim('fixed', 'disallow-volume-expansion'));
    const refused = await resize('fixed', '2Gi').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ApiException);
    expect((refused as ApiException<unknown>).code).toBe(403);
    expect(String((refused as ApiException<unknown>).body)).toContain(
      'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
    );
    const c = await read('fixed');
    expect(c.spec?.resources?.requests).toEqual({ storage: '1Gi' });
    expect(c.status?.capacity).toEqual({ storage: '1Gi' });
  });

  test("a deleted claim's volume is deleted (reclaim policy Delete)", async () => {
    const c = await createBound(claim('gone'));
    const volume = c.spec?.volumeName ?? '';
    await t.core.deleteNamespacedPersistentVolumeClaim({ name: 'gone', namespace: t.namespace });
    await waitFor(`volume ${volume} deleted`, 30000, async () =>
      t.core.readPersistentVolume({ name: volume }).then(
        () => undefined,
        (e: unknown) => (e instanceof ApiException && e.code === 404 ? true : undefined),
      ),
    );
  });
});
