/**
 * The end-to-end scenarios 61–81 of spec §5 (`test/e2e/apps/v1alpha1/cloneset.go`) on the in-memory World, as
 * far as the planner can show them. kruise-daemon (container restarts for env-from-metadata, runtime metadata)
 * and ImagePullJobs (pre-download, spec §3.15) are outside Kruiseless; those tests say so in their names.
 * Scenario 78 is C34 in pvc.test.ts; scenario 80 (OnDelete) is in KNOWN_BUGS.md.
 */
import type { Container } from '../../../lib/api/types.js';
import { World } from '../support/world.js';
import {
  countRev,
  drive,
  idOf,
  img,
  inPlaceState,
  kinds,
  names,
  progressing,
  revOf,
  round,
  sample,
  setImage,
  stateOf,
  uids,
  updateRev,
} from './helpers.js';

const IDS = 'abcdefghijklmnopqrstuvwxyz'.split('');
const MAX_INT32 = 2147483647;

describe('spec §5 e2e scenarios 61–67: scaling and the Progressing condition', () => {
  test('61: an empty strategy defaults to ReCreate / 20%; 3 pods become Ready; Progressing True/CloneSetAvailable', () => {
    const w = new World(sample({ progressDeadlineSeconds: 600 })).useIds(...IDS);
    const first = w.reconcile();
    expect(kinds(first)).toEqual(['CreatePod', 'CreatePod', 'CreatePod']);
    w.kubelet();
    w.settle();
    const s = w.cloneSet.status!;
    expect([s.replicas, s.readyReplicas, s.availableReplicas]).toEqual([3, 3, 3]);
    expect(progressing(w)).toBe('True/CloneSetAvailable');
    expect(w.plans.at(-1)!.diff.updateMaxUnavailable).toBe(0);
  });

  test('62: minReadySeconds 10 and scaleStrategy.maxUnavailable 1 create pods one at a time, each ≥ 10 s after the previous became Ready', () => {
    const w = new World(
      sample({
        replicas: 4,
        minReadySeconds: 10,
        progressDeadlineSeconds: 600,
        scaleStrategy: { maxUnavailable: 1 },
      }),
    ).useIds(...IDS);
    w.reconcile();
    expect(progressing(w)).toBe('True/CloneSetUpdated');
    w.kubelet();
    drive(w, () => undefined, 1);
    const created = w.activePods().map((p) => Date.parse(p.metadata.creationTimestamp!));
    const ready = w
      .activePods()
      .map((p) => Date.parse(p.status!.conditions!.find((c) => c.type === 'Ready')!.lastTransitionTime!));
    expect(names(w)).toEqual(['sample-a', 'sample-b', 'sample-c', 'sample-d']);
    for (let i = 1; i < 4; i++) {
      const gap = (created[i] - ready[i - 1]) / 1000;
      expect(gap).toBeGreaterThanOrEqual(10);
      expect(gap).toBeLessThanOrEqual(12);
    }
    expect(progressing(w)).toBe('True/CloneSetAvailable');
  });

  test('63: a hostNetwork port gets protocol TCP from the template defaults but no hostPort (OpenKruise 1.9 on Kubernetes 1.32 no longer defaults it in templates), and the pod comes up', () => {
    const cs = sample({ replicas: 1 });
    cs.spec.template.spec.hostNetwork = true;
    cs.spec.template.spec.containers[0].ports = [{ containerPort: 80 }];
    const w = new World(cs).useIds(...IDS);
    w.settle();
    expect(w.pod('sample-a').spec.containers[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    expect(w.cloneSet.status!.availableReplicas).toBe(1);
  });

  test('64: a preNormal finalizer keeps the pod PreparingNormal (ready 1, available 0, ProgressDeadlineExceeded); adding it makes it Normal and Available', () => {
    const w = new World(
      sample({
        replicas: 1,
        progressDeadlineSeconds: 11,
        lifecycle: { preNormal: { finalizersHandler: ['finalizers.sigs.k8s.io/test'] } },
      }),
    ).useIds(...IDS);
    for (let i = 0; i < 15; i++) round(w.tick(1));
    expect(stateOf(w.pod('sample-a'))).toBe('PreparingNormal');
    expect([w.cloneSet.status!.readyReplicas, w.cloneSet.status!.availableReplicas]).toEqual([1, 0]);
    expect(progressing(w)).toBe('False/ProgressDeadlineExceeded');
    w.pod('sample-a').metadata.finalizers = ['finalizers.sigs.k8s.io/test'];
    w.settle();
    expect(stateOf(w.pod('sample-a'))).toBe('Normal');
    expect(w.cloneSet.status!.availableReplicas).toBe(1);
    expect(progressing(w)).toBe('True/CloneSetAvailable');
  });

  test('65: an unschedulable pod stays PreparingNormal (DeadlineExceeded); resetting schedulerName recreates it and the new pod becomes Available', () => {
    const cs = sample({ replicas: 1, progressDeadlineSeconds: 8 });
    cs.spec.template.spec.schedulerName = 'unschedulable';
    const w = new World(cs).useIds(...IDS);
    w.reconcile();
    w.stuck.add('sample-a');
    for (let i = 0; i < 10; i++) round(w.tick(1));
    expect(w.cloneSet.status!.replicas).toBe(1);
    expect(w.pod('sample-a').status?.phase).toBe('Pending');
    expect(stateOf(w.pod('sample-a'))).toBe('PreparingNormal');
    expect(progressing(w)).toBe('False/ProgressDeadlineExceeded');
    w.edit((c) => delete c.spec.template.spec.schedulerName);
    drive(w, () => undefined);
    expect(names(w)).toEqual(['sample-b']);
    expect(stateOf(w.pod('sample-b'))).toBe('Normal');
    expect(w.cloneSet.status!.availableReplicas).toBe(1);
    expect(progressing(w)).toBe('True/CloneSetAvailable');
  });

  test('66: progressDeadlineSeconds MaxInt32 writes no Progressing condition; setting 600 adds CloneSetAvailable', () => {
    const w = new World(sample({ replicas: 1, progressDeadlineSeconds: MAX_INT32 })).useIds(...IDS);
    w.settle();
    expect(w.cloneSet.status!.readyReplicas).toBe(1);
    expect(progressing(w)).toBeUndefined();
    w.edit((c) => (c.spec.progressDeadlineSeconds = 600));
    w.settle();
    expect(progressing(w)).toBe('True/CloneSetAvailable');
  });

  test('67: minReadySeconds and progressDeadlineSeconds MaxInt32: ready 1, no condition; then minReadySeconds 10 and no deadline: still none', () => {
    const w = new World(
      sample({ replicas: 1, minReadySeconds: MAX_INT32, progressDeadlineSeconds: MAX_INT32 }),
    ).useIds(...IDS);
    for (let i = 0; i < 5; i++) round(w.tick(1));
    expect([w.cloneSet.status!.readyReplicas, w.cloneSet.status!.availableReplicas]).toEqual([1, 0]);
    expect(progressing(w)).toBeUndefined();
    w.edit((c) => {
      c.spec.minReadySeconds = 10;
      delete c.spec.progressDeadlineSeconds;
    });
    for (let i = 0; i < 15; i++) round(w.tick(1));
    expect(progressing(w)).toBeUndefined();
  });
});

describe('spec §5 e2e scenarios 68–69: specified delete with a preDelete hook', () => {
  function hookedCs(excludePreparingDelete: boolean) {
    const cs = sample({
      progressDeadlineSeconds: 600,
      lifecycle: { preDelete: { labelsHandler: { 'lifecycle-hook': 'true' } } },
    });
    cs.spec.template.metadata!.labels!['lifecycle-hook'] = 'true';
    if (excludePreparingDelete)
      cs.metadata.labels = { 'apps.kruise.io/cloneset-scaling-exclude-preparing-delete': 'true' };
    return cs;
  }

  test('68: a specified-delete pod goes PreparingDelete with no replacement (replicas 3); releasing the hook deletes and replaces it', () => {
    const w = new World(hookedCs(false)).useIds(...IDS);
    w.settle();
    w.pod('sample-a').metadata.labels!['apps.kruise.io/specified-delete'] = 'true';
    w.settle();
    expect(stateOf(w.pod('sample-a'))).toBe('PreparingDelete');
    expect(w.activePods()).toHaveLength(3);
    expect(w.cloneSet.status!.replicas).toBe(3);
    expect(progressing(w)).toBe('True/CloneSetUpdated');
    delete w.pod('sample-a').metadata.labels!['lifecycle-hook'];
    w.settle();
    expect(names(w)).toEqual(['sample-b', 'sample-c', 'sample-d']);
    expect(progressing(w)).toBe('True/CloneSetAvailable');
  });

  test('69: with exclude-preparing-delete, R=2 + podsToDelete [pod0] → PreparingDelete (replicas 3); R=3 adds a pod (replicas 4); releasing the hook ends at 3', () => {
    const w = new World(hookedCs(true)).useIds(...IDS);
    w.settle();
    w.edit((c) => {
      c.spec.replicas = 2;
      c.spec.scaleStrategy = { podsToDelete: ['sample-a'] };
    });
    w.settle();
    expect(stateOf(w.pod('sample-a'))).toBe('PreparingDelete');
    expect(w.cloneSet.status!.replicas).toBe(3);
    expect(progressing(w)).toBe('True/CloneSetUpdated');
    w.edit((c) => (c.spec.replicas = 3));
    w.settle();
    expect(w.cloneSet.status!.replicas).toBe(4);
    expect(stateOf(w.pod('sample-a'))).toBe('PreparingDelete');
    delete w.pod('sample-a').metadata.labels!['lifecycle-hook'];
    w.settle();
    expect(names(w)).toEqual(['sample-b', 'sample-c', 'sample-d']);
    expect(w.cloneSet.status!.replicas).toBe(3);
    expect(progressing(w)).toBe('True/CloneSetAvailable');
  });
});

describe('spec §5 e2e scenarios 70–74: in-place updates', () => {
  test('70: an image tag change with the same imageID completes because status.image equals spec.image; same UID, updatedReadyReplicas 1', () => {
    const w = new World(
      sample({
        replicas: 1,
        minReadySeconds: 10,
        progressDeadlineSeconds: 600,
        updateStrategy: { type: 'InPlaceIfPossible' },
      }),
    ).useIds(...IDS);
    w.settle();
    w.tick(10);
    const uid = w.pod('sample-a').metadata.uid;
    const oldId = w.pod('sample-a').status!.containerStatuses![0].imageID;
    w.edit((c) => setImage(c, 'v1-same-digest'));
    w.reconcile();
    w.kubelet();
    w.pod('sample-a').status!.containerStatuses![0].imageID = oldId; // same digest
    expect(progressing(w)).toBe('True/CloneSetUpdated');
    drive(w, () => undefined);
    w.tick(10);
    w.settle();
    expect(w.pod('sample-a').metadata.uid).toBe(uid);
    expect(stateOf(w.pod('sample-a'))).toBe('Normal');
    expect(w.cloneSet.status!.updatedReadyReplicas).toBe(1);
    expect(progressing(w)).toBe('True/CloneSetAvailable');
  });

  test('71 without kruise-daemon: image + env-from-label change is applied in place (same UID, one restart) but never completes (spec §4.19)', () => {
    const cs = sample({ replicas: 1, updateStrategy: { type: 'InPlaceIfPossible' } });
    cs.spec.template.metadata!.labels!['test-env'] = 'foo';
    cs.spec.template.spec.containers[0].env = [
      { name: 'TEST_ENV', valueFrom: { fieldRef: { fieldPath: "metadata.labels['test-env']" } } },
    ];
    const w = new World(cs).useIds(...IDS);
    w.settle();
    const uid = w.pod('sample-a').metadata.uid;
    w.edit((c) => {
      c.spec.template.metadata!.labels!['test-env'] = 'bar';
      setImage(c, 'v2');
    });
    for (let i = 0; i < 10; i++) round(w.tick(5));
    const p = w.pod('sample-a');
    expect(p.metadata.uid).toBe(uid);
    expect(p.metadata.labels!['test-env']).toBe('bar');
    expect(p.status!.containerStatuses![0].restartCount).toBe(1);
    expect(inPlaceState(p)).toMatchObject({ updateEnvFromMetadata: true, updateImages: true });
    expect(stateOf(p)).toBe('Updating');
    expect(w.cloneSet.status!.updatedReadyReplicas).toBe(0);
  });

  /**
   * Two containers with the barrier env Kruise's pod webhook injects from `KRUISE_CONTAINER_PRIORITY` (redis 10,
   * nginx unset → 0); Kruiseless has no pod webhook, so the template carries it here.
   */
  function twoContainers(redisEnv: Container['env'] = []) {
    const barrier = (p: number) => ({
      name: 'KRUISE_CONTAINER_BARRIER',
      valueFrom: { configMapKeyRef: { name: 'b', key: `p_${p}` } },
    });
    const cs = sample({ replicas: 1, updateStrategy: { type: 'InPlaceIfPossible' } });
    cs.spec.template.spec.containers = [
      { name: 'nginx', image: 'nginx:1', env: [barrier(0)] },
      { name: 'redis', image: 'redis:1', env: [barrier(10), ...(redisEnv ?? [])] },
    ];
    return cs;
  }

  test('72: two images with priorities are updated in batches [redis] then [nginx]; both restarted once; Available', () => {
    const w = new World(twoContainers()).useIds(...IDS);
    w.settle();
    w.edit((c) => {
      c.spec.template.spec.containers[0].image = 'nginx:2';
      c.spec.template.spec.containers[1].image = 'redis:2';
    });
    w.reconcile();
    expect(w.pod('sample-a').spec.containers.map((c) => c.image)).toEqual(['nginx:1', 'redis:2']);
    expect(inPlaceState(w.pod('sample-a'))).toMatchObject({ nextContainerImages: { nginx: 'nginx:2' } });
    w.kubelet();
    w.settle();
    const p = w.pod('sample-a');
    const batches = (inPlaceState(p)!.containerBatchesRecord as { containers: string[] }[]).map(
      (b) => b.containers,
    );
    expect(batches).toEqual([['redis'], ['nginx']]);
    expect(p.status!.containerStatuses!.map((s) => s.restartCount)).toEqual([1, 1]);
    expect(stateOf(p)).toBe('Normal');
    expect(w.cloneSet.status!.availableReplicas).toBe(1);
  });

  test('73: when the new redis never runs, nginx is never updated; one batch [redis] and nextContainerImages {nginx}', () => {
    const w = new World({
      ...twoContainers(),
      spec: { ...twoContainers().spec, progressDeadlineSeconds: 600 },
    }).useIds(...IDS);
    w.settle();
    w.edit((c) => {
      c.spec.template.spec.containers[0].image = 'nginx:2';
      c.spec.template.spec.containers[1].image = 'redis:broken';
    });
    w.reconcile();
    w.stuck.add('sample-a'); // redis crash-loops: no new imageID is ever reported
    for (let i = 0; i < 30; i++) round(w.tick(1));
    const p = w.pod('sample-a');
    const st = inPlaceState(p)!;
    expect((st.containerBatchesRecord as { containers: string[] }[]).map((b) => b.containers)).toEqual([
      ['redis'],
    ]);
    expect(st.nextContainerImages).toEqual({ nginx: 'nginx:2' });
    expect(p.spec.containers[0].image).toBe('nginx:1');
    expect(p.status!.containerStatuses!.map((s) => s.restartCount)).toEqual([0, 0]);
    expect(progressing(w)).toBe('True/CloneSetUpdated');
  });

  test('74 without kruise-daemon: an annotation read by redis (priority 10) plus an nginx image change starts with batch [redis] and defers nginx', () => {
    const cs = twoContainers([
      { name: 'CONFIG', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['config']" } } },
    ]);
    cs.spec.template.metadata!.annotations = { config: 'foo' };
    const w = new World(cs).useIds(...IDS);
    w.settle();
    w.edit((c) => {
      c.spec.template.metadata!.annotations = { config: 'bar' };
      c.spec.template.spec.containers[0].image = 'nginx:2';
    });
    w.reconcile();
    const p = w.pod('sample-a');
    const st = inPlaceState(p)!;
    expect((st.containerBatchesRecord as { containers: string[] }[]).map((b) => b.containers)).toEqual([
      ['redis'],
    ]);
    expect(st.nextContainerImages).toEqual({ nginx: 'nginx:2' });
    expect(p.metadata.annotations!.config).toBe('bar');
    expect(p.spec.containers[0].image).toBe('nginx:1');
  });
});

describe('spec §5 e2e scenarios 75–79: partition, PVC reuse, preparing-update, VCT, resources', () => {
  test('75: partition 99% of 4 with maxUnavailable 50% updates exactly 1 pod; expected 1; ProgressPartitionAvailable', () => {
    const w = new World(
      sample({
        replicas: 4,
        progressDeadlineSeconds: 600,
        updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '50%' },
      }),
    ).useIds(...IDS);
    w.settle();
    w.edit((c) => {
      c.spec.updateStrategy!.partition = '99%';
      setImage(c, 'v2');
    });
    w.settle();
    w.tick(10).settle();
    const s = w.cloneSet.status!;
    expect([s.updatedReplicas, s.updatedReadyReplicas, s.expectedUpdatedReplicas]).toEqual([1, 1, 1]);
    expect(progressing(w)).toBe('True/ProgressPartitionAvailable');
  });

  test('76: deleted pods reuse their ids and PVCs; with disablePVCReuse the old PVCs are removed and new ids are used', () => {
    const cs = sample({
      replicas: 4,
      minReadySeconds: 10,
      volumeClaimTemplates: ['data-vol1', 'data-vol2'].map((n) => ({
        metadata: { name: n },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      })),
    });
    const w = new World(cs).useIds(...IDS);
    drive(w, () => undefined, 5);
    expect(w.pvcs).toHaveLength(8);
    const firstPvcs = w.pvcs.map((p) => p.metadata.name).sort();
    const firstNames = names(w);
    for (const n of firstNames) w.deletePod(n);
    drive(w, () => undefined, 5);
    expect(names(w)).toEqual(firstNames);
    expect(w.pvcs.map((p) => p.metadata.name).sort()).toEqual(firstPvcs);

    w.edit((c) => (c.spec.scaleStrategy = { disablePVCReuse: true }));
    for (const n of names(w)) w.deletePod(n);
    drive(w, () => undefined, 5);
    expect(w.activePods()).toHaveLength(4);
    expect(w.pvcs).toHaveLength(8);
    expect(w.pvcs.some((p) => firstPvcs.includes(p.metadata.name))).toBe(false);
    const ids = new Set(w.activePods().map(idOf));
    for (const p of w.pvcs) {
      expect(ids.has(p.metadata.labels!['apps.kruise.io/cloneset-instance-id'])).toBe(true);
      expect(p.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'CloneSet', uid: 'uid-sample' });
    }
  });

  test('77: with PreparingUpdateAsUpdate, replacements of other pods are current-revision pods while one pod waits in PreparingUpdate', () => {
    const hook = { 'preparing-update-hook': 'true' };
    const cs = sample({
      replicas: 2,
      minReadySeconds: 10,
      progressDeadlineSeconds: 120,
      lifecycle: { inPlaceUpdate: { labelsHandler: hook } },
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '50%', partition: '99%' },
    });
    cs.spec.template.metadata!.labels = { app: 'sample', ...hook };
    const w = new World(cs, { gates: { preparingUpdateAsUpdate: true } }).useIds(...IDS);
    drive(w, () => undefined, 5);
    const r1 = updateRev(w);
    w.edit((c) => setImage(c, 'v2'));
    drive(w, () => undefined, 5);
    const r2 = updateRev(w);
    const preparing = w.activePods().filter((p) => stateOf(p) === 'PreparingUpdate');
    expect(preparing).toHaveLength(1);
    expect(w.cloneSet.status!.updatedReplicas).toBe(0);
    const prep = preparing[0].metadata.name!;
    const other = names(w).find((n) => n !== prep)!;
    w.deletePod(other);
    drive(w, () => undefined, 5);
    expect(
      w
        .activePods()
        .filter((p) => p.metadata.name !== prep)
        .map(revOf),
    ).toEqual([r1]);
    w.tick(130);
    round(w);
    expect(progressing(w)).toBe('False/ProgressDeadlineExceeded');

    w.edit((c) => (c.spec.replicas = 3));
    drive(w, () => undefined, 5);
    expect(
      w
        .activePods()
        .filter((p) => p.metadata.name !== prep)
        .map(revOf),
    ).toEqual([r1, r1]);

    delete w.pod(prep).metadata.labels!['preparing-update-hook'];
    drive(w, () => undefined, 5);
    expect(revOf(w.pod(prep))).toBe(r2);
    expect([countRev(w, r1), countRev(w, r2)]).toEqual([2, 1]);
  });

  test('79: with the vertical-scaling gate a requests = limits change (QoS class change) is recreated, not in place', () => {
    const w = new World(sample({ replicas: 1, updateStrategy: { type: 'InPlaceIfPossible' } }), {
      gates: { inPlaceWorkloadVerticalScaling: true },
    }).useIds(...IDS);
    w.settle();
    const before = uids(w);
    w.edit(
      (c) =>
        (c.spec.template.spec.containers[0].resources = {
          requests: { cpu: '1', memory: '1Gi' },
          limits: { cpu: '1', memory: '1Gi' },
        }),
    );
    w.settle();
    expect(Object.values(uids(w))).not.toEqual(Object.values(before));
    expect(names(w)).toEqual(['sample-b']);
    expect(w.cloneSet.status!.availableReplicas).toBe(1);
  });
});

describe('spec §5 e2e scenario 81', () => {
  test('81: image pre-download is out of scope (spec §3.15): an image change under partition 1 plans no ImagePullJob, only pod writes', () => {
    const cs = sample({
      replicas: 5,
      progressDeadlineSeconds: 600,
      updateStrategy: { type: 'InPlaceIfPossible', partition: 1 },
    });
    cs.metadata.annotations = { 'apps.kruise.io/image-predownload-parallelism': '2' };
    const w = new World(cs).useIds(...IDS);
    w.settle();
    w.edit((c) => setImage(c, 'v2'));
    w.settle();
    const types = new Set(w.plans.flatMap((p) => p.actions.map((a) => a.type)));
    expect([...types].sort()).toEqual(['CreatePod', 'PatchPod', 'PatchPodStatus']);
    expect(JSON.stringify(w.plans)).not.toContain('ImagePullJob');
    expect(countRev(w, updateRev(w))).toBe(4);
    expect(w.activePods().filter((p) => p.spec.containers[0].image === img('v2'))).toHaveLength(4);
    expect(progressing(w)).toBe('True/ProgressPartitionAvailable');
  });
});
