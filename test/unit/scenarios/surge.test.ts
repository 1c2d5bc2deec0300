/**
 * maxSurge / maxUnavailable budgets on the in-memory World: docs/behaviour/scenarios.md cases C08, C10, C12,
 * C13, C14 (unsettled upstream; Kruiseless keeps parity) and the CloneSet analogue of S02.
 */
import { diffRecord } from '../support/fixtures.js';
import { World } from '../support/world.js';
import {
  availablePods,
  countRev,
  crashLoop,
  drive,
  kinds,
  names,
  round,
  sample,
  setImage,
  uids,
  updateRev,
} from './helpers.js';

const IDS = 'abcdefghijklmnopqrstuvwxyz'.split('');

describe('C08: surge is released once the partition is satisfied', () => {
  test('C08: 8 replicas, partition 5, maxSurge 10%: peak 9 pods, never < 8 available, ends 5 × r1 + 3 × r2', () => {
    const w = new World(
      sample({
        replicas: 8,
        updateStrategy: { type: 'ReCreate', partition: 5, maxSurge: '10%', maxUnavailable: '10%' },
      }),
    ).useIds(...IDS);
    w.settle();
    const r1 = updateRev(w);
    w.edit((cs) => setImage(cs, 'v2'));
    const first = w.reconcile();
    expect(first.diff).toEqual(diffRecord({ scaleUpNum: 1, scaleUpLimit: 1, useSurge: 1, updateNum: 3 }));
    expect(kinds(first)).toEqual(['CreatePod']);
    w.kubelet();
    let peak = 0;
    drive(w, () => {
      peak = Math.max(peak, w.activePods().length);
      expect(w.activePods().length).toBeLessThanOrEqual(9);
      expect(availablePods(w).length).toBeGreaterThanOrEqual(8);
    });
    expect(peak).toBe(9);
    const r2 = updateRev(w);
    expect([countRev(w, r1), countRev(w, r2)]).toEqual([5, 3]);
    // the surplus pod given back is an r1 pod (scale-down, not a specified delete)
    const scaleDowns = w.plans
      .flatMap((p) => p.actions)
      .filter((a) => a.type === 'DeletePod' && a.reason === 'ScaleDown');
    expect(scaleDowns).toHaveLength(1);
    const s = w.cloneSet.status!;
    expect([s.replicas, s.updatedReplicas, s.updatedReadyReplicas, s.expectedUpdatedReplicas]).toEqual([
      8, 3, 3, 3,
    ]);
  });
});

describe('C10: maxSurge with maxUnavailable 0 and minReadySeconds', () => {
  test('C10: a CPU-limit change creates 2 r2 pods at once, touches no r1 pod for 10 s, keeps ≥ 5 available and ≤ 7 pods, ends 5 × r2', () => {
    const cs = sample({
      replicas: 5,
      minReadySeconds: 10,
      updateStrategy: { type: 'ReCreate', maxSurge: 2, maxUnavailable: 0 },
    });
    cs.spec.template.spec.containers[0].resources = { limits: { cpu: '100m' } };
    const w = new World(cs).useIds(...IDS);
    w.settle();
    w.tick(10);
    w.settle();
    expect(availablePods(w)).toHaveLength(5);
    const originals = names(w);

    w.edit((c) => (c.spec.template.spec.containers[0].resources = { limits: { cpu: '200m' } }));
    const first = w.reconcile();
    expect(kinds(first)).toEqual(['CreatePod', 'CreatePod']);
    w.kubelet();
    // r1 pods are untouched until the r2 pods have been Ready for 10 s
    for (let t = 0; t < 9; t++) {
      w.tick(1);
      round(w);
      expect(w.activePods().filter((p) => originals.includes(p.metadata.name!))).toHaveLength(5);
      expect(
        w.activePods().filter((p) => p.metadata.labels?.['apps.kruise.io/specified-delete'] === 'true'),
      ).toHaveLength(0);
    }
    drive(w, () => {
      expect(availablePods(w).length).toBeGreaterThanOrEqual(5);
      expect(w.activePods().length).toBeLessThanOrEqual(7);
      expect(w.cloneSet.status!.availableReplicas).toBeGreaterThanOrEqual(5);
    });
    w.tick(10);
    w.settle();
    const r2 = updateRev(w);
    expect(w.activePods()).toHaveLength(5);
    expect(countRev(w, r2)).toBe(5);
    expect(w.activePods().map((p) => p.spec.containers[0].resources)).toEqual(
      Array(5).fill({ limits: { cpu: '200m' } }),
    );
    expect(w.cloneSet.status!.availableReplicas).toBe(5);
  });
});

describe('C12: unavailable target-revision pods count against maxUnavailable', () => {
  test('C12: 5 crash-looping r1 pods are replaced one at a time; never more than one r2 pod unavailable', () => {
    const w = new World(
      sample({ replicas: 5, updateStrategy: { type: 'ReCreate', maxUnavailable: 1 } }),
    ).useIds(...IDS);
    w.settle();
    for (const n of names(w)) crashLoop(w, n);
    w.reconcile();
    expect(w.cloneSet.status!.readyReplicas).toBe(0);
    w.edit((cs) => setImage(cs, 'v2'));
    const first = w.reconcile();
    expect(kinds(first).filter((k) => k === 'PatchPod:RecreateUpdate')).toHaveLength(1);
    w.kubelet();
    const r2 = updateRev(w);
    drive(w, () => {
      const available = new Set(availablePods(w).map((p) => p.metadata.name));
      const r2Unavailable = w
        .activePods()
        .filter(
          (p) => p.metadata.labels?.['controller-revision-hash'] === r2 && !available.has(p.metadata.name),
        );
      expect(r2Unavailable.length).toBeLessThanOrEqual(1);
    });
    expect(countRev(w, r2)).toBe(5);
    expect(availablePods(w)).toHaveLength(5);
    // one pod at a time: every reconcile marks at most one pod for recreation
    for (const p of w.plans)
      expect(kinds(p).filter((k) => k === 'PatchPod:RecreateUpdate').length).toBeLessThanOrEqual(1);
  });
});

describe('C13: raising maxSurge mid-rollout adds no pods (wontfix upstream, parity)', () => {
  function blueGreen(maxSurge: string): World {
    const w = new World(
      sample({
        replicas: 4,
        minReadySeconds: 1_000_000,
        updateStrategy: { type: 'ReCreate', maxUnavailable: 0, maxSurge },
      }),
    ).useIds(...IDS);
    w.settle();
    w.tick(1_000_000);
    w.settle();
    expect(availablePods(w)).toHaveLength(4);
    return w;
  }

  test('C13: maxSurge 50% creates 2 r2 pods (6 in all); raising it to 100% while they are not Available keeps 6; nothing deleted', () => {
    const w = blueGreen('50%');
    w.edit((cs) => setImage(cs, 'v2'));
    for (let i = 0; i < 10; i++) round(w.tick(5));
    expect(w.activePods()).toHaveLength(6);
    expect(countRev(w, updateRev(w))).toBe(2);

    w.edit((cs) => (cs.spec.updateStrategy!.maxSurge = '100%'));
    for (let i = 0; i < 10; i++) round(w.tick(5));
    expect(w.activePods()).toHaveLength(6);
    expect(w.plans.at(-1)!.diff).toEqual(diffRecord({ useSurge: 2, updateNum: 2, updateMaxUnavailable: 2 }));
    expect(w.plans.flatMap((p) => p.actions).filter((a) => a.type === 'DeletePod')).toEqual([]);
  });

  test('C13: with maxSurge 100% from the start the image change creates 4 r2 pods (8 in all)', () => {
    const w = blueGreen('100%');
    w.edit((cs) => setImage(cs, 'v2'));
    for (let i = 0; i < 10; i++) round(w.tick(5));
    expect(w.activePods()).toHaveLength(8);
    expect(countRev(w, updateRev(w))).toBe(4);
  });
});

describe('C14 (unsettled upstream): maxSurge still surges for an in-place-eligible change — Kruiseless keeps parity', () => {
  test('C14: an annotation change under maxSurge 3 creates 3 new pods, updates 2 originals in place and deletes 3 originals', () => {
    const cs = sample({ replicas: 5, updateStrategy: { type: 'InPlaceIfPossible', maxSurge: 3 } });
    cs.spec.template.metadata!.annotations = { 'example.io/tracking': 'one' };
    const w = new World(cs).useIds(...IDS);
    w.settle();
    const originals = uids(w);
    w.edit((c) => (c.spec.template.metadata!.annotations = { 'example.io/tracking': 'two' }));
    const first = w.reconcile();
    expect(kinds(first)).toEqual(['CreatePod', 'CreatePod', 'CreatePod']);
    w.kubelet();
    w.settle();
    const r2 = updateRev(w);
    expect(w.activePods()).toHaveLength(5);
    expect(countRev(w, r2)).toBe(5);
    const kept = w.activePods().filter((p) => originals[p.metadata.name!] === p.metadata.uid);
    expect(kept).toHaveLength(2);
    for (const p of kept) expect(p.metadata.annotations?.['example.io/tracking']).toBe('two');
    const deletes = w.plans.flatMap((p) => p.actions).filter((a) => a.type === 'DeletePod');
    expect(deletes).toHaveLength(3);
    const inPlace = w.plans
      .flatMap((p) => p.actions)
      .filter((a) => a.type === 'PatchPod' && a.reason === 'InPlaceUpdate');
    expect(inPlace).toHaveLength(2);
    expect(w.activePods().every((p) => p.metadata.annotations?.['example.io/tracking'] === 'two')).toBe(true);
  });
});

describe('S02 (Argo Rollouts: unavailable stable pods must make room), CloneSet analogue', () => {
  test('S02: 4 crash-looping r1 pods with maxSurge 1 / maxUnavailable 0 do not stall the rollout at 5 pods', () => {
    const w = new World(
      sample({ replicas: 4, updateStrategy: { type: 'ReCreate', maxSurge: 1, maxUnavailable: 0 } }),
    ).useIds(...IDS);
    w.settle();
    for (const n of names(w)) crashLoop(w, n);
    w.edit((cs) => setImage(cs, 'v2'));
    let peak = 0;
    drive(w, () => (peak = Math.max(peak, w.activePods().length)));
    expect(peak).toBe(5);
    expect(w.activePods()).toHaveLength(4);
    expect(countRev(w, updateRev(w))).toBe(4);
    expect(availablePods(w)).toHaveLength(4);
  });
});
