/**
 * Paused (and OnDelete) on the in-memory World: docs/behaviour/scenarios.md cases C23, C24 and the CloneSet
 * difference of S04.
 */
import { World } from '../support/world.js';
import {
  countRev,
  imageOf,
  img,
  ipur,
  kinds,
  names,
  revOf,
  round,
  sample,
  setImage,
  updateRev,
} from './helpers.js';

const IDS = 'abcdefghijklmnopqrstuvwxyz'.split('');

/** 3 × r1, then paused and the template changed to v2 (optionally with a partition). */
function pausedAtV2(partition?: number): { w: World; r1: string; r2: string } {
  const w = new World(sample({ replicas: 3 })).useIds(...IDS);
  w.settle();
  const r1 = updateRev(w);
  w.edit((cs) => {
    cs.spec.updateStrategy = { paused: true, ...(partition === undefined ? {} : { partition }) };
    setImage(cs, 'v2');
  });
  w.settle();
  return { w, r1, r2: updateRev(w) };
}

const updates = (w: World): string[] =>
  w.plans.flatMap(kinds).filter((k) => k === 'PatchPod:RecreateUpdate' || k === 'PatchPod:InPlaceUpdate');

describe('C23: paused still scales; which revision new pods get', () => {
  test('C23: paused, scale 3 → 5 adds 2 r2 pods and leaves the 3 r1 pods; scale to 2 removes the r1 pods first', () => {
    const { w, r1, r2 } = pausedAtV2();
    expect(r2).not.toBe(r1);
    expect(w.activePods().map(revOf)).toEqual([r1, r1, r1]);

    w.edit((cs) => (cs.spec.replicas = 5));
    w.settle();
    expect(w.activePods().map((p) => [p.metadata.name, revOf(p)])).toEqual([
      ['sample-a', r1],
      ['sample-b', r1],
      ['sample-c', r1],
      ['sample-d', r2],
      ['sample-e', r2],
    ]);
    expect(w.pod('sample-d').spec.containers[0].image).toBe(img('v2'));

    w.edit((cs) => (cs.spec.replicas = 2));
    w.settle();
    expect(names(w)).toEqual(['sample-d', 'sample-e']);
    expect(updates(w)).toEqual([]);
  });

  test.each([
    [3, 0, 2],
    [5, 2, 0],
  ])('C23: paused with partition %i, scale 3 → 5 creates %i r1 and %i r2 pods', (partition, newR1, newR2) => {
    const { w, r1, r2 } = pausedAtV2(partition);
    w.edit((cs) => (cs.spec.replicas = 5));
    w.settle();
    expect([countRev(w, r1), countRev(w, r2)]).toEqual([3 + newR1, newR2]);
    expect(updates(w)).toEqual([]);
  });
});

describe('S04 (paused Deployment scales with the old template), CloneSet difference', () => {
  test('S04: a paused CloneSet scaled 3 → 5 creates the 2 new pods with the new image v2, not v1', () => {
    const { w } = pausedAtV2();
    w.edit((cs) => (cs.spec.replicas = 5));
    w.settle();
    expect(w.activePods().map(imageOf)).toEqual([img('v1'), img('v1'), img('v1'), img('v2'), img('v2')]);
  });
});

// The OnDelete variant of C24 is in onDelete.test.ts.
describe('C24: paused still marks new pods InPlaceUpdateReady', () => {
  test.each([
    ['paused ReCreate', { type: 'ReCreate' as const, paused: true }, 'delete'],
    ['paused ReCreate', { type: 'ReCreate' as const, paused: true }, 'scale'],
  ])(
    'C24 (%s, %s): the new pod gets InPlaceUpdateReady=True, becomes Ready, readyReplicas recovers',
    (_t, strategy, how) => {
      const w = new World(sample({ replicas: 2, updateStrategy: strategy })).useIds(...IDS);
      w.settle();
      expect(w.cloneSet.status!.readyReplicas).toBe(2);
      if (how === 'delete') w.deletePod('sample-a');
      else w.edit((cs) => (cs.spec.replicas = 3));
      const want = how === 'delete' ? 2 : 3;

      const create = round(w);
      expect(kinds(create)).toEqual(['CreatePod']);
      const fresh = w.pod('sample-c');
      expect(fresh.spec.readinessGates).toEqual([
        { conditionType: 'InPlaceUpdateReady' },
        { conditionType: 'KruisePodReady' },
      ]);
      expect(ipur(fresh)).toBeUndefined();
      expect(fresh.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');

      const refresh = round(w);
      expect(kinds(refresh)).toEqual([
        'PatchPodStatus:InPlaceUpdateReady',
        'PatchPod:LifecycleTransition',
        'PatchPodStatus:InitKruisePodReady',
      ]);
      expect(ipur(w.pod('sample-c'))).toBe('True');
      expect(w.pod('sample-c').status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
      w.settle();
      expect(w.cloneSet.status!.readyReplicas).toBe(want);
    },
  );
});
