/**
 * The scale phase (docs/behaviour/cloneset.md#scale-phase) on the diff scenarios 1–26 and on TestScale /
 * TestDeletePods / TestSyncCloneSet (scenarios 28, 30, 50a–d; all indexed in docs/behaviour/scenarios.md),
 * lifecycle hooks, pre-delete cancellation and the field cases.
 */
import { LABEL_INSTANCE_ID, LifecycleState } from '../../../../../lib/api/keys.js';
import type { Pod } from '../../../../../lib/api/types.js';
import { lifecycleStatePatch } from '../../../../../lib/podset/lifecycle/patch.js';
import { deletePodsActions, planScale } from '../../../../../lib/controllers/cloneset/plan/sync/scale.js';
import type { Action } from '../../../../../lib/podset/actions.js';
import { DIFF_SCENARIOS, scenarioContext, type DiffScenario } from '../../../support/diffScenarios.js';
import {
  cloneSet,
  diffRecord,
  named,
  NEW_REV,
  NOW,
  OLD_REV,
  P,
  phaseContext,
  pod,
  pvc,
} from '../../../support/fixtures.js';

/** The expected actions of a scenario's `then`. */
function expectedActions(s: DiffScenario): unknown[] {
  const cur = s.consistent ? NEW_REV : OLD_REV;
  const out: unknown[] = [];
  (s.then.create ?? []).forEach((which, k) =>
    out.push({
      type: 'CreatePod',
      revision: which === 'cur' ? cur : NEW_REV,
      batch: Math.floor(Math.log2(k + 1)),
    }),
  );
  for (const i of s.then.preDelete ?? []) {
    out.push({
      type: 'PatchPod',
      pod: { name: `pod-${i}`, uid: `uid-pod-${i}` },
      reason: 'LifecycleTransition',
      patch: lifecycleStatePatch(LifecycleState.PreparingDelete, NOW),
    });
  }
  for (const i of s.then.delete ?? []) {
    const sd = s.pods[i][3];
    out.push({
      type: 'DeletePod',
      pod: { name: `pod-${i}`, uid: `uid-pod-${i}` },
      reason: sd ? 'SpecifiedDelete' : 'ScaleDown',
      pvcNames: [],
    });
  }
  return out;
}

/** Actions with CreatePod reduced to type/revision/batch (pod content is covered by create.test.ts). */
function summary(actions: Action[]): unknown[] {
  return actions.map((a) =>
    a.type === 'CreatePod' ? { type: a.type, revision: a.revision, batch: a.batch } : a,
  );
}

describe('planScale on the diff scenarios (scenarios 1–26, docs/behaviour/scenarios.md)', () => {
  it.each(DIFF_SCENARIOS.map((s, i) => [`${i}: ${s.name}`, s] as const))('%s', (_name, s) => {
    const res = planScale(scenarioContext(s));
    expect(res.error).toBeUndefined();
    expect(summary(res.actions)).toEqual(expectedActions(s));
    expect(res.changed).toBe(res.actions.length > 0);
    expect(res.events).toEqual(
      s.then.limited === undefined
        ? []
        : [
            {
              type: 'Warning',
              reason: 'ScaleUpLimited',
              message: `scaleUp is limited because of scaleStrategy.maxUnavailable, limit: ${s.then.limited}`,
            },
          ],
    );
  });
});

describe('planScale specifics', () => {
  it('creates pods with ids in ascending order, names foo-<id>, current revision first', () => {
    const cs = cloneSet(4, '90%', 1, 0);
    const pods = named([
      P(OLD_REV, 'PreparingUpdate', true),
      P(OLD_REV, 'Normal', true),
      P(OLD_REV, 'Normal', true),
    ]);
    const ctx = phaseContext(cs, pods, { newInstanceId: () => 'zzzzz' });
    const res = planScale(ctx);
    expect(res.actions).toHaveLength(1);
    const a = res.actions[0];
    expect(a.type === 'CreatePod' && [a.pod.metadata.name, a.revision]).toEqual(['foo-zzzzz', OLD_REV]);
  });

  it('errors without spec.replicas and plans nothing', () => {
    const cs = cloneSet(1);
    delete cs.spec.replicas;
    const res = planScale(phaseContext(cs, []));
    expect(res).toMatchObject({ changed: false, actions: [], error: 'spec.Replicas is nil' });
  });

  it('reports an id-generation failure as the phase error', () => {
    const ctx = phaseContext(cloneSet(2), named([P(NEW_REV, 'Normal', true)]), {
      newInstanceId: () => 'id0',
    });
    const res = planScale(ctx);
    expect(res).toMatchObject({
      changed: false,
      actions: [],
      error: 'cannot generate an unused instance id',
    });
  });

  it('cancels a pending deletion instead of creating a pod when replicas are raised (docs/behaviour/cloneset.md#edge-cancel-deletion)', () => {
    const pods = named([
      P(NEW_REV, 'Normal', true),
      P(NEW_REV, 'PreparingDelete', true),
      P(NEW_REV, 'PreparingDelete', true),
    ]);
    const res = planScale(phaseContext(cloneSet(3), pods));
    // diff = R − podCount + numToDelete = 3 − 3 + 2 = 2: both are moved back, in list order
    expect(res.actions).toEqual([
      {
        type: 'PatchPod',
        pod: { name: 'pod-1', uid: 'uid-pod-1' },
        reason: 'CancelPreDelete',
        patch: lifecycleStatePatch('PreparingNormal', NOW),
      },
      {
        type: 'PatchPod',
        pod: { name: 'pod-2', uid: 'uid-pod-2' },
        reason: 'CancelPreDelete',
        patch: lifecycleStatePatch('PreparingNormal', NOW),
      },
    ]);
    expect(res.changed).toBe(true);
  });

  it('cancels only as many pending deletions as pods are missing, skipping specified-delete ones', () => {
    const pods = named([
      P(NEW_REV, 'PreparingDelete', true, true),
      P(NEW_REV, 'PreparingDelete', true),
      P(NEW_REV, 'PreparingDelete', true),
    ]);
    const cs = cloneSet(1);
    cs.spec.lifecycle = { preDelete: { labelsHandler: { never: 'x' } } };
    // diff = 1 − 3 + 3 = 1: pod-0 is specified-delete (skipped), pod-1 is cancelled, then diff is 0
    const res = planScale(phaseContext(cs, pods));
    expect(res.actions.map((a) => a.type === 'PatchPod' && [a.pod.name, a.reason])).toEqual([
      ['pod-1', 'CancelPreDelete'],
    ]);
  });

  it('never cancels a pending deletion when a markPodNotReady hook is configured', () => {
    const pods = named([P(NEW_REV, 'Normal', true), P(NEW_REV, 'PreparingDelete', true)]);
    for (const lifecycle of [
      { preDelete: { labelsHandler: { h: 'y' }, markPodNotReady: true } },
      { inPlaceUpdate: { labelsHandler: { h: 'y' }, markPodNotReady: true } },
    ]) {
      const cs = cloneSet(3);
      cs.spec.lifecycle = lifecycle;
      const res = planScale(phaseContext(cs, pods));
      expect(res.actions.map((a) => a.type)).toEqual(['CreatePod']);
    }
  });

  it('deletes a released PreparingDelete pod with its PVCs (step 5)', () => {
    const pods = named([P(NEW_REV, 'Normal', true), P(NEW_REV, 'PreparingDelete', true, true)]);
    const cs = cloneSet(1);
    cs.spec.lifecycle = { preDelete: { finalizersHandler: ['example.com/hold'] } };
    const res = planScale(phaseContext(cs, pods, { pvcs: [pvc('id1'), pvc('id0'), pvc('id1', 'logs')] }));
    expect(res.actions).toEqual([
      {
        type: 'DeletePod',
        pod: { name: 'pod-1', uid: 'uid-pod-1' },
        reason: 'PreDeleteHookReleased',
        pvcNames: ['datadir-foo-id1', 'logs-foo-id1'],
      },
    ]);
  });

  it('keeps a still-hooked PreparingDelete pod and waits (nothing else happens while deletions are planned)', () => {
    const pods = named([
      P(NEW_REV, 'Normal', true),
      P(NEW_REV, 'Normal', true),
      P(NEW_REV, 'PreparingDelete', true, false, { finalizers: ['example.com/hold'] }),
    ]);
    const cs = cloneSet(1);
    cs.spec.lifecycle = { preDelete: { finalizersHandler: ['example.com/hold'] } };
    const res = planScale(phaseContext(cs, pods));
    expect(res.diff).toEqual(diffRecord({ scaleDownNum: 2, deleteReadyLimit: 2 }));
    expect(res).toMatchObject({ changed: false, actions: [] });
  });

  it('marks the pod not ready before PreparingDelete when preDelete.markPodNotReady is set', () => {
    const hooked = P(NEW_REV, 'Normal', true, true, {
      name: 'pod-0',
      labels: { hook: 'true' },
      readinessGates: ['KruisePodReady'],
    });
    const cs = cloneSet(1);
    cs.spec.lifecycle = { preDelete: { labelsHandler: { hook: 'true' }, markPodNotReady: true } };
    const res = planScale(phaseContext(cs, [hooked, ...named([P(NEW_REV, 'Normal', true)], 'other')]));
    expect(res.actions).toEqual([
      {
        type: 'PatchPodStatus',
        pod: { name: 'pod-0', uid: 'uid-pod-0' },
        reason: 'MarkPodNotReady',
        patch: {
          status: {
            conditions: [
              {
                type: 'KruisePodReady',
                status: 'False',
                message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]',
                lastTransitionTime: '2024-05-01T08:00:00Z',
              },
            ],
          },
        },
      },
      {
        type: 'PatchPod',
        pod: { name: 'pod-0', uid: 'uid-pod-0' },
        reason: 'LifecycleTransition',
        patch: lifecycleStatePatch('PreparingDelete', NOW),
      },
    ]);
  });

  it('uses reason ReplicasZero when scaling to zero (docs/behaviour/cloneset.md#edge-replicas-zero: all pods go at once)', () => {
    const pods = named([P(NEW_REV, 'Normal', true), P(NEW_REV, 'Normal', true), P(NEW_REV, 'Normal', true)]);
    const res = planScale(phaseContext(cloneSet(0, 0, '20%'), pods));
    expect(res.actions.map((a) => a.type === 'DeletePod' && [a.pod.name, a.reason])).toEqual([
      ['pod-0', 'ReplicasZero'],
      ['pod-1', 'ReplicasZero'],
      ['pod-2', 'ReplicasZero'],
    ]);
  });

  it('passes the resourceVersion of the planned pod as a precondition', () => {
    const p = named([P(NEW_REV, 'Normal', true, true)])[0];
    p.metadata.resourceVersion = '42';
    const ctx = phaseContext(cloneSet(1), [p, ...named([P(NEW_REV, 'Normal', true)], 'x')]);
    expect(deletePodsActions(ctx, [p], 'SpecifiedDelete')).toEqual([
      {
        type: 'DeletePod',
        pod: { name: 'pod-0', uid: 'uid-pod-0', resourceVersion: '42' },
        reason: 'SpecifiedDelete',
        pvcNames: [],
      },
    ]);
  });

  it('deletes no PVCs for a pod without an instance id', () => {
    const p: Pod = P(NEW_REV, 'Normal', true, true, { name: 'bare' });
    const ctx = phaseContext(cloneSet(1), [p], { pvcs: [pvc('id0')] });
    expect(deletePodsActions(ctx, [p], 'SpecifiedDelete')).toEqual([
      { type: 'DeletePod', pod: { name: 'bare', uid: 'uid-bare' }, reason: 'SpecifiedDelete', pvcNames: [] },
    ]);
  });
});

describe('TestScale (scenario 28, docs/behaviour/scenarios.md#s28): R=3, maxUnavailable 20%, 5 pods Ready for 10 s', () => {
  const readySince = new Date(NOW.getTime() - 10_000).toISOString();
  const fivePods = (sdFirst = false) =>
    named(
      [0, 1, 2, 3, 4].map((i) =>
        P(NEW_REV, 'Normal', true, sdFirst && i === 0, { readySince, instanceId: `id${i}` }),
      ),
    );
  const cs = (minReadySeconds: number) => {
    const c = cloneSet(3, 0, '20%', 0);
    c.spec.minReadySeconds = minReadySeconds;
    return c;
  };

  it('(a) minReadySeconds 9999: nothing deleted (budget max(1+2−5,0) = 0, pods ready)', () => {
    const res = planScale(phaseContext(cs(9999), fivePods(), { current: NEW_REV }));
    expect(res.diff).toEqual(diffRecord({ scaleDownNum: 2 }));
    expect(res).toMatchObject({ changed: false, actions: [] });
  });

  it('(b) pod-0 specified-delete: only pod-0 is deleted', () => {
    const res = planScale(phaseContext(cs(0), fivePods(true), { current: NEW_REV }));
    expect(res.actions.map((a) => a.type === 'DeletePod' && [a.pod.name, a.reason])).toEqual([
      ['pod-0', 'SpecifiedDelete'],
    ]);
  });

  it('(c) minReadySeconds 0: 2 pods deleted (budget 3)', () => {
    const res = planScale(phaseContext(cs(0), fivePods(), { current: NEW_REV }));
    expect(res.diff).toEqual(diffRecord({ scaleDownNum: 2, deleteReadyLimit: 3 }));
    expect(res.actions.map((a) => a.type === 'DeletePod' && [a.pod.name, a.reason])).toEqual([
      ['pod-0', 'ScaleDown'],
      ['pod-1', 'ScaleDown'],
    ]);
  });
});

describe('TestDeletePods (scenario 30, docs/behaviour/scenarios.md#s30)', () => {
  it('deletes foo-id1 and foo-id3 with their PVCs; datadir-foo-id2 survives', () => {
    const pods = ['id1', 'id3'].map((id) =>
      P(NEW_REV, 'Normal', true, true, { name: `foo-${id}`, instanceId: id }),
    );
    const ctx = phaseContext(cloneSet(0), pods, { pvcs: [pvc('id1'), pvc('id2'), pvc('id3')] });
    expect(deletePodsActions(ctx, pods, 'SpecifiedDelete')).toEqual([
      {
        type: 'DeletePod',
        pod: { name: 'foo-id1', uid: 'uid-foo-id1' },
        reason: 'SpecifiedDelete',
        pvcNames: ['datadir-foo-id1'],
      },
      {
        type: 'DeletePod',
        pod: { name: 'foo-id3', uid: 'uid-foo-id3' },
        reason: 'SpecifiedDelete',
        pvcNames: ['datadir-foo-id3'],
      },
    ]);
  });
});

describe('TestSyncCloneSet scale parts (scenario 50a–d, docs/behaviour/scenarios.md#s50): pods Running without Ready', () => {
  const running = (rev: string, n: number, from: number) =>
    Array.from({ length: n }, (_, i) =>
      P(rev, 'Normal', false, false, { phase: 'Running', name: `${rev}-${from + i}` }),
    );
  const onDelete = (replicas: number) => {
    const cs = cloneSet(replicas);
    cs.spec.updateStrategy = { type: 'OnDelete' };
    return cs;
  };
  const deleted = (actions: Action[]) => actions.flatMap((a) => (a.type === 'DeletePod' ? [a.pod.name] : []));

  it('(a) OnDelete, 5 old: unchanged', () => {
    const res = planScale(phaseContext(onDelete(5), named(running(OLD_REV, 5, 0))));
    expect(res).toMatchObject({ changed: false, actions: [] });
  });

  it('(b) OnDelete, 3 old: 2 pods created at the update revision', () => {
    const res = planScale(phaseContext(onDelete(5), named(running(OLD_REV, 3, 0))));
    expect(res.actions.map((a) => a.type === 'CreatePod' && a.revision)).toEqual([NEW_REV, NEW_REV]);
  });

  it('(c) OnDelete, R=6, 3 old + 5 new: 2 old deleted', () => {
    const res = planScale(
      phaseContext(onDelete(6), named([...running(OLD_REV, 3, 0), ...running(NEW_REV, 5, 0)])),
    );
    expect(res.diff).toEqual(
      diffRecord({ scaleDownNum: 2, scaleDownNumOldRevision: 3, updateNum: 1, updateMaxUnavailable: 3 }),
    );
    expect(deleted(res.actions)).toHaveLength(2);
    expect(deleted(res.actions).every((n) => n.startsWith(OLD_REV))).toBe(true);
  });

  it('(d) OnDelete, R=4, 3 old + 5 new: all 3 old + 1 new deleted', () => {
    const res = planScale(
      phaseContext(onDelete(4), named([...running(OLD_REV, 3, 0), ...running(NEW_REV, 5, 0)])),
    );
    const names = deleted(res.actions);
    expect(names.filter((n) => n.startsWith(OLD_REV))).toHaveLength(3);
    expect(names.filter((n) => n.startsWith(NEW_REV))).toHaveLength(1);
  });
});

describe('field cases (scale-phase parts)', () => {
  const ready = (rev: string, n: number, extras = {}) =>
    Array.from({ length: n }, () => P(rev, 'Normal', true, false, extras));

  it('C08: surge pod created, then the surplus r1 pod removed once 3 pods are r2', () => {
    const cs = cloneSet(8, 5, '10%', '10%');
    expect(planScale(phaseContext(cs, named(ready(OLD_REV, 8)))).actions.map((a) => a.type)).toEqual([
      'CreatePod',
    ]);
    const end = planScale(phaseContext(cs, named([...ready(OLD_REV, 6), ...ready(NEW_REV, 3)])));
    expect(end.diff).toEqual(
      diffRecord({ scaleDownNum: 1, scaleDownNumOldRevision: 1, deleteReadyLimit: 1 }),
    );
    expect(end.actions.map((a) => a.type === 'DeletePod' && a.pod.name)).toEqual(['pod-0']);
  });

  it('C10: maxSurge 2 / maxUnavailable 0 creates 2 r2 pods at once', () => {
    const cs = cloneSet(5, 0, 0, 2);
    cs.spec.minReadySeconds = 10;
    const res = planScale(phaseContext(cs, named(ready(OLD_REV, 5, { readySince: '2024-01-01T00:00:00Z' }))));
    expect(res.actions.map((a) => a.type === 'CreatePod' && a.revision)).toEqual([NEW_REV, NEW_REV]);
  });

  it('C12: not-ready r1 pods are not touched by the scale phase (update budget is the update phase)', () => {
    const res = planScale(
      phaseContext(cloneSet(5, 0, 1, 0), named(Array.from({ length: 5 }, () => P(OLD_REV, 'Normal', false)))),
    );
    expect(res).toMatchObject({ changed: false, actions: [] });
  });

  it('C13: raising maxSurge mid-rollout adds no pods', () => {
    const cs = cloneSet(4, 0, 0, '100%');
    cs.spec.minReadySeconds = 999999;
    const pods = named([
      ...ready(OLD_REV, 4, { readySince: '2024-05-01T07:00:00Z' }),
      ...ready(NEW_REV, 2, { readySince: '2024-05-01T07:59:00Z' }),
    ]);
    const res = planScale(phaseContext(cs, pods));
    expect(res.diff).toEqual(diffRecord({ useSurge: 2, updateNum: 2, updateMaxUnavailable: 2 }));
    expect(res.actions).toEqual([]);
  });

  it('C15 case A: replacement first, then the specified pod once the replacement is available', () => {
    const cs = cloneSet(3, 0, 0, 1);
    cs.spec.scaleStrategy = { podsToDelete: ['sample-a'] };
    const base = ['a', 'b', 'c'].map((n) => P(NEW_REV, 'Normal', true, false, { name: `sample-${n}` }));
    const first = planScale(phaseContext(cs, named(base)));
    expect(first.actions.map((a) => a.type)).toEqual(['CreatePod']);
    const waiting = planScale(
      phaseContext(cs, named([...base, P(NEW_REV, 'Normal', false, false, { name: 'sample-d' })])),
    );
    expect(waiting.actions).toEqual([]);
    const done = planScale(
      phaseContext(cs, named([...base, P(NEW_REV, 'Normal', true, false, { name: 'sample-d' })])),
    );
    expect(done.actions.map((a) => a.type === 'DeletePod' && [a.pod.name, a.reason])).toEqual([
      ['sample-a', 'SpecifiedDelete'],
    ]);
  });

  it('C15 case B: two specified pods, one Ready pod missing at a time', () => {
    const cs = cloneSet(4, 0, 1, 0);
    cs.spec.scaleStrategy = { podsToDelete: ['pod-0', 'pod-1'] };
    const res = planScale(phaseContext(cs, named(ready(NEW_REV, 4))));
    expect(res.actions.map((a) => a.type === 'DeletePod' && a.pod.name)).toEqual(['pod-0']);
  });

  it('C16: scale 5 → 3 stalls while pods are Ready but not Available', () => {
    const cs = cloneSet(3, 0, '20%', 0);
    cs.spec.minReadySeconds = 99999;
    const res = planScale(phaseContext(cs, named(ready(NEW_REV, 5, { readySince: '2024-05-01T07:55:00Z' }))));
    expect(res.diff).toEqual(diffRecord({ scaleDownNum: 2 }));
    expect(res.actions).toEqual([]);
  });

  it('C19: scaleStrategy.maxUnavailable 2 creates 2 pods and emits ScaleUpLimited', () => {
    const cs = cloneSet(10);
    cs.spec.scaleStrategy = { maxUnavailable: 2 };
    const res = planScale(phaseContext(cs, named(ready(NEW_REV, 3))));
    expect(res.actions).toHaveLength(2);
    expect(res.events.map((e) => [e.type, e.reason, e.message])).toEqual([
      ['Warning', 'ScaleUpLimited', 'scaleUp is limited because of scaleStrategy.maxUnavailable, limit: 2'],
    ]);
  });

  it('C20: a Failed pod is not claimed, so a replacement is created and the Failed pod is not deleted', () => {
    // the Failed pod never reaches the phase context (claimPods drops inactive pods), so 0 pods → create 1
    const res = planScale(phaseContext(cloneSet(1), []));
    expect(res.actions.map((a) => a.type)).toEqual(['CreatePod']);
  });

  it('C23: paused still scales; new pods at the update revision, r1 pods removed first', () => {
    const up = (partition: number) => {
      const cs = cloneSet(5, partition);
      cs.spec.updateStrategy = { ...cs.spec.updateStrategy, paused: true };
      return planScale(phaseContext(cs, named(ready(OLD_REV, 3)))).actions.map(
        (a) => a.type === 'CreatePod' && a.revision,
      );
    };
    expect(up(0)).toEqual([NEW_REV, NEW_REV]);
    expect(up(3)).toEqual([NEW_REV, NEW_REV]);
    expect(up(5)).toEqual([OLD_REV, OLD_REV]);
    const cs = cloneSet(2, 0, '20%');
    cs.spec.updateStrategy = { ...cs.spec.updateStrategy, paused: true };
    const down = planScale(phaseContext(cs, named([...ready(OLD_REV, 3), ...ready(NEW_REV, 2)])));
    expect(down.actions.map((a) => a.type === 'DeletePod' && a.pod.name)).toEqual([
      'pod-0',
      'pod-1',
      'pod-2',
    ]);
  });

  it('C36: a terminating PVC is not offered for reuse (the caller drops it); new ids are generated', () => {
    const cs = cloneSet(6);
    cs.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: {} }];
    const pods = named(ready(NEW_REV, 3));
    const res = planScale(
      phaseContext(cs, pods, {
        pvcs: [pvc('id0', 'data'), pvc('id1', 'data'), pvc('id2', 'data')],
        newInstanceId: (() => {
          let i = 0;
          return () => `n${i++}`;
        })(),
      }),
    );
    expect(
      res.actions.map(
        (a) => a.type === 'CreatePod' && [a.pod.metadata.name, a.pvcs.map((c) => c.metadata.name)],
      ),
    ).toEqual([
      ['foo-n0', ['data-foo-n0']],
      ['foo-n1', ['data-foo-n1']],
      ['foo-n2', ['data-foo-n2']],
    ]);
  });

  it('C37: scale 3 → 10 gives every pod its own PVC with the same instance id', () => {
    const cs = cloneSet(10);
    cs.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: {} }];
    const res = planScale(phaseContext(cs, named(ready(NEW_REV, 3))));
    expect(res.actions).toHaveLength(7);
    for (const a of res.actions) {
      if (a.type !== 'CreatePod') throw new Error('expected CreatePod');
      const id = a.pod.metadata.labels?.[LABEL_INSTANCE_ID] ?? '';
      expect(a.pod.metadata.name).toBe(`foo-${id}`);
      expect(
        a.pvcs.map((c) => [
          c.metadata.name,
          c.metadata.labels?.[LABEL_INSTANCE_ID],
          c.metadata.ownerReferences?.[0].kind,
        ]),
      ).toEqual([[`data-foo-${id}`, id, 'CloneSet']]);
      expect(a.pod.spec.volumes?.[0]).toEqual({
        name: 'data',
        persistentVolumeClaim: { claimName: `data-foo-${id}`, readOnly: false },
      });
    }
    expect(new Set(res.actions.map((a) => a.type === 'CreatePod' && a.pod.metadata.name)).size).toBe(7);
  });

  it('pod builder sanity: the lifecycle label of a created pod is PreparingNormal', () => {
    const res = planScale(phaseContext(cloneSet(1), []));
    const a = res.actions[0];
    expect(a.type === 'CreatePod' && a.pod.metadata.labels?.['lifecycle.apps.kruise.io/state']).toBe(
      'PreparingNormal',
    );
    expect(pod(NEW_REV, '', false).metadata.labels).toEqual({ 'controller-revision-hash': NEW_REV });
  });
});
