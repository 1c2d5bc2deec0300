/**
 * Scaling and scale-down ordering on the in-memory World: docs/behaviour/scenarios.md cases C15, C16, C18,
 * C19, C20, C21 and the CloneSet analogue of S05.
 */
import { LABEL_SPECIFIED_DELETE } from '../../../lib/api/keys.js';
import type { Pod } from '../../../lib/api/types.js';
import { diffRecord } from '../support/fixtures.js';
import { World } from '../support/world.js';
import {
  actionPod,
  availablePods,
  countRev,
  crashLoop,
  drive,
  img,
  imageOf,
  kinds,
  names,
  revOf,
  round,
  sample,
  setImage,
  uids,
  updateRev,
} from './helpers.js';

const IDS = 'abcdefghijklmnopqrstuvwxyz'.split('');

const iso = (d: Date, minusSeconds = 0): string =>
  new Date(d.getTime() - minusSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('C15: selective deletion honours maxSurge and maxUnavailable', () => {
  test.each([
    ['podsToDelete', (w: World) => w.edit((cs) => (cs.spec.scaleStrategy = { podsToDelete: ['sample-a'] }))],
    [
      'the specified-delete label',
      (w: World) => (w.pod('sample-a').metadata.labels![LABEL_SPECIFIED_DELETE] = 'true'),
    ],
  ])(
    'C15 case A (%s): maxSurge 1 / maxUnavailable 0 creates the replacement first and deletes sample-a only once it is Available',
    (_how, mark) => {
      const w = new World(
        sample({ replicas: 3, updateStrategy: { type: 'ReCreate', maxSurge: 1, maxUnavailable: 0 } }),
      ).useIds(...IDS);
      w.settle();
      mark(w);
      const first = w.reconcile();
      expect(kinds(first)).toEqual(['CreatePod']);
      w.kubelet();
      let fourBeforeDelete = false;
      drive(w, () => {
        if (w.activePods().length === 4 && names(w).includes('sample-a')) fourBeforeDelete = true;
        expect(availablePods(w).length).toBeGreaterThanOrEqual(3);
        expect(w.cloneSet.status!.availableReplicas).toBeGreaterThanOrEqual(3);
      });
      expect(fourBeforeDelete).toBe(true);
      expect(names(w)).toEqual(['sample-b', 'sample-c', 'sample-d']);
      expect(w.cloneSet.spec.scaleStrategy?.podsToDelete ?? []).toEqual([]);
      const deletes = w.plans.flatMap((p) => p.actions).filter((a) => a.type === 'DeletePod');
      expect(deletes).toEqual([
        expect.objectContaining({
          reason: 'SpecifiedDelete',
          pod: expect.objectContaining({ name: 'sample-a' }),
        }),
      ]);
    },
  );

  test('C15 case B: maxSurge 0 / maxUnavailable 1 deletes 2 specified pods one at a time, ≥ 3 available throughout', () => {
    const w = new World(
      sample({ replicas: 4, updateStrategy: { type: 'ReCreate', maxSurge: 0, maxUnavailable: 1 } }),
    ).useIds(...IDS);
    w.settle();
    w.edit((cs) => (cs.spec.scaleStrategy = { podsToDelete: ['sample-a', 'sample-b'] }));
    const first = w.reconcile();
    expect(first.actions).toEqual([
      expect.objectContaining({ type: 'DeletePod', pod: expect.objectContaining({ name: 'sample-a' }) }),
    ]);
    w.kubelet();
    let bDeletedWhileReplacementUnavailable = false;
    drive(w, () => {
      expect(availablePods(w).length).toBeGreaterThanOrEqual(3);
      if (!names(w).includes('sample-b') && w.activePods().length === 3 && availablePods(w).length < 3)
        bDeletedWhileReplacementUnavailable = true;
    });
    expect(bDeletedWhileReplacementUnavailable).toBe(false);
    expect(names(w)).toEqual(['sample-c', 'sample-d', 'sample-e', 'sample-f']);
    expect(w.cloneSet.spec.scaleStrategy?.podsToDelete).toEqual([]);
  });
});

describe('C16: scale-down stalls while pods are Ready but not yet Available (wontfix upstream, parity)', () => {
  test('C16: 5 → 3 with minReadySeconds 99999 deletes nothing; status 5/5/0; removing minReadySeconds finishes at 3', () => {
    const w = new World(
      sample({ replicas: 5, minReadySeconds: 99999, updateStrategy: { type: 'ReCreate' } }),
    ).useIds(...IDS);
    w.settle();
    w.tick(300);
    w.edit((cs) => (cs.spec.replicas = 3));
    for (let i = 0; i < 5; i++) round(w.tick(10));
    expect(w.plans.at(-1)!.diff).toEqual(diffRecord({ scaleDownNum: 2 }));
    expect(w.activePods()).toHaveLength(5);
    expect(w.pods.some((p) => p.metadata.deletionTimestamp)).toBe(false);
    const s = w.cloneSet.status!;
    expect([s.replicas, s.readyReplicas, s.availableReplicas]).toEqual([5, 5, 0]);

    w.edit((cs) => delete cs.spec.minReadySeconds);
    w.settle();
    expect(w.activePods()).toHaveLength(3);
    expect(w.cloneSet.status!.availableReplicas).toBe(3);
  });
});

describe('C18: which pod is deleted first', () => {
  test('C18: scaling 4 → 2 deletes the unassigned sample-a, then sample-c (no cost, Ready for less time)', () => {
    const w = new World(sample({ replicas: 4 })).useIds(...IDS);
    w.settle();
    const set = (name: string, node: string | undefined, readyFor?: number, cost?: string): void => {
      const p: Pod = w.pod(name);
      if (node) p.spec.nodeName = node;
      else {
        delete p.spec.nodeName;
        p.status = { phase: 'Pending' };
        w.stuck.add(name);
      }
      const ready = p.status?.conditions?.find((c) => c.type === 'Ready');
      if (ready && readyFor !== undefined) ready.lastTransitionTime = iso(w.now, readyFor);
      if (cost)
        p.metadata.annotations = {
          ...p.metadata.annotations,
          'controller.kubernetes.io/pod-deletion-cost': cost,
        };
    };
    set('sample-a', undefined);
    set('sample-b', 'node-1', 3600, '100');
    set('sample-c', 'node-2', 300);
    set('sample-d', 'node-3', 7200);
    w.edit((cs) => (cs.spec.replicas = 2));
    const plan = w.reconcile();
    expect(plan.actions.map((a) => (a.type === 'DeletePod' ? a.pod.name : a.type))).toEqual([
      'sample-a',
      'sample-c',
    ]);
    expect(names(w)).toEqual(['sample-b', 'sample-d']);
  });
});

describe('C19: scaleStrategy.maxUnavailable throttles scale-up', () => {
  test('C19: 3 → 10 with minReadySeconds 60 and scaleStrategy.maxUnavailable 2 goes 3 → 5 → 7 → 9 → 10 with ScaleUpLimited events', () => {
    const w = new World(
      sample({ replicas: 3, minReadySeconds: 60, scaleStrategy: { maxUnavailable: 2 } }),
    ).useIds(...IDS);
    drive(w, () => undefined, 5);
    w.tick(60);
    w.settle();
    expect(availablePods(w)).toHaveLength(3);
    w.edit((cs) => (cs.spec.replicas = 10));
    const counts: number[] = [];
    drive(
      w,
      () => {
        expect(w.activePods().length - availablePods(w).length).toBeLessThanOrEqual(2);
        if (counts.at(-1) !== w.activePods().length) counts.push(w.activePods().length);
      },
      5,
    );
    expect(counts).toEqual([5, 7, 9, 10]);
    const limited = w.plans.flatMap((p) => p.events).filter((e) => e.reason === 'ScaleUpLimited');
    expect(limited.length).toBeGreaterThanOrEqual(3);
    expect(limited.every((e) => e.type === 'Warning')).toBe(true);
    expect(w.cloneSet.status!.availableReplicas).toBe(10);
  });

  test('C19: pods already unavailable before the scale-up use up the budget (0 creatable)', () => {
    const w = new World(sample({ replicas: 3, scaleStrategy: { maxUnavailable: 2 } })).useIds(...IDS);
    w.settle();
    crashLoop(w, 'sample-a');
    crashLoop(w, 'sample-b');
    w.edit((cs) => (cs.spec.replicas = 6));
    const plan = w.reconcile();
    expect(plan.diff).toEqual(diffRecord({ scaleUpNum: 3 }));
    expect(plan.actions.filter((a) => a.type === 'CreatePod')).toEqual([]);
    expect(plan.events.map((e) => [e.type, e.reason])).toEqual([['Warning', 'ScaleUpLimited']]);
  });

  test('C19: scale-down is not throttled by scaleStrategy.maxUnavailable', () => {
    const w = new World(sample({ replicas: 6, scaleStrategy: { maxUnavailable: 1 } })).useIds(...IDS);
    w.settle();
    w.edit((cs) => (cs.spec.replicas = 2));
    const plan = w.reconcile();
    expect(plan.actions.filter((a) => a.type === 'DeletePod')).toHaveLength(4);
  });
});

describe('C20: Failed and Succeeded pods are ignored, not cleaned up', () => {
  test.each(['Failed', 'Succeeded'])(
    'C20: a %s pod is left for pod GC; a replacement is created; status counts 1',
    (phase) => {
      const w = new World(sample({ replicas: 1 })).useIds(...IDS);
      w.settle();
      const a = w.pod('sample-a');
      a.status = { ...a.status, phase, reason: 'Evicted' };
      w.stuck.add('sample-a');
      const from = w.plans.length;
      const plan = w.reconcile();
      expect(kinds(plan)).toEqual(['CreatePod']);
      w.kubelet();
      w.settle();
      expect(w.pods.map((p) => p.metadata.name).sort()).toEqual(['sample-a', 'sample-b']);
      expect(w.pod('sample-a').metadata.deletionTimestamp).toBeUndefined();
      expect(
        w.plans
          .slice(from)
          .flatMap((p) => p.actions)
          .some((x) => actionPod(x) === 'sample-a'),
      ).toBe(false);
      const s = w.cloneSet.status!;
      expect([s.replicas, s.readyReplicas, s.availableReplicas]).toEqual([1, 1, 1]);
      // scaling down picks among active pods only
      w.edit((cs) => (cs.spec.replicas = 0));
      w.settle();
      expect(w.pods.map((p) => p.metadata.name)).toEqual(['sample-a']);
    },
  );
});

describe('C21: ownership: release on label removal, no adoption of orphans', () => {
  test('C21: removing app from sample-a releases it and creates a replacement; adding it back does not re-adopt it', () => {
    const w = new World(sample()).useIds(...IDS);
    w.settle();
    const owned = (): string[] =>
      w.pods
        .filter((p) => (p.metadata.ownerReferences ?? []).some((r) => r.uid === 'uid-sample'))
        .map((p) => p.metadata.name!)
        .sort();

    delete w.pod('sample-a').metadata.labels!.app;
    const release = w.reconcile();
    expect(kinds(release)[0]).toBe('PatchPod:ReleaseOwnership');
    expect(w.pod('sample-a').metadata.ownerReferences).toEqual([]);
    w.kubelet();
    w.settle();
    expect(owned()).toEqual(['sample-b', 'sample-c', 'sample-d']);
    expect(w.cloneSet.status!.replicas).toBe(3);

    w.pod('sample-a').metadata.labels!.app = 'sample';
    w.settle();
    expect(w.pod('sample-a').metadata.ownerReferences).toEqual([]);
    expect(owned()).toEqual(['sample-b', 'sample-c', 'sample-d']);
    expect(w.pods).toHaveLength(4);
    expect(w.cloneSet.status!.replicas).toBe(3);
  });

  test('C21: a bare pod matching the selector that never referenced the CloneSet is not adopted', () => {
    const w = new World(sample()).useIds(...IDS);
    w.settle();
    w.pods.push({
      metadata: { name: 'bare', namespace: 'default', uid: 'uid-bare', labels: { app: 'sample' } },
      spec: { containers: [{ name: 'main', image: img('v1') }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    });
    w.settle();
    expect(w.pod('bare').metadata.ownerReferences).toBeUndefined();
    expect(w.pods).toHaveLength(4);
    expect(w.cloneSet.status!.replicas).toBe(3);
  });
});

describe('S05 (Deployment proportional scaling), CloneSet analogue: no proportional split', () => {
  test('S05: partition 8 of 10 rolled out; scaling to 15 keeps 8 old pods and adds all 5 at the update revision', () => {
    const w = new World(
      sample({
        replicas: 10,
        updateStrategy: { type: 'ReCreate', partition: 8, maxSurge: 3, maxUnavailable: 2 },
      }),
    ).useIds(...IDS);
    w.settle();
    const r1 = updateRev(w);
    w.edit((cs) => setImage(cs, 'v2'));
    w.settle();
    const r2 = updateRev(w);
    expect([countRev(w, r1), countRev(w, r2)]).toEqual([8, 2]);
    w.edit((cs) => (cs.spec.replicas = 15));
    w.settle();
    expect([countRev(w, r1), countRev(w, r2)]).toEqual([8, 7]);
  });

  test('S05: a rollout stuck on a crashing image with partition 0 puts every pod of a scale-up on the update revision', () => {
    const w = new World(
      sample({ replicas: 10, updateStrategy: { type: 'ReCreate', maxSurge: 3, maxUnavailable: 2 } }),
    ).useIds(...IDS);
    w.settle();
    const r1 = updateRev(w);
    w.edit((cs) => setImage(cs, 'bad'));
    const crashBad = (): void => {
      for (const p of w.activePods())
        if (imageOf(p) === img('bad') && !w.stuck.has(p.metadata.name!)) crashLoop(w, p.metadata.name!);
    };
    for (let i = 0; i < 30; i++) {
      round(w);
      crashBad();
    }
    const oldBefore = countRev(w, r1);
    const total = w.activePods().length;
    expect(oldBefore).toBeGreaterThan(0);
    expect(total).toBe(13);
    const seen = new Set(w.pods.map((p) => p.metadata.name));
    w.edit((cs) => (cs.spec.replicas = 15));
    for (let i = 0; i < 30; i++) {
      round(w);
      crashBad();
    }
    const added = w.activePods().filter((p) => !seen.has(p.metadata.name));
    expect(added.length).toBeGreaterThanOrEqual(5);
    expect(added.every((p) => revOf(p) === updateRev(w))).toBe(true);
    expect(countRev(w, r1)).toBeLessThanOrEqual(oldBefore);
    expect(uids(w)).toBeDefined();
  });
});
