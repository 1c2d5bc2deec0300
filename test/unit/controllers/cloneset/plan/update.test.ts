import {
  ANNOTATION_INPLACE_UPDATE_GRACE,
  ANNOTATION_INPLACE_UPDATE_STATE,
  ANNOTATION_VCT_HASH,
} from '../../../../../lib/api/keys.js';
import type { Pod } from '../../../../../lib/api/types.js';
import { limitUpdateIndexes, planUpdate } from '../../../../../lib/controllers/cloneset/plan/sync/update.js';
import type { Action } from '../../../../../lib/podset/actions.js';
import { pod as P, revision } from '../../../support/fixtures.js';
import {
  ipPod,
  NEW_REV,
  NOW,
  OLD_REV,
  phaseContext,
  REV_NEW,
  REV_OLD,
  tpl,
  updateCloneSet,
} from './updateTestContext.js';

const T = '2024-05-01T08:00:00Z';
const hashed = (rev: string) => ({ 'pod-template-hash': rev });
const kinds = (actions: Action[]) =>
  actions.map(
    (a) => `${a.type}:${'pod' in a && 'uid' in a.pod ? a.pod.name : ''}:${'reason' in a ? a.reason : ''}`,
  );
const labelsOf = (a: Action) =>
  a.type === 'PatchPod' ? (a.patch.metadata as Record<string, unknown>).labels : undefined;

describe('planUpdate refresh step (docs/behaviour/cloneset.md#update-phase)', () => {
  it('scenario 32 "do nothing": only the pod-template-hash back-fill', () => {
    const res = planUpdate(phaseContext(updateCloneSet('InPlaceIfPossible'), [ipPod('p0', NEW_REV)]));
    expect(res).toEqual({
      changed: false,
      events: [],
      actions: [
        {
          type: 'PatchPod',
          pod: { name: 'p0', uid: 'uid-p0' },
          reason: 'BackfillPodTemplateHash',
          patch: { metadata: { labels: { 'pod-template-hash': 'new_rev' } } },
        },
      ],
    });
  });

  it('back-fill uses the suffix after the last "-" of controller-revision-hash', () => {
    const rev = revision('foo-7dd7d4f698', tpl('foo2'));
    const res = planUpdate(
      phaseContext(updateCloneSet('ReCreate'), [ipPod('p0', 'foo-7dd7d4f698')], {
        current: rev,
        update: rev,
      }),
    );
    expect(labelsOf(res.actions[0])).toEqual({ 'pod-template-hash': '7dd7d4f698' });
  });

  it('scenario 33: a missing InPlaceUpdateReady condition is added True, plus the back-fill', () => {
    const res = planUpdate(
      phaseContext(updateCloneSet('InPlaceIfPossible'), [ipPod('p0', NEW_REV, { ipur: false })]),
    );
    expect(kinds(res.actions)).toEqual([
      'PatchPodStatus:p0:InPlaceUpdateReady',
      'PatchPod:p0:BackfillPodTemplateHash',
    ]);
  });

  it('C24: paused and OnDelete still refresh InPlaceUpdateReady, then stop', () => {
    const pods = [
      ipPod('old', OLD_REV, { labels: hashed(OLD_REV) }),
      ipPod('new', NEW_REV, { ipur: false, labels: hashed(NEW_REV) }),
    ];
    const paused = updateCloneSet('ReCreate', 2);
    paused.spec.updateStrategy!.paused = true;
    expect(kinds(planUpdate(phaseContext(paused, pods)).actions)).toEqual([
      'PatchPodStatus:new:InPlaceUpdateReady',
    ]);
    expect(kinds(planUpdate(phaseContext(updateCloneSet('OnDelete', 2), pods)).actions)).toEqual([
      'PatchPodStatus:new:InPlaceUpdateReady',
    ]);
  });

  it('a refresh error aborts the phase', () => {
    const bad = ipPod('p0', NEW_REV, {
      labels: hashed(NEW_REV),
      annotations: { [ANNOTATION_INPLACE_UPDATE_STATE]: '{' },
    });
    expect(planUpdate(phaseContext(updateCloneSet('InPlaceIfPossible'), [bad])).error).toMatch(
      /invalid in-place update state/,
    );
  });
});

describe('planUpdate recreate (scenarios 34, 35, 50e/f)', () => {
  it('scenario 34: ReCreate labels the old pod specified-delete', () => {
    const res = planUpdate(
      phaseContext(updateCloneSet('ReCreate'), [ipPod('p0', OLD_REV, { labels: hashed(OLD_REV) })]),
    );
    expect(res.actions).toEqual([
      {
        type: 'PatchPod',
        pod: { name: 'p0', uid: 'uid-p0' },
        reason: 'RecreateUpdate',
        revision: 'new_rev',
        patch: { metadata: { labels: { 'apps.kruise.io/specified-delete': 'true' } } },
      },
    ]);
    expect(res.events).toEqual([]);
  });

  it('scenario 35: InPlaceIfPossible falls back to recreate when the new revision is not in-place compatible', () => {
    const broken = { ...REV_NEW, data: 'malformed' };
    const res = planUpdate(
      phaseContext(updateCloneSet('InPlaceIfPossible'), [ipPod('p0', OLD_REV, { labels: hashed(OLD_REV) })], {
        update: broken,
      }),
    );
    expect(kinds(res.actions)).toEqual(['PatchPod:p0:RecreateUpdate']);
  });

  it('an already labelled pod is not patched again', () => {
    const p = ipPod('p0', OLD_REV, {
      labels: { ...hashed(OLD_REV), 'apps.kruise.io/specified-delete': 'x' },
    });
    expect(planUpdate(phaseContext(updateCloneSet('ReCreate'), [p])).actions).toEqual([]);
  });

  it('scenario 50e: maxUnavailable 1 and 5 unavailable old pods → exactly one labelled', () => {
    const pods = Array.from({ length: 5 }, (_, i) =>
      P(OLD_REV, 'Normal', false, false, { name: `p${i}`, phase: 'Running', labels: hashed(OLD_REV) }),
    );
    const cs = updateCloneSet('ReCreate', 5);
    expect(kinds(planUpdate(phaseContext(cs, pods)).actions)).toEqual(['PatchPod:p0:RecreateUpdate']);
  });

  it('scenario 50f: 5 new pods → nothing', () => {
    const pods = Array.from({ length: 5 }, (_, i) =>
      P(NEW_REV, 'Normal', false, false, { name: `p${i}`, phase: 'Running', labels: hashed(NEW_REV) }),
    );
    expect(planUpdate(phaseContext(updateCloneSet('ReCreate', 5), pods)).actions).toEqual([]);
  });

  it('C34: with the VCT gate, a revision with another VCT hash is recreated; InPlaceOnly stays in place', () => {
    const o = { ...REV_OLD, metadata: { ...REV_OLD.metadata, annotations: { [ANNOTATION_VCT_HASH]: '1' } } };
    const n = { ...REV_NEW, metadata: { ...REV_NEW.metadata, annotations: { [ANNOTATION_VCT_HASH]: '2' } } };
    const pods = [ipPod('p0', OLD_REV, { labels: hashed(OLD_REV) })];
    const options = { recreatePodWhenChangeVCTInCloneSet: true };
    const ctx = (type: 'InPlaceIfPossible' | 'InPlaceOnly') =>
      phaseContext(updateCloneSet(type), pods, { current: o, update: n, options });
    expect(kinds(planUpdate(ctx('InPlaceIfPossible')).actions)).toEqual(['PatchPod:p0:RecreateUpdate']);
    expect(kinds(planUpdate(ctx('InPlaceOnly')).actions)).toEqual([
      'PatchPodStatus:p0:StartInPlaceUpdate',
      'PatchPod:p0:InPlaceUpdate',
    ]);
  });

  it('InPlaceOnly without an in-place path is an error, nothing recreated (docs/behaviour/cloneset.md#edge-inplace-only)', () => {
    const res = planUpdate(
      phaseContext(updateCloneSet('InPlaceOnly'), [
        ipPod('p0', 'unknown_rev', { labels: hashed('unknown_rev') }),
      ]),
    );
    expect(res.actions).toEqual([]);
    expect(res.error).toBe('find Pod p0 update strategy is InPlaceOnly but can not update in-place');
  });
});

describe('planUpdate in place (scenarios 36–39)', () => {
  const cs = (grace = 0) => {
    const c = updateCloneSet('InPlaceIfPossible');
    if (grace) c.spec.updateStrategy!.inPlaceUpdateStrategy = { gracePeriodSeconds: grace };
    return c;
  };

  it('scenario 36: in-place update without grace', () => {
    const res = planUpdate(phaseContext(cs(), [ipPod('p0', OLD_REV, { labels: hashed(OLD_REV) })]));
    expect(kinds(res.actions)).toEqual(['PatchPodStatus:p0:StartInPlaceUpdate', 'PatchPod:p0:InPlaceUpdate']);
    const patch = res.actions[1].type === 'PatchPod' ? res.actions[1].patch : {};
    expect(patch.spec).toEqual({ containers: [{ name: 'c1', image: 'foo2' }] });
    expect(
      (patch.metadata as Record<string, Record<string, unknown>>).annotations[
        ANNOTATION_INPLACE_UPDATE_STATE
      ],
    ).toBe(
      '{"revision":"new_rev","updateTimestamp":"2024-05-01T08:00:00Z","lastContainerStatuses":{"c1":{"imageID":"image-id-xyz"}},"updateImages":true,"containerBatchesRecord":[{"timestamp":"2024-05-01T08:00:00Z","containers":["c1"]}]}',
    );
    expect(res.requeueAfterSeconds).toBeUndefined();
  });

  it('scenario 37: grace period stores the spec and requests a requeue after 3630 s', () => {
    const res = planUpdate(phaseContext(cs(3630), [ipPod('p0', OLD_REV, { labels: hashed(OLD_REV) })]));
    const patch = res.actions[1].type === 'PatchPod' ? res.actions[1].patch : {};
    expect(patch.spec).toBeUndefined();
    expect(
      (patch.metadata as Record<string, Record<string, unknown>>).annotations[
        ANNOTATION_INPLACE_UPDATE_GRACE
      ],
    ).toBe('{"revision":"new_rev","containerImages":{"c1":"foo2"},"graceSeconds":3630}');
    expect(res.requeueAfterSeconds).toBe(3630);
  });

  it('a start cut short by a 409 on the pod patch (InPlaceUpdateReady already False, no grace annotation): started again, InPlaceUpdateReady never set True in between', () => {
    const cut = ipPod('p0', OLD_REV, { labels: hashed(OLD_REV), ready: false, ipur: false });
    cut.status!.conditions!.push({
      type: 'InPlaceUpdateReady',
      status: 'False',
      reason: 'StartInPlaceUpdate',
      lastTransitionTime: '2024-05-01T07:59:58Z',
    });
    const res = planUpdate(phaseContext(cs(3630), [cut]));
    expect(kinds(res.actions)).toEqual(['PatchPod:p0:InPlaceUpdate']);
    const annotations = (
      (res.actions[0].type === 'PatchPod' ? res.actions[0].patch.metadata : {}) as Record<
        string,
        Record<string, unknown>
      >
    ).annotations;
    expect(annotations[ANNOTATION_INPLACE_UPDATE_GRACE]).toBe(
      '{"revision":"new_rev","containerImages":{"c1":"foo2"},"graceSeconds":3630}',
    );
    expect(res.requeueAfterSeconds).toBe(3630);
  });

  it('the same pod once the update is no longer wanted (paused) is set InPlaceUpdateReady=True again', () => {
    const cut = ipPod('p0', OLD_REV, { labels: hashed(OLD_REV), ready: false, ipur: false });
    cut.status!.conditions!.push({
      type: 'InPlaceUpdateReady',
      status: 'False',
      reason: 'StartInPlaceUpdate',
    });
    const paused = cs(3630);
    paused.spec.updateStrategy!.paused = true;
    expect(kinds(planUpdate(phaseContext(paused, [cut])).actions)).toEqual([
      'PatchPodStatus:p0:InPlaceUpdateReady',
    ]);
  });

  const inGrace = (agoSeconds: number) =>
    ipPod('p0', NEW_REV, {
      image: 'foo1',
      ipur: false,
      state: 'Updating',
      annotations: {
        [ANNOTATION_INPLACE_UPDATE_GRACE]:
          '{"revision":"new_rev","containerImages":{"c1":"foo2"},"graceSeconds":3630}',
        [ANNOTATION_INPLACE_UPDATE_STATE]: `{"revision":"new_rev","updateTimestamp":"${new Date(
          NOW.getTime() - agoSeconds * 1000,
        )
          .toISOString()
          .replace('.000Z', 'Z')}","lastContainerStatuses":null,"updateImages":true}`,
      },
    });

  it('scenario 38: during the grace period only the back-fill, requeue after the remaining 20 s', () => {
    const res = planUpdate(phaseContext(cs(3630), [inGrace(3610)]));
    expect(kinds(res.actions)).toEqual(['PatchPod:p0:BackfillPodTemplateHash']);
    expect(res.requeueAfterSeconds).toBe(20);
  });

  it('scenario 39: after the grace period the image is applied and the grace annotation removed', () => {
    const res = planUpdate(phaseContext(cs(3630), [inGrace(3660)]));
    expect(kinds(res.actions)).toEqual([
      'PatchPod:p0:InPlaceUpdateGraceExpired',
      'PatchPod:p0:BackfillPodTemplateHash',
    ]);
    const patch = res.actions[0].type === 'PatchPod' ? res.actions[0].patch : {};
    expect(patch.spec).toEqual({ containers: [{ name: 'c1', image: 'foo2' }] });
  });

  it('C31: metadata-only change is applied in place, one pod at a time', () => {
    const o = revision(OLD_REV, {
      metadata: { labels: { app: 'foo' }, annotations: { 'example.io/note': 'a' } },
      spec: { containers: [{ name: 'c1', image: 'v1' }] },
    });
    const n = revision(NEW_REV, {
      metadata: { labels: { app: 'foo', tier: 'web' }, annotations: { 'example.io/note': 'b' } },
      spec: { containers: [{ name: 'c1', image: 'v1' }] },
    });
    const c = updateCloneSet('InPlaceIfPossible', 3);
    c.spec.updateStrategy!.maxUnavailable = '20%';
    const pods = [0, 1, 2].map((i) => ipPod(`p${i}`, OLD_REV, { image: 'v1', labels: hashed(OLD_REV) }));
    const res = planUpdate(phaseContext(c, pods, { current: o, update: n }));
    expect(kinds(res.actions)).toEqual(['PatchPodStatus:p0:StartInPlaceUpdate', 'PatchPod:p0:InPlaceUpdate']);
    const md = (res.actions[1].type === 'PatchPod' ? res.actions[1].patch.metadata : {}) as Record<
      string,
      Record<string, unknown>
    >;
    expect(md.labels.tier).toBe('web');
    expect(md.annotations['example.io/note']).toBe('b');
    expect(md.annotations[ANNOTATION_INPLACE_UPDATE_STATE]).toBe(
      '{"revision":"new_rev","updateTimestamp":"2024-05-01T08:00:00Z","lastContainerStatuses":null,"containerBatchesRecord":[{"timestamp":"2024-05-01T08:00:00Z","containers":[]}]}',
    );
  });

  it('C14 (unsettled, parity chosen): with surge pods present, the remaining old pods are updated in place', () => {
    const c = updateCloneSet('InPlaceIfPossible', 5);
    c.spec.updateStrategy = { type: 'InPlaceIfPossible', maxSurge: 3, maxUnavailable: '20%' };
    const pods = [
      ...[0, 1, 2].map((i) => ipPod(`new${i}`, NEW_REV, { state: 'Normal', labels: hashed(NEW_REV) })),
      ...[0, 1, 2, 3].map((i) => ipPod(`old${i}`, OLD_REV, { state: 'Normal', labels: hashed(OLD_REV) })),
    ];
    const res = planUpdate(phaseContext(c, pods));
    expect(kinds(res.actions).filter((k) => k.endsWith(':InPlaceUpdate'))).toEqual([
      'PatchPod:old0:InPlaceUpdate',
      'PatchPod:old1:InPlaceUpdate',
    ]);
  });

  it('C32: env-from-metadata update starts and then never completes without kruise-daemon', () => {
    const mk = (name: string, v: string) =>
      revision(name, {
        metadata: { labels: { app: 'foo' }, annotations: { 'example.io/restart-token': v } },
        spec: {
          containers: [
            {
              name: 'c1',
              image: 'foo1',
              env: [
                {
                  name: 'T',
                  valueFrom: { fieldRef: { fieldPath: "metadata.annotations['example.io/restart-token']" } },
                },
              ],
            },
          ],
        },
      });
    const res = planUpdate(
      phaseContext(updateCloneSet('InPlaceIfPossible'), [ipPod('p0', OLD_REV, { labels: hashed(OLD_REV) })], {
        current: mk(OLD_REV, '1'),
        update: mk(NEW_REV, '2'),
      }),
    );
    const md = (res.actions[1].type === 'PatchPod' ? res.actions[1].patch.metadata : {}) as Record<
      string,
      Record<string, string>
    >;
    expect(md.annotations['example.io/restart-token']).toBe('2');
    const state = md.annotations[ANNOTATION_INPLACE_UPDATE_STATE];
    expect(state).toContain('"updateEnvFromMetadata":true');
    const updating = ipPod('p0', NEW_REV, {
      state: 'Updating',
      ipur: false,
      labels: hashed(NEW_REV),
      annotations: { [ANNOTATION_INPLACE_UPDATE_STATE]: state },
    });
    expect(
      planUpdate(
        phaseContext(updateCloneSet('InPlaceIfPossible'), [updating], {
          current: mk(OLD_REV, '1'),
          update: mk(NEW_REV, '2'),
        }),
      ).actions,
    ).toEqual([]);
  });

  it('rollback (updateNum < 0, gate on) targets the current revision', () => {
    const c = updateCloneSet('InPlaceIfPossible', 2);
    c.spec.updateStrategy!.partition = 2;
    const pods = [
      ipPod('a', NEW_REV, { state: 'Normal', labels: hashed(NEW_REV) }),
      ipPod('b', OLD_REV, { state: 'Normal', labels: hashed(OLD_REV) }),
    ];
    const res = planUpdate(phaseContext(c, pods, { options: { cloneSetPartitionRollback: true } }));
    expect(labelsOf(res.actions[1])).toMatchObject({ 'controller-revision-hash': OLD_REV });
  });

  it('an unexpected lifecycle state is an error', () => {
    const res = planUpdate(
      phaseContext(updateCloneSet('InPlaceIfPossible'), [
        ipPod('p0', OLD_REV, { state: 'Weird', labels: hashed(OLD_REV) }),
      ]),
    );
    expect(res.error).toBe('not allowed to in-place update pod p0 in state Weird');
  });
});

describe('planUpdate with lifecycle hooks (scenarios 40–47)', () => {
  const preNormalLabel = { preNormal: { labelsHandler: { preNormalHooked: 'true' } } };
  const fin = { finalizersHandler: ['slb/online'] };

  it('scenario 40: PreparingNormal → Normal once scheduled, readiness not required', () => {
    const p = ipPod('p0', NEW_REV, {
      state: 'PreparingNormal',
      ready: false,
      nodeName: '127.0.0.1',
      labels: hashed(NEW_REV),
    });
    const res = planUpdate(phaseContext(updateCloneSet('InPlaceIfPossible'), [p]));
    expect(res.actions).toEqual([
      {
        type: 'PatchPod',
        pod: { name: 'p0', uid: 'uid-p0' },
        reason: 'LifecycleTransition',
        patch: {
          metadata: {
            labels: { 'lifecycle.apps.kruise.io/state': 'Normal' },
            annotations: { 'lifecycle.apps.kruise.io/timestamp': T },
          },
        },
      },
    ]);
  });

  it('scenario 41: preNormal hook not present → stays PreparingNormal', () => {
    const p = ipPod('p0', NEW_REV, { state: 'PreparingNormal', nodeName: 'n', labels: hashed(NEW_REV) });
    expect(
      planUpdate(phaseContext(updateCloneSet('InPlaceIfPossible', 1, { lifecycle: preNormalLabel }), [p]))
        .actions,
    ).toEqual([]);
  });

  it('scenario 42: preNormal hook present → Normal even unscheduled', () => {
    const p = ipPod('p0', NEW_REV, {
      state: 'PreparingNormal',
      labels: { ...hashed(NEW_REV), preNormalHooked: 'true' },
    });
    const res = planUpdate(
      phaseContext(updateCloneSet('InPlaceIfPossible', 1, { lifecycle: preNormalLabel }), [p]),
    );
    expect(labelsOf(res.actions[0])).toEqual({ 'lifecycle.apps.kruise.io/state': 'Normal' });
  });

  it('scenario 43: ReCreate of an unavailable PreparingNormal pod costs no budget', () => {
    const p = ipPod('p0', OLD_REV, { state: 'PreparingNormal', labels: hashed(OLD_REV) });
    const res = planUpdate(
      phaseContext(
        updateCloneSet('ReCreate', 1, {
          lifecycle: { preNormal: { finalizersHandler: ['slb.com/online'] } },
        }),
        [p],
      ),
    );
    expect(kinds(res.actions)).toEqual(['PatchPod:p0:RecreateUpdate']);
  });

  it('scenario 44: in place straight from PreparingNormal when no hook holds it', () => {
    const p = ipPod('p0', OLD_REV, { state: 'PreparingNormal', labels: hashed(OLD_REV) });
    const res = planUpdate(
      phaseContext(
        updateCloneSet('InPlaceIfPossible', 1, {
          lifecycle: { preNormal: { finalizersHandler: ['slb.com/online'] } },
        }),
        [p],
      ),
    );
    expect(kinds(res.actions)).toEqual(['PatchPodStatus:p0:StartInPlaceUpdate', 'PatchPod:p0:InPlaceUpdate']);
    expect(labelsOf(res.actions[1])).toMatchObject({ 'lifecycle.apps.kruise.io/state': 'Updating' });
  });

  it('scenario 45: refresh moves PreparingNormal → Normal and the phase stops', () => {
    const p = ipPod('p0', OLD_REV, {
      state: 'PreparingNormal',
      finalizers: ['slb/online'],
      labels: hashed(OLD_REV),
    });
    const res = planUpdate(
      phaseContext(
        updateCloneSet('InPlaceIfPossible', 1, { lifecycle: { preNormal: fin, inPlaceUpdate: fin } }),
        [p],
      ),
    );
    expect(kinds(res.actions)).toEqual(['PatchPod:p0:LifecycleTransition']);
  });

  it('scenario 46: Normal and hooked → PreparingUpdate, image unchanged', () => {
    const p = ipPod('p0', OLD_REV, { state: 'Normal', finalizers: ['slb/online'], labels: hashed(OLD_REV) });
    const res = planUpdate(
      phaseContext(
        updateCloneSet('InPlaceIfPossible', 1, { lifecycle: { preNormal: fin, inPlaceUpdate: fin } }),
        [p],
      ),
    );
    expect(kinds(res.actions)).toEqual(['PatchPod:p0:LifecycleTransition']);
    expect(labelsOf(res.actions[0])).toEqual({ 'lifecycle.apps.kruise.io/state': 'PreparingUpdate' });
  });

  it('scenario 47: not scheduled → stays PreparingNormal', () => {
    const p = ipPod('p0', NEW_REV, { state: 'PreparingNormal', labels: hashed(NEW_REV) });
    expect(planUpdate(phaseContext(updateCloneSet('InPlaceIfPossible'), [p])).actions).toEqual([]);
  });
});

describe('C25: inPlaceUpdate hook with two labels', () => {
  const hook = { labelsHandler: { 'example.io/block-a': 'true', 'example.io/block-b': 'true' } };
  const cs = () => updateCloneSet('InPlaceIfPossible', 2, { lifecycle: { inPlaceUpdate: hook } });
  const a = (
    rev: string,
    state: string,
    blockA: string,
    blockB: string,
    extra: Partial<Parameters<typeof ipPod>[2]> = {},
  ) =>
    ipPod('sample-a', rev, {
      state,
      labels: { ...hashed(rev), 'example.io/block-a': blockA, 'example.io/block-b': blockB },
      ...extra,
    });
  const b = () =>
    ipPod('sample-b', OLD_REV, {
      state: 'Normal',
      labels: { ...hashed(OLD_REV), 'example.io/block-a': 'true', 'example.io/block-b': 'true' },
    });
  const run = (pods: Pod[]) => kinds(planUpdate(phaseContext(cs(), pods)).actions);

  it('step 1: hooked Normal pod → PreparingUpdate', () => {
    expect(run([a(OLD_REV, 'Normal', 'true', 'true'), b()])).toEqual([
      'PatchPod:sample-a:LifecycleTransition',
    ]);
  });
  it('step 2: one label still present → waits', () => {
    expect(run([a(OLD_REV, 'PreparingUpdate', 'false', 'true'), b()])).toEqual([]);
  });
  it('step 3: released → in-place update', () => {
    expect(run([a(OLD_REV, 'PreparingUpdate', 'false', 'false'), b()])).toEqual([
      'PatchPodStatus:sample-a:StartInPlaceUpdate',
      'PatchPod:sample-a:InPlaceUpdate',
    ]);
  });
  it('step 4: update complete, not all hooked → Updated', () => {
    const res = planUpdate(phaseContext(cs(), [a(NEW_REV, 'Updating', 'false', 'false'), b()]));
    expect(labelsOf(res.actions.find((x) => x.type === 'PatchPod')!)).toEqual({
      'lifecycle.apps.kruise.io/state': 'Updated',
    });
  });
  it('step 5: one label restored → stays Updated and sample-b does not start (budget)', () => {
    expect(run([a(NEW_REV, 'Updated', 'true', 'false'), b()])).toEqual([]);
  });
  it('step 6: all restored → Normal, phase stops', () => {
    const res = planUpdate(phaseContext(cs(), [a(NEW_REV, 'Updated', 'true', 'true'), b()]));
    expect(kinds(res.actions)).toEqual(['PatchPod:sample-a:LifecycleTransition']);
    expect(labelsOf(res.actions[0])).toEqual({ 'lifecycle.apps.kruise.io/state': 'Normal' });
  });
  it('Updated pod picked again → PreparingUpdate with the hook labels re-added', () => {
    const third = revision('third_rev', tpl('foo3'));
    const res = planUpdate(
      phaseContext(cs(), [a(NEW_REV, 'Updated', 'false', 'false'), b()], {
        update: third,
        revisions: [REV_OLD, REV_NEW, third],
      }),
    );
    expect(res.actions[0]).toMatchObject({ reason: 'LifecycleTransition' });
    expect(labelsOf(res.actions[0])).toEqual({
      'lifecycle.apps.kruise.io/state': 'PreparingUpdate',
      'example.io/block-a': 'true',
      'example.io/block-b': 'true',
    });
  });
});

describe('C27/C28: PreparingUpdate pods', () => {
  const hook = { labelsHandler: { 'example.io/hook': 'true' } };
  const cs = () => updateCloneSet('InPlaceIfPossible', 1, { lifecycle: { inPlaceUpdate: hook } });
  it('C27a: rolled back while waiting, hook still present → Normal', () => {
    const p = ipPod('sample-a', OLD_REV, {
      state: 'PreparingUpdate',
      labels: { ...hashed(OLD_REV), 'example.io/hook': 'true' },
    });
    const res = planUpdate(phaseContext(cs(), [p], { current: REV_OLD, update: REV_OLD }));
    expect(labelsOf(res.actions[0])).toEqual({ 'lifecycle.apps.kruise.io/state': 'Normal' });
  });
  it('C27b: rolled back after release → Updated', () => {
    const p = ipPod('sample-a', OLD_REV, {
      state: 'PreparingUpdate',
      labels: { ...hashed(OLD_REV), 'example.io/hook': 'false' },
    });
    const res = planUpdate(phaseContext(cs(), [p], { current: REV_OLD, update: REV_OLD }));
    expect(labelsOf(res.actions[0])).toEqual({ 'lifecycle.apps.kruise.io/state': 'Updated' });
  });
  it('C28: a hooked PreparingUpdate pod is first in line and just waits (gate off)', () => {
    const c = updateCloneSet('InPlaceIfPossible', 4, { lifecycle: { inPlaceUpdate: hook } });
    c.spec.updateStrategy!.partition = 3;
    const pods = [
      ipPod('b', OLD_REV, { state: 'Normal', labels: hashed(OLD_REV) }),
      ipPod('a', OLD_REV, {
        state: 'PreparingUpdate',
        labels: { ...hashed(OLD_REV), 'example.io/hook': 'true' },
      }),
      ipPod('c', OLD_REV, { state: 'Normal', labels: hashed(OLD_REV) }),
      ipPod('d', OLD_REV, { state: 'Normal', labels: hashed(OLD_REV) }),
    ];
    expect(planUpdate(phaseContext(c, pods)).actions).toEqual([]);
  });
});

describe('limitUpdateIndexes (scenario 49)', () => {
  const r = (rev: string) => P(rev, 'Normal', true);
  const e = (rev: string) => P(rev, 'Normal', false);
  // [row, pod states ('r' ready / '{}' empty), old indexes, candidates, updateNum, updateMaxUnavailable,
  // allowed]
  const rows: [string, string[], number[], number[], number, number, number][] = [
    ['a', ['r', 'r', 'r'], [0, 1, 2], [0, 1, 2], 3, 1, 1],
    ['b', ['r', '{}', 'r'], [0, 1, 2], [0, 1, 2], 3, 1, 0],
    ['c', ['{}', 'r', 'r'], [0, 1, 2], [0, 1, 2], 3, 1, 1],
    [
      'd',
      ['{}', 'r', 'r', 'r', 'r', 'r', 'r', 'r', '{}', 'r'],
      [0, 1, 2, 3, 4, 5, 6, 7, 8],
      [0, 1, 2, 3, 4, 5, 6, 7, 8],
      9,
      2,
      1,
    ],
    ['e', ['{}', 'r', 'r'], [0, 1], [0, 1], 0, 0, 0],
    ['f', ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'], [0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5, 6], 5, 3, 3],
    ['g', ['{}', '{}', '{}', '{}', '{}'], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4], 5, 2, 2],
    ['h', ['{}', '{}', '{}', '{}', '{}'], [0, 1, 2], [0, 1, 2], 3, 2, 0],
    ['i', ['{}', '{}', '{}', 'r', '{}'], [0, 1, 2], [0, 1, 2], 3, 2, 1],
    ['j', ['{}', '{}', '{}', '{}', '{}', '{}'], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4], 4, 3, 2],
    ['k', ['{}', '{}', '{}', '{}', 'r', '{}'], [0, 1, 2, 3], [0, 1, 2, 3], 3, 3, 2],
    ['l', ['{}', '{}', '{}', '{}', 'r', '{}'], [0, 1, 2], [0, 1, 2], 2, 3, 1],
    ['m', ['{}', '{}', '{}', '{}', '{}', '{}'], [0, 1, 2], [0, 1, 2], 2, 3, 0],
    ['n', ['r', 'r', 'r', '{}', '{}', '{}', '{}', '{}'], [0, 1, 2], [3, 4, 5, 6, 7], -4, 3, 3],
    ['o', ['r', 'r', 'r', 'r', 'r'], [0, 1], [0, 1], 1, 3, 1],
    ['p', ['r', 'r', 'r', 'r', 'r', 'r'], [0, 1, 2, 3], [0, 1, 2, 3], 2, 4, 2],
  ];
  it.each(rows)('(%s)', (_row, states, old, cands, updateNum, updateMaxUnavailable, allowed) => {
    const pods = states.map((s, i) => {
      const rev = old.includes(i) ? OLD_REV : NEW_REV;
      return s === 'r' ? r(rev) : e(rev);
    });
    const target = updateNum < 0 ? OLD_REV : NEW_REV;
    const kept = limitUpdateIndexes(pods, cands, { updateNum, updateMaxUnavailable }, target, 0, NOW);
    expect(kept).toHaveLength(allowed);
    expect(kept).toEqual(cands.slice(0, allowed));
  });
});
