/**
 * What one pass lists (lib/controllers/cloneset/pass.ts `readWorld`, docs/architecture.md#reads): by the CloneSet's selector
 * on the timers, every instance-labelled object on a change; PVCs only when they can matter. The reads are
 * recorded in order with their label selectors, through a wrapper that passes every call on to the recording API
 * server unchanged.
 */
import type { KubeClient } from '../../../../../lib/kube/types.js';
import { LABEL_INSTANCE_ID } from '../../../../../lib/api/keys.js';
import type { Pod } from '../../../../../lib/api/types.js';
import type { ReconcileReason } from '../../../../../lib/requests/index.js';
import { reconcileCloneSet } from '../../../../../lib/controllers/cloneset/index.js';
import { readScopeFor } from '../../../../../lib/controllers/cloneset/pass.js';
import { harness, NAMESPACE, REQUEST, seedCloneSet, type Harness } from './support/harness.js';

const SELECTOR = 'app=cs-no-pvc-sample';
const A = 'cs-no-pvc-sample-aaaaa';

/** `kube` with every get recorded as `get <plural> <name>` and every list as `list <plural> <labelSelector>`. */
function recordingReads(kube: KubeClient, reads: string[]): KubeClient {
  return {
    create: (resource, object) => kube.create(resource, object),
    replace: (resource, object, options) => kube.replace(resource, object, options),
    patch: (resource, ref, patch, options) => kube.patch(resource, ref, patch, options),
    delete: (resource, ref, preconditions) => kube.delete(resource, ref, preconditions),
    recordEvent: (resource, object, event, options) => kube.recordEvent(resource, object, event, options),
    get: (resource, ref) => {
      reads.push(`get ${resource.plural} ${ref.name}`);
      return kube.get(resource, ref);
    },
    list: (resource, options) => {
      reads.push(`list ${resource.plural} ${options?.labelSelector ?? '(all)'}`);
      return kube.list(resource, options);
    },
  };
}

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

async function reconcileWith(h: Harness, reason: ReconcileReason, reads: string[]) {
  const deps = h.deps();
  return reconcileCloneSet({ ...deps, kube: recordingReads(deps.kube, reads) }, { ...REQUEST, reason });
}

describe('readScopeFor', () => {
  test('the timers read by selector, every observed change reads what the CloneSet owns', () => {
    expect(
      (['Resync', 'Requeue', 'ObjectChanged', 'OwnedObjectChanged', 'MappedObjectChanged'] as const).map(
        readScopeFor,
      ),
    ).toEqual(['selector', 'selector', 'owned', 'owned', 'owned']);
  });
});

describe('the reads of one pass', () => {
  test('a no-op resync of a CloneSet without volumeClaimTemplates: 3 reads, pods by selector, no PVC list', async () => {
    const h = await settled();
    const reads: string[] = [];
    const out = await reconcileWith(h, 'Resync', reads);
    expect(out).toEqual({ result: 'reconciled', passes: 1, writes: 0, plan: out.plan });
    expect(reads).toEqual([
      'get clonesets cs-no-pvc-sample',
      `list pods ${SELECTOR}`,
      `list controllerrevisions ${SELECTOR}`,
    ]);
    expect(h.journal).toEqual(['lease.acquire', 'expectations.get', 'ledger.get', 'lease.release']);
  });

  test('a pod change reads every pod and PVC of the namespace (kept only when owned, whatever their labels)', async () => {
    const h = await settled();
    const reads: string[] = [];
    const out = await reconcileWith(h, 'OwnedObjectChanged', reads);
    expect(out.writes).toBe(0);
    expect(reads).toEqual([
      'get clonesets cs-no-pvc-sample',
      'list pods (all)',
      'list persistentvolumeclaims (all)',
      `list controllerrevisions ${SELECTOR}`,
    ]);
    expect(out.plan?.status.replicas).toBe(2);
  });

  test('volumeClaimTemplates make the timers list PVCs too', async () => {
    const h = await settled();
    const cs = seedCloneSet();
    cs.spec.volumeClaimTemplates = [
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ];
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
    const lease = await h.stores.leases.acquire(
      { cluster: REQUEST.cluster, kind: REQUEST.kind, namespace: NAMESPACE, name: REQUEST.name },
      'setup',
      1000,
      h.clock.now,
    );
    if (!lease.acquired) throw new Error('setup could not take the lease');
    await h.stores.expectations.put(lease.lease, {
      creates: [],
      deletes: [{ name: 'data-cs-no-pvc-sample-zzzzz', uid: 'pvc-uid', at: h.clock.now }],
      updates: [],
    });
    await h.stores.leases.release(lease.lease);
    const reads: string[] = [];
    await reconcileWith(h, 'Resync', reads);
    expect(reads).toEqual([
      'get clonesets cs-no-pvc-sample',
      `list pods ${SELECTOR}`,
      'list persistentvolumeclaims (all)',
      `list controllerrevisions ${SELECTOR}`,
    ]);
  });

  test('a pod relabelled out of the selector is released on its own change, not by a timer that cannot see it', async () => {
    const h = await settled();
    const pod = h.kube.pods.get(A);
    if (!pod) throw new Error(`no pod ${A}`);
    pod.metadata.labels = { ...pod.metadata.labels, app: 'elsewhere' };
    const releases = () => h.journal.filter((l) => l.startsWith(`patch pod ${A}`));

    await reconcileWith(h, 'Resync', []);
    expect(releases()).toEqual([]);

    await reconcileWith(h, 'OwnedObjectChanged', []);
    expect(releases()).toEqual([`patch pod ${A}`]);
    expect(h.kube.pods.get(A)?.metadata.ownerReferences ?? []).toEqual([]);
  });
});
