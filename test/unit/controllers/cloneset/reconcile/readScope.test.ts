/**
 * What one pass lists (lib/controllers/cloneset/pass.ts `readWorld`, docs/architecture.md#reads): by the CloneSet's selector
 * on a requeue, every pod and PVC of the namespace (in pages, kept when owned) on a change and on the resync; PVCs
 * on a requeue only when they can matter, and on a change only while the CloneSet may own some (the stored
 * `ownsClaims`). The reads are
 * recorded in order with their label selectors, through a wrapper that passes every call on to the recording API
 * server unchanged.
 */
import { LABEL_INSTANCE_ID } from '../../../../../lib/api/keys.js';
import type { PersistentVolumeClaim, Pod } from '../../../../../lib/api/types.js';
import type { Expectations } from '../../../../../lib/state/index.js';
import type { ReconcileReason } from '../../../../../lib/requests/index.js';
import { reconcileCloneSet } from '../../../../../lib/controllers/cloneset/index.js';
import { readScopeFor } from '../../../../../lib/controllers/cloneset/pass.js';
import { harness, NAMESPACE, REQUEST, seedCloneSet, type Harness } from './support/harness.js';
import type { KubeClient } from '../../../../../lib/kube/types.js';
import { recordingReads } from './support/recordingReads.js';

const SELECTOR = 'app=cs-no-pvc-sample';
const A = 'cs-no-pvc-sample-aaaaa';

/** A pod of another CloneSet in the same namespace (its own selector label, the instance-id label). */
function foreignPod(i: number): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `other-${i}`,
      namespace: NAMESPACE,
      uid: `other-uid-${i}`,
      resourceVersion: '1',
      labels: { app: 'other', [LABEL_INSTANCE_ID]: `o${i}` },
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'other',
          uid: 'other-uid',
          controller: true,
        },
      ],
    },
    spec: { containers: [{ name: 'main', image: 'other:1' }] },
  };
}

/** The seed settled (2 Ready pods, status written), with 3 pods of another CloneSet beside it. */
async function settled(): Promise<Harness> {
  const h = harness();
  h.kube.apply(seedCloneSet());
  await reconcileCloneSet(h.deps(), REQUEST);
  h.kube.kubelet();
  h.clock.now += 30_000;
  await reconcileCloneSet(h.deps(), REQUEST);
  for (let i = 0; i < 3; i++) h.kube.pods.set(`other-${i}`, foreignPod(i));
  h.journal.length = 0;
  return h;
}

const KEY = { cluster: REQUEST.cluster, kind: REQUEST.kind, namespace: NAMESPACE, name: REQUEST.name };
const PVC = 'data-cs-no-pvc-sample-zzzzz';
const TEMPLATE = {
  metadata: { name: 'data' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
};

/** A PVC owned by the seed CloneSet, of an instance no pod has. */
function ownedPVC(h: Harness): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: PVC,
      namespace: NAMESPACE,
      uid: 'pvc-zzzzz',
      resourceVersion: '1',
      labels: { app: 'cs-no-pvc-sample', [LABEL_INSTANCE_ID]: 'zzzzz' },
      ownerReferences: h.kube.pods.get(A)?.metadata.ownerReferences ?? [],
    },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  };
}

/** Store `e` as the CloneSet's expectations, under a lease of its own. */
async function storeExpectations(h: Harness, e: Expectations): Promise<void> {
  const lease = await h.stores.leases.acquire(KEY, 'setup', 1000, h.clock.now);
  if (!lease.acquired) throw new Error('setup could not take the lease');
  await h.stores.expectations.put(lease.lease, e);
  await h.stores.leases.release(lease.lease);
}

async function reconcileWith(h: Harness, reason: ReconcileReason, reads: string[]) {
  const deps = h.deps();
  return reconcileCloneSet({ ...deps, kube: recordingReads(deps.kube, reads) }, { ...REQUEST, reason });
}

describe('readScopeFor', () => {
  test('a requeue reads by selector; every observed change what the CloneSet owns; the resync that and every PVC', () => {
    expect(
      (['Resync', 'Requeue', 'ObjectChanged', 'OwnedObjectChanged', 'MappedObjectChanged'] as const).map(
        readScopeFor,
      ),
    ).toEqual(['full', 'selector', 'owned', 'owned', 'owned']);
  });
});

describe('the reads of one pass', () => {
  test('a no-op requeue of a CloneSet without volumeClaimTemplates: 3 reads, pods by selector, no PVC list', async () => {
    const h = await settled();
    const reads: string[] = [];
    const out = await reconcileWith(h, 'Requeue', reads);
    expect(out).toEqual({ result: 'reconciled', passes: 1, writes: 0, plan: out.plan });
    expect(reads).toEqual([
      'get clonesets cs-no-pvc-sample',
      `list pods ${SELECTOR}`,
      `list controllerrevisions ${SELECTOR}`,
    ]);
    expect(h.journal).toEqual(['lease.acquire', 'expectations.get', 'ledger.get', 'lease.release']);
  });

  test('a pod change reads every pod of the namespace (kept only when owned, whatever their labels), and its PVCs once the CloneSet is not known to own none', async () => {
    const h = await settled();
    expect((await h.stores.expectations.get(KEY)).ownsClaims).toBe(false);
    const reads: string[] = [];
    const out = await reconcileWith(h, 'OwnedObjectChanged', reads);
    expect(out.writes).toBe(0);
    expect(reads).toEqual([
      'get clonesets cs-no-pvc-sample',
      'list pods (all)',
      `list controllerrevisions ${SELECTOR}`,
    ]);
    expect(out.plan?.status.replicas).toBe(2);

    // an item written before the flag was kept: not known, so listed, then stored
    await storeExpectations(h, { creates: [], deletes: [], updates: [] });
    reads.length = 0;
    h.journal.length = 0;
    await reconcileWith(h, 'OwnedObjectChanged', reads);
    expect(reads).toEqual([
      'get clonesets cs-no-pvc-sample',
      'list pods (all)',
      'list persistentvolumeclaims (all)',
      `list controllerrevisions ${SELECTOR}`,
    ]);
    // stored at the pass's end, since nothing else of it stored the expectations
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'ledger.get',
      'expectations.put (none)',
      'lease.release',
    ]);
    expect(await h.stores.expectations.get(KEY)).toEqual({
      creates: [],
      deletes: [],
      updates: [],
      ownsClaims: false,
      ownerUid: 'cs-uid',
    });
  });

  test('PVCs of a removed template are listed on each change until a complete read finds none of them', async () => {
    const h = await settled();
    const cs = seedCloneSet();
    cs.spec.volumeClaimTemplates = [TEMPLATE];
    h.kube.apply(cs);
    // a template sets the flag before anything could create a PVC
    await reconcileWith(h, 'ObjectChanged', []);
    expect((await h.stores.expectations.get(KEY)).ownsClaims).toBe(true);
    h.kube.pvcs.set(PVC, ownedPVC(h));
    h.kube.apply(seedCloneSet()); // the template removed
    const reads: string[] = [];
    await reconcileWith(h, 'OwnedObjectChanged', reads);
    expect(reads).toContain('list persistentvolumeclaims (all)');
    expect((await h.stores.expectations.get(KEY)).ownsClaims).toBe(true);

    h.kube.pvcs.delete(PVC);
    reads.length = 0;
    await reconcileWith(h, 'OwnedObjectChanged', reads);
    expect(reads).toContain('list persistentvolumeclaims (all)');
    expect((await h.stores.expectations.get(KEY)).ownsClaims).toBe(false);

    reads.length = 0;
    await reconcileWith(h, 'OwnedObjectChanged', reads);
    expect(reads).not.toContain('list persistentvolumeclaims (all)');
  });

  test('volumeClaimTemplates make the timers list PVCs too', async () => {
    const h = await settled();
    const cs = seedCloneSet();
    cs.spec.volumeClaimTemplates = [TEMPLATE];
    h.kube.apply(cs);
    const reads: string[] = [];
    await reconcileWith(h, 'Requeue', reads);
    expect(reads.slice(0, 4)).toEqual([
      'get clonesets cs-no-pvc-sample',
      `list pods ${SELECTOR}`,
      'list persistentvolumeclaims (all)',
      `list controllerrevisions ${SELECTOR}`,
    ]);
  });

  test('pending expectations make the timers list PVCs (a pending PVC delete must be observed, not assumed)', async () => {
    const h = await settled();
    await storeExpectations(h, {
      creates: [],
      deletes: [{ name: 'data-cs-no-pvc-sample-zzzzz', uid: 'pvc-uid', at: h.clock.now }],
      updates: [],
    });
    const reads: string[] = [];
    await reconcileWith(h, 'Requeue', reads);
    expect(reads).toEqual([
      'get clonesets cs-no-pvc-sample',
      `list pods ${SELECTOR}`,
      'list persistentvolumeclaims (all)',
      `list controllerrevisions ${SELECTOR}`,
    ]);
  });

  test.each(['OwnedObjectChanged', 'Resync'] as const)(
    'a pod relabelled out of the selector is released by a %s pass (a requeue, reading by selector, cannot see it)',
    async (reason) => {
      const h = await settled();
      const pod = h.kube.pods.get(A);
      if (!pod) throw new Error(`no pod ${A}`);
      pod.metadata.labels = { ...pod.metadata.labels, app: 'elsewhere' };
      const releases = () => h.journal.filter((l) => l.startsWith(`patch pod ${A}`));

      await reconcileWith(h, 'Requeue', []);
      expect(releases()).toEqual([]);

      await reconcileWith(h, reason, []);
      expect(releases()).toEqual([`patch pod ${A}`]);
      expect(h.kube.pods.get(A)?.metadata.ownerReferences ?? []).toEqual([]);
    },
  );

  test('a resync lists the PVCs even without volumeClaimTemplates: an owned PVC left by a removed template is deleted (disablePVCReuse)', async () => {
    const h = await settled();
    const cs = seedCloneSet();
    cs.spec.scaleStrategy = { disablePVCReuse: true };
    h.kube.apply(cs);
    // given to the CloneSet by someone else: no change of the CloneSet's own would list it (ownsClaims false)
    h.kube.pvcs.set(PVC, ownedPVC(h));
    await reconcileWith(h, 'OwnedObjectChanged', []);
    expect(h.kube.pvcs.has(PVC)).toBe(true);
    h.journal.length = 0;
    const reads: string[] = [];
    await reconcileWith(h, 'Resync', reads);
    // the pass that deletes it, then the one that finds nothing left to do, with the first one's CloneSet
    // (lib/kube/keptObject.ts: no mark said it changed) and revisions (lib/kube/reusedLists.ts: no write of them since)
    const lists = ['list pods (all)', 'list persistentvolumeclaims (all)'];
    expect(reads).toEqual([
      'get clonesets cs-no-pvc-sample',
      ...lists,
      `list controllerrevisions ${SELECTOR}`,
      ...lists,
    ]);
    expect(h.journal.filter((l) => l.includes('zzzzz'))).toEqual([
      'expectations.put deletes[data-cs-no-pvc-sample-zzzzz]',
      'delete persistentvolumeclaim data-cs-no-pvc-sample-zzzzz',
    ]);
    expect(h.kube.pvcs.has('data-cs-no-pvc-sample-zzzzz')).toBe(false);
  });
});

/** A pod of some other workload in the namespace (a ReplicaSet's), about the size of a small real pod. */
function otherWorkloadPod(i: number): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `shop-7d4b9c-${String(i).padStart(5, '0')}`,
      namespace: NAMESPACE,
      uid: `shop-uid-${i}`,
      resourceVersion: '1',
      labels: { app: 'shop', 'pod-template-hash': '7d4b9c' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'shop-7d4b9c', uid: 'rs-uid', controller: true },
      ],
    },
    spec: {
      nodeName: 'node-1',
      containers: [
        { name: 'shop', image: 'registry.example.com/shop:2.4.1', ports: [{ containerPort: 8080 }] },
      ],
    },
    status: { phase: 'Running', podIP: `10.0.${i >> 8}.${i & 255}` },
  };
}

/** `kube` with every LIST recorded as `[<plural> <labelSelector> limit=<n> continue=<c>, items, bytes]`. */
function meteredLists(kube: KubeClient, lists: [string, number, number][]): KubeClient {
  return {
    ...recordingReads(kube, []),
    list: async (resource, options) => {
      const listed = await kube.list(resource, options);
      lists.push([
        `${resource.plural} ${options?.labelSelector ?? '(all)'} limit=${options?.limit ?? '-'} continue=${options?.continue ?? '-'}`,
        listed.items.length,
        Buffer.byteLength(JSON.stringify(listed)),
      ]);
      return listed;
    },
  };
}

describe('the reads of one pass beside 5,000 foreign pods (finding 11)', () => {
  async function beside5000(reason: ReconcileReason): Promise<[string, number, number][]> {
    const h = await settled();
    for (let i = 0; i < 5000; i++) {
      const pod = otherWorkloadPod(i);
      h.kube.pods.set(pod.metadata.name ?? '', pod);
    }
    const lists: [string, number, number][] = [];
    const deps = h.deps();
    const out = await reconcileCloneSet(
      { ...deps, kube: meteredLists(deps.kube, lists) },
      { ...REQUEST, reason },
    );
    expect([out.result, out.writes, out.plan?.status.replicas]).toEqual(['reconciled', 0, 2]);
    return lists;
  }

  test('a pod change lists the namespace in pages of 500 (11 LISTs, no page over 500 pods), keeping the 2 owned', async () => {
    const lists = await beside5000('OwnedObjectChanged');
    const pages = lists.filter(([what]) => what.startsWith('pods '));
    expect(pages.map(([what, items]) => [what, items])).toEqual(
      Array.from({ length: 11 }, (_, i) => [
        `pods (all) limit=500 continue=${i === 0 ? '-' : String(i * 500)}`,
        i === 10 ? 5 : 500, // the 5,000 foreign pods, the 3 of the other CloneSet and the 2 owned: 5,005
      ]),
    );
    const bytes = pages.reduce((n, [, , b]) => n + b, 0);
    expect(Math.max(...pages.map(([, , b]) => b))).toBeLessThan(250_000);
    expect(bytes).toBe(BYTES_OWNED_SCOPE);
    expect(lists.filter(([what]) => !what.startsWith('pods ')).map(([what, items]) => [what, items])).toEqual(
      // no PVC LIST: the settled CloneSet's last complete read found none it owns (ownsClaims false)
      [[`controllerrevisions ${SELECTOR} limit=- continue=-`, 1]],
    );
  });

  test('a requeue (the no-op timer) lists only the CloneSet own pods: 1 LIST of 2 pods, whatever the namespace holds', async () => {
    const lists = await beside5000('Requeue');
    expect(lists.map(([what, items]) => [what, items])).toEqual([
      [`pods ${SELECTOR} limit=- continue=-`, 2],
      [`controllerrevisions ${SELECTOR} limit=- continue=-`, 1],
    ]);
    expect(lists[0][2]).toBe(BYTES_SELECTOR_SCOPE);
  });
});

/**
 * Response bytes of the pods LISTs of one pass beside 5,000 foreign pods (JSON as the fake server returns it; the two
 * owned pods' container statuses report their resources, as the fake kubelet does).
 */
const BYTES_OWNED_SCOPE = 2_484_379;
const BYTES_SELECTOR_SCOPE = 3_571;
