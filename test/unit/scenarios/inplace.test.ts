/**
 * In-place update on the in-memory World: case C31 (docs/behaviour/scenarios.md#c31) (metadata patch,
 * eligibility table) and C32 (env-from-metadata; Kruiseless documents that such updates never complete
 * without kruise-daemon — docs/behaviour/cloneset.md#edge-env-from-metadata, `areContainersUpdated` in
 * lib/podset/inplace/apply.ts).
 */
import { World } from '../support/world.js';
import {
  countRev,
  drive,
  imageOf,
  img,
  inPlaceState,
  ipur,
  kinds,
  revOf,
  round,
  sample,
  setImage,
  stateOf,
  uids,
  updateRev,
} from './helpers.js';

const IDS = 'abcdefghijklmnopqrstuvwxyz'.split('');

describe('C31: in-place patch of template labels/annotations', () => {
  test('C31: adding label tier=web and changing an annotation patches all 3 pods in place, one at a time, IPUR False → True', () => {
    const cs = sample({ updateStrategy: { type: 'InPlaceIfPossible' } });
    cs.spec.template.metadata!.annotations = { 'example.io/note': 'a' };
    const w = new World(cs).useIds(...IDS);
    w.settle();
    const before = uids(w);
    w.edit((c) => {
      c.spec.template.metadata!.labels!.tier = 'web';
      c.spec.template.metadata!.annotations = { 'example.io/note': 'b' };
    });
    const first = w.reconcile();
    const r2 = updateRev(w);
    expect(kinds(first)).toEqual(['PatchPodStatus:StartInPlaceUpdate', 'PatchPod:InPlaceUpdate']);
    const started = w.activePods().filter((p) => revOf(p) === r2);
    expect(started).toHaveLength(1);
    const cond = started[0].status?.conditions?.find((c) => c.type === 'InPlaceUpdateReady');
    expect([cond?.status, cond?.reason]).toEqual(['False', 'StartInPlaceUpdate']);
    w.kubelet();
    drive(w, () => {
      const inFlight = w.activePods().filter((p) => ipur(p) === 'False');
      expect(inFlight.length).toBeLessThanOrEqual(1);
    });
    expect(uids(w)).toEqual(before);
    for (const p of w.activePods()) {
      expect(p.metadata.labels?.tier).toBe('web');
      expect(p.metadata.annotations?.['example.io/note']).toBe('b');
      expect(revOf(p)).toBe(r2);
      expect(ipur(p)).toBe('True');
      expect(p.status?.containerStatuses?.[0].restartCount).toBe(0);
    }
    expect(w.plans.flatMap(kinds).filter((k) => k === 'PatchPod:InPlaceUpdate')).toHaveLength(3);
    expect(w.cloneSet.status!.updatedReadyReplicas).toBe(3);
  });

  test('C31: a label removed from the template is removed from the pods in place', () => {
    const cs = sample({ updateStrategy: { type: 'InPlaceIfPossible' } });
    cs.spec.template.metadata!.labels!.tier = 'web';
    const w = new World(cs).useIds(...IDS);
    w.settle();
    const before = uids(w);
    w.edit((c) => delete c.spec.template.metadata!.labels!.tier);
    w.settle();
    expect(uids(w)).toEqual(before);
    expect(w.activePods().map((p) => p.metadata.labels?.tier)).toEqual([undefined, undefined, undefined]);
    expect(countRev(w, updateRev(w))).toBe(3);
  });

  test.each([
    ['image only', 'InPlaceIfPossible', true, 'image'],
    ['image only', 'InPlaceOnly', true, 'image'],
    ['image only', 'ReCreate', false, 'image'],
    ['labels only', 'InPlaceIfPossible', true, 'label'],
    ['labels only', 'InPlaceOnly', true, 'label'],
    ['labels only', 'ReCreate', false, 'label'],
    ['env', 'InPlaceIfPossible', false, 'env'],
    ['env', 'ReCreate', false, 'env'],
  ] as const)('C31 eligibility: %s change under %s is made in place: %p', (_what, type, inPlace, change) => {
    const w = new World(sample({ updateStrategy: { type } })).useIds(...IDS);
    w.settle();
    const before = uids(w);
    w.edit((c) => {
      if (change === 'image') setImage(c, 'v2');
      else if (change === 'label') c.spec.template.metadata!.labels!.tier = 'web';
      else c.spec.template.spec.containers[0].env = [{ name: 'MODE', value: 'x' }];
    });
    w.settle();
    expect(countRev(w, updateRev(w))).toBe(3);
    if (inPlace) expect(uids(w)).toEqual(before);
    else expect(Object.values(uids(w)).some((u) => Object.values(before).includes(u))).toBe(false);
  });
});

describe('C32: env-from-metadata annotation change restarts the container in place', () => {
  function restartable(): World {
    const cs = sample({ updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 } });
    cs.spec.template.metadata!.annotations = { 'example.io/restart-token': '1' };
    cs.spec.template.spec.containers[0].env = [
      {
        name: 'RESTART_TOKEN',
        valueFrom: { fieldRef: { fieldPath: "metadata.annotations['example.io/restart-token']" } },
      },
    ];
    const w = new World(cs).useIds(...IDS);
    w.settle();
    return w;
  }

  test('C32: the first pod keeps its UID and image, gets token "2" and r2, and its state records updateEnvFromMetadata', () => {
    const w = restartable();
    const before = uids(w);
    w.edit((c) => (c.spec.template.metadata!.annotations = { 'example.io/restart-token': '2' }));
    const plan = round(w);
    const r2 = updateRev(w);
    expect(kinds(plan)).toEqual(['PatchPodStatus:StartInPlaceUpdate', 'PatchPod:InPlaceUpdate']);
    const p = w.activePods().find((x) => revOf(x) === r2)!;
    expect(p.metadata.uid).toBe(before[p.metadata.name!]);
    expect(imageOf(p)).toBe(img('v1'));
    expect(p.metadata.annotations?.['example.io/restart-token']).toBe('2');
    expect(stateOf(p)).toBe('Updating');
    expect(inPlaceState(p)).toMatchObject({ revision: r2, updateEnvFromMetadata: true });
    expect(uids(w)).toEqual(before);
  });

  test('C32 without kruise-daemon (documented limitation, docs/behaviour/cloneset.md#edge-env-from-metadata): the restart never completes, so the other pods wait (maxUnavailable 1)', () => {
    const w = restartable();
    const before = uids(w);
    w.edit((c) => (c.spec.template.metadata!.annotations = { 'example.io/restart-token': '2' }));
    for (let i = 0; i < 20; i++) round(w.tick(10));
    const r2 = updateRev(w);
    expect(countRev(w, r2)).toBe(1);
    expect(w.activePods().map(stateOf).sort()).toEqual(['Normal', 'Normal', 'Updating']);
    expect(uids(w)).toEqual(before);
    expect(w.cloneSet.status!.updatedReadyReplicas).toBe(0);
  });

  test('C32 contrast: when no container reads the annotation the change is a pure metadata patch that completes at once', () => {
    const cs = sample({ updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 } });
    cs.spec.template.metadata!.annotations = { 'example.io/restart-token': '1' };
    const w = new World(cs).useIds(...IDS);
    w.settle();
    w.edit((c) => (c.spec.template.metadata!.annotations = { 'example.io/restart-token': '2' }));
    w.settle();
    expect(countRev(w, updateRev(w))).toBe(3);
    expect(w.activePods().map((p) => p.metadata.annotations?.['example.io/restart-token'])).toEqual([
      '2',
      '2',
      '2',
    ]);
    expect(w.activePods().map((p) => p.status?.containerStatuses?.[0].restartCount)).toEqual([0, 0, 0]);
  });
});

describe('InPlaceOnly with a change that cannot be done in place (docs/behaviour/cloneset.md#edge-inplace-only)', () => {
  test('no pod is recreated; FailedUpdate names the pod and a Warning Event says the same, until the template is fixed', () => {
    const w = new World(sample({ replicas: 2, updateStrategy: { type: 'InPlaceOnly' } }));
    w.settle();
    const before = uids(w);
    w.edit((cs) => {
      cs.spec.template.spec.containers[0].env = [{ name: 'X', value: '1' }];
    });
    const plan = w.reconcile();
    w.kubelet();
    const firstPod = Object.keys(before).sort()[0];
    const message = `find Pod ${firstPod} update strategy is InPlaceOnly but can not update in-place`;
    expect(plan.actions).toEqual([]);
    expect(plan.events).toEqual([{ type: 'Warning', reason: 'FailedUpdate', message }]);
    expect(
      w.cloneSet.status?.conditions
        ?.filter((c) => c.type === 'FailedUpdate')
        .map((c) => [c.status, c.message]),
    ).toEqual([['True', message]]);
    expect(uids(w)).toEqual(before);

    w.edit((cs) => {
      delete cs.spec.template.spec.containers[0].env;
    });
    w.settle();
    expect((w.cloneSet.status?.conditions ?? []).map((c) => c.type)).not.toContain('FailedUpdate');
    expect(uids(w)).toEqual(before);
  });
});
