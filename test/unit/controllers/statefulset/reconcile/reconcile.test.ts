/**
 * The Advanced StatefulSet reconcile invocation against the recording API server and the in-memory stores: the
 * ordered writes of OpenKruise's `UpdateStatefulSet` (revision → PVCs → pod → status → Events), with durable
 * expectations, PVC retention owner references and the failure conditions.
 */
import { reconcileStatefulSet } from '../../../../../lib/controllers/statefulset/index.js';
import { claimsPending } from '../../../../../lib/controllers/statefulset/pass.js';
import { RESOURCES } from '../../../../../lib/kube/resources.js';
import { internalError } from '../../cloneset/reconcile/support/recordingKube.js';
import { harness, REQUEST, webSet, type Harness } from './harness.js';

const REV = 'web-745866dcbc';

/** Reconcile, then let the fake kubelet make every pod Running and Ready; `rounds` times. */
async function rounds(h: Harness, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await reconcileStatefulSet(h.deps(), REQUEST);
    h.kube.kubelet();
    h.clock.now += 1000;
  }
}

describe('reconcileStatefulSet: OrderedReady scale 0 → 3 with a volumeClaimTemplate', () => {
  test('first invocation: revision, then the PVC and the pod of ordinal 0 with expectations first, its readiness condition, status, Events', async () => {
    const h = harness();
    h.apply(webSet());
    const out = await reconcileStatefulSet(h.deps(), REQUEST);
    expect({ ...out, plan: undefined }).toEqual({
      result: 'reconciled',
      passes: 2,
      writes: 6,
      plan: undefined,
    });
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      `create controllerrevision ${REV}`,
      'expectations.put creates[data-web-0,web-0]',
      'create persistentvolumeclaim data-web-0',
      'create pod web-0',
      // the pod-readiness controller's part: web-0's first KruisePodReady condition, in the pass that created it
      // (issue 17: upstream writes it at the sync web-0's watch event starts; a pass of its own here)
      'patch pod status web-0',
      'expectations.put creates[data-web-0,web-0] updates[web-0]',
      'replace statefulset status web',
      'event SuccessfulCreate: create Claim data-web-0 Pod web-0 in StatefulSet web success',
      'event SuccessfulCreate: create Pod web-0 in StatefulSet web successful',
      // the second pass sees web-0 Pending, its condition set: OrderedReady waits for it (its watch event brings
      // the next pass); the status counts it now
      'expectations.get',
      'expectations.put (none)',
      'replace statefulset status web',
      'lease.release',
    ]);
    expect(h.kube.pods.get('web-0')?.status?.conditions?.map((c) => [c.type, c.status])).toEqual([
      ['KruisePodReady', 'True'],
    ]);
    expect([...h.kube.pods.keys()]).toEqual(['web-0']);
    expect(h.requeues).toEqual([]);
  });

  test('a pass that observes the last create and makes the next stores the expectations once, in the create run', async () => {
    const h = harness();
    h.apply(webSet());
    // web-0 turns Ready while the first pass writes the status: the second pass of the invocation creates web-1
    let ready = false;
    h.kube.failOn((call) => {
      if (!ready && call === 'replace statefulset status web') {
        ready = true;
        h.kube.kubelet();
      }
      return undefined;
    });
    await reconcileStatefulSet(h.deps(), REQUEST);
    const created = h.journal.indexOf('create pod web-1');
    const second = h.journal.lastIndexOf('expectations.get', created);
    expect(h.journal.slice(second, created + 1)).toEqual([
      'expectations.get',
      // what it observed (web-0 and its claim seen) rides on the write before the creates: one write, not two
      'expectations.put creates[data-web-1,web-1]',
      'create persistentvolumeclaim data-web-1',
      'create pod web-1',
    ]);
  });

  test('one pod per invocation, each after the previous is Running and Ready; PVCs, pods and status exact', async () => {
    const h = harness();
    h.apply(webSet());
    await rounds(h, 3);
    expect([...h.kube.pods.keys()]).toEqual(['web-0', 'web-1', 'web-2']);
    expect(h.kube.events.map((e) => e.message)).toEqual([
      'create Claim data-web-0 Pod web-0 in StatefulSet web success',
      'create Pod web-0 in StatefulSet web successful',
      'create Claim data-web-1 Pod web-1 in StatefulSet web success',
      'create Pod web-1 in StatefulSet web successful',
      'create Claim data-web-2 Pod web-2 in StatefulSet web success',
      'create Pod web-2 in StatefulSet web successful',
    ]);
    const pvc = h.kube.pvcs.get('data-web-2');
    expect(pvc?.metadata.labels).toEqual({ app: 'web' });
    expect(pvc?.metadata.ownerReferences).toBeUndefined(); // Retain/Retain: no owner
    const pod = h.kube.pods.get('web-2');
    expect(pod?.metadata.labels).toEqual({
      app: 'web',
      'statefulset.kubernetes.io/pod-name': 'web-2',
      'apps.kubernetes.io/pod-index': '2',
      'controller-revision-hash': REV,
      'lifecycle.apps.kruise.io/state': 'Normal',
    });
    expect(pod?.spec.hostname).toBe('web-2');
    expect(pod?.spec.subdomain).toBe('web');
    expect(pod?.spec.volumes).toEqual([{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-2' } }]);
    await reconcileStatefulSet(h.deps(), REQUEST);
    expect(h.sets().get('web')?.status).toEqual({
      observedGeneration: 1,
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      updatedReadyReplicas: 3,
      updatedAvailableReplicas: 3,
      currentRevision: REV,
      updateRevision: REV,
      collisionCount: 0,
      labelSelector: 'app=web',
      // every replica's PVC matches the template; none is bound here (no capacity), so none is ready
      volumeClaims: [{ volumeClaimName: 'data', compatibleReplicas: 3, compatibleReadyReplicas: 0 }],
    });
  });

  test('Parallel creates every missing pod in one pass, each PVC before its pod', async () => {
    const h = harness();
    h.apply(webSet((s) => (s.spec.podManagementPolicy = 'Parallel')));
    await reconcileStatefulSet(h.deps(), REQUEST);
    expect(h.journal.slice(2, 10)).toEqual([
      `create controllerrevision ${REV}`,
      'expectations.put creates[data-web-0,web-0,data-web-1,web-1,data-web-2,web-2]',
      'create persistentvolumeclaim data-web-0',
      'create pod web-0',
      'create persistentvolumeclaim data-web-1',
      'create pod web-1',
      'create persistentvolumeclaim data-web-2',
      'create pod web-2',
    ]);
  });
});

/**
 * The API reads of each invocation, as `<verb> <resource>` (the recording kube journals writes only).
 * @returns the reads of every invocation run through `invoke`, one array per invocation
 */
function countingReads(h: Harness): { reads: string[][]; invoke: () => Promise<number> } {
  const reads: string[][] = [];
  const get = h.kube.get.bind(h.kube);
  const list = h.kube.list.bind(h.kube);
  const current = () => reads[reads.length - 1];
  h.kube.get = (resource, ref) => {
    current().push(`get ${resource.plural}`);
    return get(resource, ref);
  };
  h.kube.list = (resource, options) => {
    current().push(`list ${resource.plural}`);
    return list(resource, options);
  };
  return {
    reads,
    invoke: async () => {
      reads.push([]);
      return (await reconcileStatefulSet(h.deps(), REQUEST)).passes;
    },
  };
}

describe('reconcileStatefulSet: what an OrderedReady scale-up costs (issue 17)', () => {
  /** The bench's shape (bench/scenarios/workload.ts): no volumeClaimTemplates, the `InPlaceUpdateReady` gate. */
  const benchShape = () =>
    webSet((s) => {
      s.spec.volumeClaimTemplates = [];
      s.spec.template.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
    });

  test('scale 0 → 3: two passes per pod (create with its readiness conditions; then the status counting it), three reads and then two (the revisions answer reused), no PVC list', async () => {
    const h = harness();
    h.apply(benchShape());
    const { reads, invoke } = countingReads(h);
    const passes: number[] = [];
    // each invocation stands for the watch event of the previous pod turning Ready (the first: the set's create)
    for (let i = 0; i < 3; i++) {
      passes.push(await invoke());
      // the pod this invocation created has both readiness conditions already: nothing but the kubelet stands
      // between it and Ready (before issue 17 a third pass, or the pod's watch event, had to write them)
      expect(h.kube.pods.get(`web-${i}`)?.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual([
        'InPlaceUpdateReady=True',
        'KruisePodReady=True',
      ]);
      h.kube.kubelet();
      h.clock.now += 1000;
    }
    expect([...h.kube.pods.keys()]).toEqual(['web-0', 'web-1', 'web-2']);
    // before: [3, 3, 3] (create; the conditions; a pass that found nothing), and 2 PVC lists per invocation
    expect(passes).toEqual([2, 2, 2]);
    const pass = ['get statefulsets', 'list pods', 'list controllerrevisions'];
    // the second pass plans with the set as the first one's status write answered it (lib/kube/keptObject.ts: no
    // mark said it changed) and with the first one's revisions (lib/kube/reusedLists.ts) when no write of them came
    // since: not in the first invocation, whose first pass created the set's first revision
    expect(reads).toEqual([
      [...pass, 'list pods', 'list controllerrevisions'],
      [...pass, 'list pods'],
      [...pass, 'list pods'],
    ]);
    // one pods/status write per pod, both conditions in it
    expect(h.journal.filter((l) => l.startsWith('patch pod status'))).toEqual([
      'patch pod status web-0',
      'patch pod status web-1',
      'patch pod status web-2',
    ]);
  });
});

describe('reconcileStatefulSet: the readiness conditions of a Parallel scale-up (issue 17)', () => {
  /** Patches in flight at most while `run` runs (each patch yields once before it is applied). */
  async function maxInFlight(h: Harness, run: () => Promise<unknown>): Promise<number> {
    const patch = h.kube.patch.bind(h.kube);
    let now = 0;
    let max = 0;
    h.kube.patch = async (...args) => {
      max = Math.max(max, ++now);
      await new Promise((resolve) => setTimeout(resolve, 1));
      try {
        return await patch(...args);
      } finally {
        now--;
      }
    };
    await run();
    return max;
  }
  const parallel = () =>
    webSet((s) => {
      s.spec.podManagementPolicy = 'Parallel';
      s.spec.volumeClaimTemplates = [];
      s.spec.template.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
    });

  test('every new pod’s condition patch in flight together, after all creates, one write per pod', async () => {
    const h = harness();
    h.apply(parallel());
    expect(await maxInFlight(h, () => reconcileStatefulSet(h.deps(), REQUEST))).toBe(3);
    const writes = h.journal.filter((l) => /^(create|patch) pod/.test(l));
    expect(writes.slice(0, 3)).toEqual(['create pod web-0', 'create pod web-1', 'create pod web-2']);
    expect([...writes.slice(3)].sort()).toEqual([
      'patch pod status web-0',
      'patch pod status web-1',
      'patch pod status web-2',
    ]);
    for (const pod of h.kube.pods.values())
      expect(pod.status?.conditions?.map((c) => c.type)).toEqual(['InPlaceUpdateReady', 'KruisePodReady']);
  });

  test('writeConcurrency 1: one after the other', async () => {
    const h = harness();
    h.apply(parallel());
    expect(await maxInFlight(h, () => reconcileStatefulSet(h.deps({ writeConcurrency: 1 }), REQUEST))).toBe(
      1,
    );
  });
});

describe('claimsPending: whether a pass lists PVCs for its expectations', () => {
  const at = 0;
  test('pod creates, deletes and updates alone: no', () => {
    expect(
      claimsPending(
        {
          creates: [{ name: 'web-0', at }],
          deletes: [{ name: 'web-12', uid: 'u', at }],
          updates: [{ name: 'web-1', uid: 'u', resourceVersion: '7', at }],
        },
        'web',
      ),
    ).toBe(false);
  });
  test('a claim create pending (even after the templates were removed): yes; another set’s pod name: yes', () => {
    expect(claimsPending({ creates: [{ name: 'data-web-0', at }], deletes: [], updates: [] }, 'web')).toBe(
      true,
    );
    expect(claimsPending({ creates: [{ name: 'db-0', at }], deletes: [], updates: [] }, 'web')).toBe(true);
  });
});

describe('reconcileStatefulSet: persistentVolumeClaimRetentionPolicy', () => {
  test('whenDeleted Delete: each PVC is created with a (non-controller) owner reference to the set', async () => {
    const h = harness();
    h.apply(webSet((s) => (s.spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete' })));
    await rounds(h, 1);
    expect(h.kube.pvcs.get('data-web-0')?.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web', uid: 'sts-uid' },
    ]);
  });

  test('whenScaled Delete: a condemned pod owns its PVCs before it is deleted, highest ordinal first', async () => {
    const h = harness();
    h.apply(webSet((s) => (s.spec.persistentVolumeClaimRetentionPolicy = { whenScaled: 'Delete' })));
    await rounds(h, 3);
    h.apply(
      webSet((s) => {
        s.spec.replicas = 1;
        s.spec.persistentVolumeClaimRetentionPolicy = { whenScaled: 'Delete' };
      }),
    );
    h.journal.length = 0;
    await reconcileStatefulSet(h.deps(), REQUEST);
    expect(h.journal.filter((l) => !l.startsWith('expectations') && !l.startsWith('lease'))).toEqual([
      'patch persistentvolumeclaim data-web-2 {"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"web-2","uid":"uid-web-2"}]}}',
      'patch persistentvolumeclaim data-web-1 {"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"web-1","uid":"uid-web-1"}]}}',
      'delete pod web-2',
      'replace statefulset status web',
      'event SuccessfulDelete: delete Pod web-2 in StatefulSet web successful',
      // the next pass: web-1 still condemned, web-2 gone (the recording server deletes at once)
      'delete pod web-1',
      'replace statefulset status web',
      'event SuccessfulDelete: delete Pod web-1 in StatefulSet web successful',
      'replace statefulset status web',
    ]);
    for (const name of ['data-web-1', 'data-web-2'])
      expect(h.kube.pvcs.get(name)?.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'v1',
          kind: 'Pod',
          name: name.slice('data-'.length),
          uid: `uid-${name.slice('data-'.length)}`,
        },
      ]);
    expect(h.kube.pvcs.get('data-web-0')?.metadata.ownerReferences).toBeUndefined();
  });

  test('a Pending pod whose PVC was deleted gets the PVC created again', async () => {
    const h = harness();
    h.apply(webSet((s) => (s.spec.podManagementPolicy = 'Parallel')));
    await reconcileStatefulSet(h.deps(), REQUEST);
    h.kube.pvcs.delete('data-web-1');
    h.journal.length = 0;
    await reconcileStatefulSet(h.deps(), { ...REQUEST, reason: 'OwnedObjectChanged' });
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'expectations.put creates[data-web-1]',
      'create persistentvolumeclaim data-web-1',
      // status.volumeClaims counted 2 compatible claims from what was listed (3 stored)
      'replace statefulset status web',
      'event SuccessfulCreate: create Claim data-web-1 Pod web-1 in StatefulSet web success',
      'expectations.get',
      'expectations.put (none)',
      // and 3 again once the new claim is listed
      'replace statefulset status web',
      'lease.release',
    ]);
  });
});

describe('reconcileStatefulSet: ownership (upstream getPodsForStatefulSet)', () => {
  test('a set re-created over pods orphaned by `kubectl delete --cascade=orphan` adopts its members and creates none; a pod it controls that stopped matching is released', async () => {
    const h = harness();
    h.apply(webSet((s) => delete s.spec.volumeClaimTemplates));
    await rounds(h, 4);
    const made = [...h.kube.pods.values()].map((p) => [p.metadata.name, p.metadata.uid]);
    expect(made.map(([n]) => n)).toEqual(['web-0', 'web-1', 'web-2']);
    // delete --cascade=orphan: the garbage collector strips the references; the set is created again (new uid)
    for (const pod of h.kube.pods.values()) delete pod.metadata.ownerReferences;
    h.sets().delete('web');
    const again = h.apply(webSet((s) => delete s.spec.volumeClaimTemplates));
    h.sets().get('web')!.metadata.uid = 'sts-uid-2';
    expect(again.status).toBeUndefined();
    // a stranger: selected by the labels but not named web-<n>, and without a controller
    h.kube.pods.set('cache-0', {
      metadata: { name: 'cache-0', namespace: 'default', uid: 'cache-uid', labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    });
    h.journal.length = 0;
    await reconcileStatefulSet(h.deps(), REQUEST);
    const podWrites = h.journal.filter((l) => / pod /.test(l) && !l.startsWith('list'));
    expect(podWrites.filter((l) => l.startsWith('create'))).toEqual([]);
    expect(
      [...h.kube.pods.values()].map((p) => [
        p.metadata.name,
        p.metadata.uid,
        (p.metadata.ownerReferences ?? []).map((r) => `${r.kind}/${r.name}/${r.uid}/${r.controller}`),
      ]),
    ).toEqual([
      ...made.map(([n, uid]) => [n, uid, ['StatefulSet/web/sts-uid-2/true']]),
      ['cache-0', 'cache-uid', []],
    ]);
    expect(h.sets().get('web')?.status).toMatchObject({ replicas: 3, readyReplicas: 3 });

    // web-2 relabelled out of the selector: released, and its ordinal waits for the name (AlreadyExists)
    h.kube.pods.get('web-2')!.metadata.labels = { app: 'other' };
    h.journal.length = 0;
    await reconcileStatefulSet(h.deps(), REQUEST);
    expect(h.kube.pods.get('web-2')?.metadata.ownerReferences ?? []).toEqual([]);
  });
});

describe('reconcileStatefulSet: adoption recheck', () => {
  test('deleted with --cascade=orphan between the pass reading it and its pods: nothing adopted, nothing created', async () => {
    const h = harness();
    h.apply(webSet((s) => delete s.spec.volumeClaimTemplates));
    await rounds(h, 4);
    // orphaned once; the set created again (new uid) ...
    for (const pod of h.kube.pods.values()) delete pod.metadata.ownerReferences;
    h.sets().delete('web');
    h.apply(webSet((s) => delete s.spec.volumeClaimTemplates));
    h.sets().get('web')!.metadata.uid = 'sts-uid-2';
    // ... and deleted with --cascade=orphan once the pass has read it, before it lists the pods (a fault that fails
    // nothing: it sees each call before it runs)
    let deleted = false;
    h.kube.failOn((call) => {
      if (!deleted && call.startsWith('list pods')) {
        deleted = true;
        h.sets().get('web')!.metadata.deletionTimestamp = new Date(h.clock.now).toISOString();
      }
      return undefined;
    });
    h.journal.length = 0;
    const out = await reconcileStatefulSet(h.deps(), REQUEST);
    expect(deleted).toBe(true);
    // before the recheck the pass gave all three orphans the deleted set's reference: the garbage collector would
    // then delete them (upstream's ClaimPods rechecks the deletion timestamp with a quorum read first)
    // then upstream's claim fails the sync: nothing more; the next pass reads the set being deleted, claims nothing
    // and writes its status, as upstream's sync of a deleted set does
    expect(h.journal).toEqual([
      'lease.acquire',
      'expectations.get',
      'expectations.get',
      'replace statefulset status web',
      'lease.release',
    ]);
    expect([...h.kube.pods.values()].map((p) => p.metadata.ownerReferences ?? [])).toEqual([[], [], []]);
    expect(out.result).toBe('reconciled');
  });
});

describe('reconcileStatefulSet: failures', () => {
  test('a failed pod create: FailedCreate Event, FailedCreatePod condition, backoff', async () => {
    const h = harness();
    h.kube.failOn((call) =>
      call === 'create pod web-0' ? internalError('create pods default/web-0') : undefined,
    );
    h.apply(webSet());
    const out = await reconcileStatefulSet(h.deps(), REQUEST);
    const error = 'create pods default/web-0: 500 InternalError: etcd is unavailable';
    expect(out.error).toBe(error);
    const events = h.kube.events.map((e) => `${e.type} ${e.reason}: ${e.message}`);
    expect(events).toEqual([
      'Normal SuccessfulCreate: create Claim data-web-0 Pod web-0 in StatefulSet web success',
      `Warning FailedCreate: create Pod web-0 in StatefulSet web failed error: ${error}`,
    ]);
    expect(h.sets().get('web')?.status?.conditions).toEqual([
      {
        type: 'FailedCreatePod',
        status: 'True',
        lastTransitionTime: '2024-05-01T08:00:00Z',
        reason: '',
        message: `StatefulPodControl failed to create Pod error: ${error}`,
      },
    ]);
    // the create expectation of the pod was rolled back; the PVC's stays until it is listed
    expect(
      (await h.stores.expectations.get({ ...REQUEST, namespace: 'default' })).creates.map((c) => c.name),
    ).toEqual([]);
  });

  test('a pod name taken by a foreign pod: FailedCreatePod condition, the foreign pod untouched, retried with backoff', async () => {
    const h = harness();
    h.apply(webSet((s) => (s.spec.volumeClaimTemplates = [])));
    const foreign = {
      metadata: {
        name: 'web-0',
        namespace: 'default',
        uid: 'rs-pod-uid',
        labels: { app: 'other' },
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'other', uid: 'rs-uid', controller: true },
        ],
      },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    };
    h.kube.pods.set('web-0', structuredClone(foreign));
    const out = await reconcileStatefulSet(h.deps(), REQUEST);
    const error = 'create pod web-0: 409 AlreadyExists: pods "web-0" already exists';
    expect(out.error).toBe(error);
    // upstream sinks AlreadyExists Events: none is recorded; the condition says what failed
    expect(h.kube.events.map((e) => `${e.type} ${e.reason}`)).toEqual([]);
    expect(h.sets().get('web')?.status?.conditions).toEqual([
      {
        type: 'FailedCreatePod',
        status: 'True',
        lastTransitionTime: '2024-05-01T08:00:00Z',
        reason: '',
        message: `StatefulPodControl failed to create Pod error: ${error}`,
      },
    ]);
    expect([...h.kube.pods.values()]).toEqual([foreign]);
    expect(h.journal.filter((l) => /^(delete|patch|update) pod/.test(l))).toEqual([]);
    expect(h.requeues).toHaveLength(1);
    expect(h.requeues[0]).toBeGreaterThan(0);
    // OrderedReady: nothing past ordinal 0 is created while it cannot be
    expect((await reconcileStatefulSet(h.deps(), REQUEST)).error).toBe(error);
    expect([...h.kube.pods.keys()]).toEqual(['web-0']);
  });

  test('the condition lives as upstream’s status does: written only with a status change, gone at the next', async () => {
    const h = harness();
    let failing = true;
    h.kube.failOn((call) =>
      failing && call === 'create pod web-0' ? internalError('create pods default/web-0') : undefined,
    );
    // no claims: a claim made before the failed pod would change status.volumeClaims on the retry
    h.apply(webSet((s) => delete s.spec.volumeClaimTemplates));
    await reconcileStatefulSet(h.deps(), REQUEST);
    expect(
      h
        .sets()
        .get('web')
        ?.status?.conditions?.map((c) => c.type),
    ).toEqual(['FailedCreatePod']);
    // the retry fails the same way and changes no count: upstream's inconsistentStatus is false, nothing written
    h.journal.length = 0;
    h.clock.now += 60_000;
    await reconcileStatefulSet(h.deps(), REQUEST);
    expect(h.journal.filter((l) => l.includes('statefulset status'))).toEqual([]);
    // once the pod is made and counted, the status is written anew, without the condition
    failing = false;
    for (let i = 0; i < 2; i++) {
      await reconcileStatefulSet(h.deps(), REQUEST);
      h.kube.kubelet();
    }
    expect(h.sets().get('web')?.status?.replicas).toBeGreaterThan(0);
    expect(h.sets().get('web')?.status?.conditions).toBeUndefined();
  });

  test('an invalid spec: FailedValidation condition and Warning Event, nothing else written', async () => {
    const h = harness();
    h.apply(webSet((s) => (s.spec.selector = { matchLabels: { app: 'other' } })));
    const out = await reconcileStatefulSet(h.deps(), REQUEST);
    expect(out.writes).toBe(1);
    expect(h.journal.filter((l) => !l.startsWith('expectations') && !l.startsWith('lease'))).toEqual([
      'replace statefulset status web',
      expect.stringMatching(
        /^event FailedValidation: StatefulSet is invalid: spec\.template\.metadata\.labels/,
      ),
    ]);
    expect(h.kube.pods.size).toBe(0);
    // a second invocation finds the same condition: no write, no Event
    h.journal.length = 0;
    expect((await reconcileStatefulSet(h.deps(), REQUEST)).writes).toBe(0);
  });
});

describe('reconcileStatefulSet: image pre-download (gates PreDownloadImageForInPlaceUpdate, KruiseDaemon)', () => {
  const PRE_DOWNLOAD = { preDownloadImageForInPlaceUpdate: true };
  /** `web` at 4 Ready replicas, InPlaceIfPossible, partition 2, maxUnavailable 1; then the image changed. */
  async function rolled(options: Record<string, boolean>, serve = true): Promise<Harness> {
    const h = harness();
    if (serve) h.kube.serve(RESOURCES.imagepulljobs);
    const set = (image: string) =>
      webSet((s) => {
        s.spec.replicas = 4;
        s.spec.podManagementPolicy = 'Parallel';
        s.spec.volumeClaimTemplates = [];
        s.metadata.annotations = { 'apps.kruise.io/image-predownload-parallelism': '2' };
        s.spec.template.spec.containers[0].image = image;
        s.spec.template.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
        s.spec.updateStrategy = {
          type: 'RollingUpdate',
          rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', partition: 2, maxUnavailable: 1 },
        };
      });
    h.apply(set('nginx:1.25-alpine'));
    for (let i = 0; i < 3; i++) {
      await reconcileStatefulSet(h.deps({ options }), REQUEST);
      h.kube.kubelet();
      h.clock.now += 1000;
    }
    h.apply(set('nginx:1.26-alpine'));
    h.journal.length = 0;
    h.kube.events = [];
    await reconcileStatefulSet(h.deps({ options }), REQUEST);
    return h;
  }

  test('a new in-place revision: one ImagePullJob per changed image, the revision labelled, CreatedImagePullJob, before the pods', async () => {
    const h = await rolled(PRE_DOWNLOAD);
    const update = [...h.kube.objects(RESOURCES.controllerrevisions).values()].find(
      (r) => r.metadata.labels?.['apps.kruise.io/pre-predownload-created'] === 'true',
    );
    const updateName = update?.metadata.name ?? '';
    expect(updateName).toMatch(/^web-[0-9a-z]+$/);
    const hash = update?.metadata.labels?.['controller.kubernetes.io/hash'];
    const writes = h.journal.filter((l) => /^(create|patch|delete) /.test(l));
    expect(writes.slice(0, 4)).toEqual([
      `create controllerrevision ${updateName}`,
      `create imagepulljob ${updateName}-nginx`,
      `patch controllerrevision ${updateName} {"metadata":{"labels":{"apps.kruise.io/pre-predownload-created":"true"}}}`,
      'patch pod status web-3',
    ]);
    expect(
      [...h.kube.objects(RESOURCES.imagepulljobs).values()].map((j) => ({
        ...j,
        metadata: { ...j.metadata, resourceVersion: undefined, uid: undefined, creationTimestamp: undefined },
      })),
    ).toEqual([
      {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'ImagePullJob',
        metadata: {
          namespace: 'default',
          name: `${updateName}-nginx`,
          labels: { app: 'web', 'controller.kubernetes.io/hash': hash },
          ownerReferences: [
            {
              apiVersion: 'apps.kruise.io/v1beta1',
              kind: 'StatefulSet',
              name: 'web',
              uid: 'sts-uid',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
          resourceVersion: undefined,
          uid: undefined,
          creationTimestamp: undefined,
        },
        spec: {
          image: 'nginx:1.26-alpine',
          podSelector: {
            matchLabels: { app: 'web' },
            matchExpressions: [
              { key: 'controller-revision-hash', operator: 'NotIn', values: [updateName, hash] },
            ],
          },
          parallelism: 2,
          pullPolicy: { backoffLimit: 1, timeoutSeconds: 300 },
          completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
          sandboxConfig: { labels: { app: 'web', 'controller.kubernetes.io/hash': hash } },
          imagePullPolicy: 'IfNotPresent',
        },
      },
    ]);
    expect(h.kube.events.filter((e) => e.reason === 'CreatedImagePullJob')).toEqual([
      {
        type: 'Normal',
        reason: 'CreatedImagePullJob',
        message: `created ImagePullJob ${updateName}-nginx for image: nginx:1.26-alpine`,
      },
    ]);
  });

  test('once every pod is at the update revision, the jobs the set controls are deleted', async () => {
    const h = await rolled(PRE_DOWNLOAD);
    const sets = h.sets();
    const set = sets.get('web')!;
    set.spec.updateStrategy!.rollingUpdate!.partition = 0;
    h.apply(set);
    for (let i = 0; i < 8; i++) {
      await reconcileStatefulSet(h.deps({ options: PRE_DOWNLOAD }), REQUEST);
      h.kube.kubelet();
      h.clock.now += 1000;
    }
    expect(h.sets().get('web')?.status?.currentRevision).toBe(h.sets().get('web')?.status?.updateRevision);
    expect(h.journal.filter((l) => l.startsWith('delete imagepulljob'))).toEqual([
      expect.stringMatching(/^delete imagepulljob web-[0-9a-z]+-nginx$/),
    ]);
    expect(h.kube.objects(RESOURCES.imagepulljobs).size).toBe(0);
  });

  test('gate off, KruiseDaemon off or the resource not served: no job, no label, no Warning', async () => {
    for (const h of [
      await rolled({}),
      await rolled({ ...PRE_DOWNLOAD, kruiseDaemon: false }),
      await rolled(PRE_DOWNLOAD, false),
    ]) {
      expect(h.journal.filter((l) => /imagepulljob|patch controllerrevision/.test(l))).toEqual([]);
      expect(h.kube.events.filter((e) => e.type === 'Warning')).toEqual([]);
    }
  });
});

describe('reconcileStatefulSet: PVC resize (volumeClaimUpdateStrategy OnPodRollingUpdate, StatefulSetAutoResizePVCGate)', () => {
  test('the claim of the highest ordinal is patched, SuccessfulResize recorded, the pod kept until it has grown', async () => {
    const h = harness();
    const sized = (size: string, image: string) =>
      webSet((s) => {
        s.spec.podManagementPolicy = 'Parallel';
        s.spec.volumeClaimUpdateStrategy = { type: 'OnPodRollingUpdate' };
        s.spec.template.spec.containers[0].image = image;
        s.spec.volumeClaimTemplates = [
          {
            metadata: { name: 'data' },
            spec: {
              accessModes: ['ReadWriteOnce'],
              storageClassName: 'expandable',
              resources: { requests: { storage: size } },
            },
          },
        ];
      });
    h.kube
      .objects(RESOURCES.storageclasses)
      .set('expandable', { metadata: { name: 'expandable' }, allowVolumeExpansion: true });
    h.apply(sized('1Gi', 'nginx:1.25-alpine'));
    const deps = () => h.deps({ options: { statefulSetAutoResizePVCGate: true } });
    for (let i = 0; i < 2; i++) {
      await reconcileStatefulSet(deps(), REQUEST);
      h.kube.kubelet();
    }
    // the provisioner bound each claim at its request
    for (const pvc of h.kube.pvcs.values()) pvc.status = { phase: 'Bound', capacity: { storage: '1Gi' } };
    h.apply(sized('2Gi', 'nginx:1.26-alpine'));
    h.journal.length = 0;
    h.kube.events.length = 0;
    await reconcileStatefulSet(deps(), REQUEST);
    expect(h.journal.filter((l) => l.includes('persistentvolumeclaim'))).toEqual([
      `patch persistentvolumeclaim data-web-2 {"spec":{"resources":{"requests":{"storage":"2Gi"}}},"metadata":{"annotations":{"apps.kruise.io/owned-by-asts":"web"}}}`,
    ]);
    expect(h.kube.pvcs.get('data-web-2')?.spec).toMatchObject({
      resources: { requests: { storage: '2Gi' } },
    });
    expect(h.kube.events.map((e) => `${e.type} ${e.reason}: ${e.message}`)).toEqual([
      'Normal SuccessfulResize: resize Claim data-web-2 Pod web-2 in StatefulSet web success',
    ]);
    expect([...h.kube.pods.keys()]).toEqual(['web-0', 'web-1', 'web-2']);
  });
});

describe('reconcileStatefulSet: in-place cpu/memory change (InPlaceWorkloadVerticalScaling)', () => {
  test('each pod resized through pods/resize, then patched to the new revision, highest ordinal first', async () => {
    const h = harness();
    const sized = (cpu: string) =>
      webSet((s) => {
        s.spec.podManagementPolicy = 'Parallel';
        s.spec.volumeClaimTemplates = [];
        s.spec.updateStrategy = {
          type: 'RollingUpdate',
          rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' },
        };
        s.spec.template.spec.containers[0].resources = { requests: { cpu, memory: '64Mi' } };
        s.spec.template.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
      });
    h.apply(sized('100m'));
    const deps = () => h.deps({ options: { inPlaceWorkloadVerticalScaling: true } });
    const bodies: string[] = [];
    const patch = h.kube.patch.bind(h.kube);
    h.kube.patch = (resource, ref, change, options = {}) => {
      if (resource.plural === 'pods' && options.subresource !== 'status')
        bodies.push(`${options.subresource ?? 'pod'} ${ref.name} ${JSON.stringify(change.body)}`);
      return patch(resource, ref, change, options);
    };
    await rounds(h, 2);
    const uids = [...h.kube.pods.values()].map((p) => p.metadata.uid);
    h.apply(sized('150m'));
    h.journal.length = 0;
    h.kube.events.length = 0;
    for (let i = 0; i < 6; i++) {
      await reconcileStatefulSet(deps(), REQUEST);
      h.kube.kubelet();
      h.clock.now += 1000;
    }
    const podWrites = h.journal.filter((l) => l.startsWith('patch pod') && !l.startsWith('patch pod status'));
    // resize, the in-place patch (revision, lifecycle Updating, state), and once the kubelet reports the new
    // resources (the update is complete) the lifecycle back to Normal; one pod after the other
    expect(podWrites).toEqual(
      ['web-2', 'web-1', 'web-0'].flatMap((n) => [
        `patch pod resize ${n}`,
        `patch pod ${n}`,
        `patch pod ${n}`,
      ]),
    );
    expect(bodies.filter((b) => b.startsWith('resize '))).toEqual(
      ['web-2', 'web-1', 'web-0'].map(
        (n) =>
          `resize ${n} {"spec":{"containers":[{"name":"nginx","resources":{"requests":{"cpu":"150m"}}}]}}`,
      ),
    );
    // the pod patch carries the revision and the state, never the resources
    expect(bodies.filter((b) => b.startsWith('pod ')).every((b) => !b.includes('"resources"'))).toBe(true);
    expect(h.kube.events.map((e) => `${e.type} ${e.reason}`)).toEqual([
      'Normal SuccessfulUpdatePodInPlace',
      'Normal SuccessfulUpdatePodInPlace',
      'Normal SuccessfulUpdatePodInPlace',
    ]);
    const pods = [...h.kube.pods.values()];
    expect(pods.map((p) => p.metadata.uid)).toEqual(uids);
    expect(pods.map((p) => p.spec.containers[0].resources)).toEqual(
      pods.map(() => ({ requests: { cpu: '150m', memory: '64Mi' } })),
    );
    const set = h.sets().get('web')!;
    expect(set.status).toMatchObject({ updatedReplicas: 3, currentRevision: set.status?.updateRevision });
  });
  /** Set `web` of one Parallel pod, cpu `cpu`, in-place updates. */
  const oneSized = (cpu: string) =>
    webSet((s) => {
      s.spec.podManagementPolicy = 'Parallel';
      s.spec.replicas = 1;
      s.spec.volumeClaimTemplates = [];
      s.spec.updateStrategy = {
        type: 'RollingUpdate',
        rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' },
      };
      s.spec.template.spec.containers[0].resources = { requests: { cpu, memory: '64Mi' } };
      s.spec.template.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
    });

  /**
   * web-0 at 100m, then the set at 150m; `onWrite` sees each pod write line before it is applied (the kubelet's
   * status write racing it). Returns the invocation's outcome and journal.
   */
  async function resizeRacing(onWrite: (call: string, h: Harness) => void) {
    const h = harness();
    h.apply(oneSized('100m'));
    const deps = () => h.deps({ options: { inPlaceWorkloadVerticalScaling: true } });
    await rounds(h, 2);
    h.apply(oneSized('150m'));
    h.journal.length = 0;
    h.kube.events.length = 0;
    h.kube.failOn((call) => {
      onWrite(call, h);
      return undefined;
    });
    const out = await reconcileStatefulSet(deps(), REQUEST);
    return { h, out };
  }

  /** The kubelet writes web-0's status once, just before the write `line` reaches the API server. */
  function kubeletWritesBefore(line: string) {
    let done = false;
    return (call: string, h: Harness) => {
      if (done || call !== line) return;
      done = true;
      const pod = h.kube.pods.get('web-0')!;
      pod.status = { ...pod.status, conditions: [...(pod.status?.conditions ?? [])] };
      pod.metadata.resourceVersion = h.kube.advanceResourceVersion();
    };
  }

  test('a pods/resize answered 409 (the kubelet wrote the status meanwhile): re-read and retried within the pass, as OpenKruise RetryOnConflict', async () => {
    const { h, out } = await resizeRacing(kubeletWritesBefore('patch pod resize web-0'));
    // the same passes as without the conflict: update, then the look that finds it done
    expect(out.passes).toBe(2);
    expect(out.error).toBeUndefined();
    const writes = h.journal.filter((l) => /^(patch pod|replace|expectations\.put)/.test(l));
    expect(writes.slice(0, 4)).toEqual([
      'patch pod resize web-0',
      'patch pod resize web-0',
      'patch pod web-0',
      'expectations.put updates[web-0]',
    ]);
    const pod = h.kube.pods.get('web-0')!;
    expect(pod.spec.containers[0].resources).toEqual({ requests: { cpu: '150m', memory: '64Mi' } });
    expect(pod.metadata.labels?.['controller-revision-hash']).toBe(
      h.sets().get('web')!.status?.updateRevision,
    );
    expect(h.kube.events.map((e) => e.reason)).toEqual(['SuccessfulUpdatePodInPlace']);
  });

  test('the pod patch after the resize answered 409: only the pod patch is retried, within the pass', async () => {
    const { h, out } = await resizeRacing(kubeletWritesBefore('patch pod web-0'));
    expect(out.passes).toBe(2);
    expect(h.journal.filter((l) => l.startsWith('patch pod') && !l.startsWith('patch pod status'))).toEqual([
      'patch pod resize web-0',
      'patch pod web-0',
      'patch pod web-0',
    ]);
    expect(h.kube.events.map((e) => e.reason)).toEqual(['SuccessfulUpdatePodInPlace']);
  });

  test('a 409 because the pod itself changed (its labels): not retried, the next pass plans again from it', async () => {
    let done = false;
    const { h, out } = await resizeRacing((call, h) => {
      if (done || call !== 'patch pod resize web-0') return;
      done = true;
      const pod = h.kube.pods.get('web-0')!;
      pod.metadata.labels = { ...pod.metadata.labels, team: 'b' };
      pod.metadata.resourceVersion = h.kube.advanceResourceVersion();
    });
    // one more pass than without the conflict: it re-reads the pod and plans from it
    expect(out.passes).toBe(3);
    expect(h.journal.filter((l) => l.startsWith('patch pod') && !l.startsWith('patch pod status'))).toEqual([
      'patch pod resize web-0',
      'patch pod resize web-0',
      'patch pod web-0',
    ]);
    expect(h.kube.pods.get('web-0')!.metadata.labels?.team).toBe('b');
  });

  test('on Kubernetes 1.31 (EKS): no pods/resize, the resources go in the pod patch, as OpenKruise before 1.32', async () => {
    const h = harness();
    h.kube.asRelease('v1.31.4-eks-2d98532');
    const sized = (cpu: string) =>
      webSet((s) => {
        s.spec.podManagementPolicy = 'Parallel';
        s.spec.replicas = 2;
        s.spec.volumeClaimTemplates = [];
        s.spec.updateStrategy = {
          type: 'RollingUpdate',
          rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' },
        };
        s.spec.template.spec.containers[0].resources = { requests: { cpu, memory: '64Mi' } };
        s.spec.template.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
      });
    h.apply(sized('100m'));
    const deps = () => h.deps({ options: { inPlaceWorkloadVerticalScaling: true } });
    await rounds(h, 2);
    const uids = [...h.kube.pods.values()].map((p) => p.metadata.uid);
    h.apply(sized('150m'));
    h.journal.length = 0;
    h.kube.events.length = 0;
    for (let i = 0; i < 4; i++) {
      await reconcileStatefulSet(deps(), REQUEST);
      h.kube.kubelet();
      h.clock.now += 1000;
    }
    expect(h.journal.filter((l) => l.startsWith('patch pod resize'))).toEqual([]);
    const pods = [...h.kube.pods.values()];
    expect(pods.map((p) => p.metadata.uid)).toEqual(uids);
    expect(pods.map((p) => p.spec.containers[0].resources)).toEqual(
      pods.map(() => ({ requests: { cpu: '150m', memory: '64Mi' } })),
    );
    expect(h.kube.events.map((e) => e.reason)).toEqual([
      'SuccessfulUpdatePodInPlace',
      'SuccessfulUpdatePodInPlace',
    ]);
    const set = h.sets().get('web')!;
    expect(set.status).toMatchObject({ updatedReplicas: 2, currentRevision: set.status?.updateRevision });
  });
});
