/**
 * Partition, rollback and revisions on the in-memory World: docs/behaviour/scenarios.md cases C01, C02, C04,
 * C05, C07 and the CloneSet analogue of S01. Each test plays the whole story (create at v1, roll out, then
 * the case's action).
 */
import { diffRecord } from '../support/fixtures.js';
import { World } from '../support/world.js';
import {
  availablePods,
  countRev,
  currentRev,
  drive,
  imageOf,
  img,
  names,
  readyPods,
  revOf,
  round,
  sample,
  setImage,
  uids,
  updateRev,
} from './helpers.js';

const IDS = 'abcdefghijklmnopqrstuvwxyz'.split('');

/** A World at v1 with every pod Available, then the image changed to v2 and the rollout settled. */
function rolledOut(
  replicas: number,
  partition: number | string,
  gates = {},
): { w: World; r1: string; r2: string } {
  const w = new World(sample({ replicas, updateStrategy: { type: 'ReCreate', partition } }), {
    gates,
  }).useIds(...IDS);
  w.settle();
  const r1 = updateRev(w);
  w.edit((cs) => setImage(cs, 'v2'));
  w.settle();
  return { w, r1, r2: updateRev(w) };
}

describe('C01: raising partition without CloneSetPartitionRollback', () => {
  test('C01: raising partition 2 → 4 leaves the 3 updated pods alone; status keeps updatedReplicas 3, expected 1', () => {
    const { w, r1, r2 } = rolledOut(5, 2);
    expect(w.activePods().map(revOf)).toEqual([r1, r1, r2, r2, r2]);
    expect(names(w)).toEqual(['sample-d', 'sample-e', 'sample-f', 'sample-g', 'sample-h']);
    const before = uids(w);

    w.edit((cs) => (cs.spec.updateStrategy!.partition = 4));
    w.settle();
    expect(uids(w)).toEqual(before);
    expect(w.pods.some((p) => p.metadata.deletionTimestamp)).toBe(false);
    expect(w.plans.at(-1)!.diff).toEqual(diffRecord({}));
    const s = w.cloneSet.status!;
    expect([s.updatedReplicas, s.expectedUpdatedReplicas ?? 0]).toEqual([3, 1]);
    expect([s.updateRevision, s.currentRevision]).toEqual([r2, r1]);
  });

  test('C01: deleting an r2 pod by hand after raising partition to 4 recreates it at r1 (v1): 2 × r2 + 3 × r1', () => {
    const { w, r1, r2 } = rolledOut(5, 2);
    w.edit((cs) => (cs.spec.updateStrategy!.partition = 4));
    w.settle();
    w.deletePod('sample-f');
    const plan = w.reconcile();
    expect(plan.actions).toHaveLength(1);
    expect(plan.actions[0]).toMatchObject({ type: 'CreatePod', revision: r1 });
    const created = w.pod('sample-i');
    expect(revOf(created)).toBe(r1);
    expect(imageOf(created)).toBe(img('v1'));
    w.settle();
    expect([countRev(w, r1), countRev(w, r2)]).toEqual([3, 2]);
    expect(w.cloneSet.status!.updatedReplicas).toBe(2);
  });
});

describe('C02: raising partition with CloneSetPartitionRollback', () => {
  test('C02: partition 1 → 3 moves both r2 pods back to r1 one at a time; never more than 1 unavailable', () => {
    const { w, r1, r2 } = rolledOut(3, 1, { cloneSetPartitionRollback: true });
    expect([countRev(w, r1), countRev(w, r2)]).toEqual([1, 2]);
    expect(currentRev(w)).toBe(r1);

    w.edit((cs) => (cs.spec.updateStrategy!.partition = 3));
    const first = w.reconcile();
    expect(first.diff).toEqual(diffRecord({ updateNum: -2, updateMaxUnavailable: 1 }));
    // exactly one r2 pod is marked for recreation in the first step
    expect(first.actions.filter((a) => a.type === 'PatchPod' && a.reason === 'RecreateUpdate')).toHaveLength(
      1,
    );
    w.kubelet();
    let sawOneStep = false;
    drive(w, () => {
      expect(3 - availablePods(w).length).toBeLessThanOrEqual(1);
      if (w.activePods().length === 3 && countRev(w, r2) === 1 && countRev(w, r1) === 2) sawOneStep = true;
    });
    expect(sawOneStep).toBe(true);
    expect(w.activePods().map(revOf)).toEqual([r1, r1, r1]);
    expect(w.activePods().map(imageOf)).toEqual([img('v1'), img('v1'), img('v1')]);
    const s = w.cloneSet.status!;
    expect([s.updatedReplicas, s.expectedUpdatedReplicas ?? 0, s.updateRevision]).toEqual([0, 0, r2]);
  });

  test('C02 with the gate off: raising partition to 3 changes nothing (as C01)', () => {
    const { w } = rolledOut(3, 1);
    const before = uids(w);
    w.edit((cs) => (cs.spec.updateStrategy!.partition = 3));
    w.settle();
    expect(uids(w)).toEqual(before);
    expect(w.cloneSet.status!.updatedReplicas).toBe(2);
  });
});

describe('C04: percentage partition rounding and the "at least one updated" clamp', () => {
  test.each([
    [3, '99%', 2, 1],
    [10, '90%', 9, 1],
    [9, '90%', 8, 1],
    [5, '50%', 3, 2],
    [4, '50%', 2, 2],
    [1, '50%', 1, 0],
    [3, '100%', 3, 0],
    [3, 5, 3, 0],
  ])(
    'C04: replicas %i, partition %p → %i kept at r1, %i updated to r2',
    (replicas, partition, kept, updated) => {
      const { w, r1, r2 } = rolledOut(replicas, partition);
      expect([countRev(w, r1), countRev(w, r2)]).toEqual([kept, updated]);
      expect(w.cloneSet.status!.expectedUpdatedReplicas ?? 0).toBe(updated);
      expect(w.cloneSet.status!.updatedReplicas).toBe(updated);
      expect(w.plans.every((p) => p.validationErrors.length === 0)).toBe(true);
    },
  );

  test('C04 (#953): scaling 10 → 9 under partition 90% deletes an r1 pod and keeps the single r2 canary', () => {
    const { w, r1, r2 } = rolledOut(10, '90%');
    const canary = w.activePods().find((p) => revOf(p) === r2)!.metadata.name!;
    w.edit((cs) => (cs.spec.replicas = 9));
    const plan = w.reconcile();
    expect(plan.actions).toHaveLength(1);
    expect(plan.actions[0]).toMatchObject({ type: 'DeletePod', reason: 'ScaleDown' });
    w.settle();
    expect(names(w)).toContain(canary);
    expect([countRev(w, r1), countRev(w, r2)]).toEqual([8, 1]);
    expect(w.cloneSet.status!.expectedUpdatedReplicas ?? 0).toBe(1);
  });
});

describe('C05: currentRevision is promoted only when every expected pod is updated', () => {
  test('C05: with one r2 pod left of 2 replicas currentRevision stays r1; replacements follow the partition; 4 replicas end 2 × r1 + 2 × r2', () => {
    const { w, r1, r2 } = rolledOut(2, '50%');
    expect(w.activePods().map((p) => [p.metadata.name, revOf(p)])).toEqual([
      ['sample-b', r1],
      ['sample-c', r2],
    ]);
    expect(currentRev(w)).toBe(r1);

    // step 1: delete the r1 pod; while only the r2 pod exists, currentRevision stays r1
    w.deletePod('sample-b');
    const p1 = w.reconcile();
    expect(currentRev(w)).toBe(r1);
    expect(p1.actions[0]).toMatchObject({ type: 'CreatePod', revision: r1 });
    w.kubelet();
    w.settle();
    expect(currentRev(w)).toBe(r1);
    expect(w.activePods().map(revOf).sort()).toEqual([r1, r2].sort());

    // step 2: delete the r2 pod and scale to 4 at once
    w.deletePod('sample-c');
    w.edit((cs) => (cs.spec.replicas = 4));
    w.settle();
    expect([countRev(w, r1), countRev(w, r2)]).toEqual([2, 2]);
    expect(w.cloneSet.status!.expectedUpdatedReplicas ?? 0).toBe(2);
    expect(currentRev(w)).toBe(r1);
    for (const plan of w.plans) {
      for (const a of plan.actions) if (a.type === 'CreatePod') expect([r1, r2]).toContain(a.revision);
    }
  });

  test('C05: currentRevision flips to r2 once all R pods are r2, before they are Ready', () => {
    const { w, r2 } = rolledOut(2, '50%');
    w.edit((cs) => (cs.spec.updateStrategy!.partition = 0));
    w.reconcile(); // label the r1 pod
    w.reconcile(); // delete it
    expect(w.activePods()).toHaveLength(1);
    expect(currentRev(w)).not.toBe(r2);
    w.reconcile(); // create the replacement at r2 (not Ready yet); the status was computed before the create
    expect(currentRev(w)).not.toBe(r2);
    w.reconcile(); // next status sees 2 × r2, one of them never started by a kubelet
    expect(w.activePods().map(revOf)).toEqual([r2, r2]);
    expect(readyPods(w)).toHaveLength(1);
    expect(readyCount(w)).toBe(1);
    expect(currentRev(w)).toBe(r2);
  });
});

function readyCount(w: World): number {
  return w.cloneSet.status!.readyReplicas;
}

describe('C07: rollback while the new-revision surge pod is still Pending', () => {
  test('C07: reverting to v1 deletes the Pending r2 surge pod and keeps sample-a; never 0 Ready pods', () => {
    const w = new World(
      sample({ replicas: 1, updateStrategy: { type: 'ReCreate', maxSurge: '50%', maxUnavailable: '10%' } }),
    ).useIds(...IDS);
    w.settle();
    const r1 = updateRev(w);
    const uidA = w.pod('sample-a').metadata.uid;
    w.edit((cs) => setImage(cs, 'v2'));
    const surge = w.reconcile();
    expect(surge.actions).toHaveLength(1);
    expect(surge.actions[0]).toMatchObject({ type: 'CreatePod' });
    w.stuck.add('sample-b'); // Pending, no nodeName
    w.kubelet();
    expect(w.pod('sample-b').spec.nodeName).toBeUndefined();
    const r2 = revOf(w.pod('sample-b'));
    expect(r2).not.toBe(r1);

    w.edit((cs) => setImage(cs, 'v1'));
    drive(w, () => expect(readyPods(w).length).toBeGreaterThanOrEqual(1));
    expect(updateRev(w)).toBe(r1);
    expect(names(w)).toEqual(['sample-a']);
    expect(w.pod('sample-a').metadata.uid).toBe(uidA);
    expect(w.plans.flatMap((p) => p.actions).filter((a) => a.type === 'DeletePod')).toEqual([
      expect.objectContaining({ pod: expect.objectContaining({ name: 'sample-b' }) }),
    ]);
  });
});

describe('S01 (Argo Rollouts canary rounding), CloneSet analogue', () => {
  test('S01: partition 99% of 3 with maxSurge 0 never creates a 4th pod and updates exactly one', () => {
    const w = new World(
      sample({ replicas: 3, updateStrategy: { type: 'ReCreate', partition: '99%', maxSurge: 0 } }),
    ).useIds(...IDS);
    w.settle();
    const r1 = updateRev(w);
    w.edit((cs) => setImage(cs, 'v2'));
    drive(w, () => expect(w.activePods().length).toBeLessThanOrEqual(3));
    expect([countRev(w, r1), countRev(w, updateRev(w))]).toEqual([2, 1]);
  });

  test('S01: partition 1% of 3 keeps one old pod (rounds up) and updates 2', () => {
    const { w, r1, r2 } = rolledOut(3, '1%');
    expect([countRev(w, r1), countRev(w, r2)]).toEqual([1, 2]);
  });

  test('S01: with maxSurge 1 and partition 2 of 3, the surge is released once the partition is met (C08 rule)', () => {
    const w = new World(
      sample({
        replicas: 3,
        updateStrategy: { type: 'ReCreate', partition: 2, maxSurge: 1, maxUnavailable: 0 },
      }),
    ).useIds(...IDS);
    w.settle();
    const r1 = updateRev(w);
    w.edit((cs) => setImage(cs, 'v2'));
    let peak = 0;
    drive(w, () => (peak = Math.max(peak, w.activePods().length)));
    expect(peak).toBe(4);
    expect([countRev(w, r1), countRev(w, updateRev(w))]).toEqual([2, 1]);
    expect(round(w).actions).toEqual([]);
  });
});
