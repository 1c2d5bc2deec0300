/**
 * `KruisePodReady` on Advanced StatefulSet pods, as OpenKruise gives it: the pod webhook's readiness gate on every new
 * pod (`injectPodReadinessGate`) and the pod-readiness controller's first condition (`Reconcile`) on listed pods,
 * whatever the pass decides (lib/podset/podReadiness.ts, shared with CloneSet).
 */
import type { Pod } from '../../../../../lib/api/types.js';
import type { Action } from '../../../../../lib/podset/actions.js';
import { NOW, planStatefulSet, pod, revisionOf, statefulSet } from './support.js';

const INIT = (name: string, ordinal: number): Action => ({
  type: 'PatchPodStatus',
  pod: { name, uid: `uid-${ordinal}`, resourceVersion: '1' },
  reason: 'InitKruisePodReady',
  patch: {
    status: {
      conditions: [{ type: 'KruisePodReady', status: 'True', lastTransitionTime: '2026-01-01T00:10:00Z' }],
    },
  },
});

/** A listed pod as OpenKruise's webhook left it: the `KruisePodReady` gate, and the condition when `condition`. */
function gatedPod(ordinal: number, revision: string, condition?: 'True' | 'False', ready = true): Pod {
  const p = pod(ordinal, revision, { ready });
  p.spec.readinessGates = [{ conditionType: 'KruisePodReady' }];
  if (condition)
    p.status!.conditions!.push({
      type: 'KruisePodReady',
      status: condition,
      lastTransitionTime: '2026-01-01T00:00:00Z',
    });
  return p;
}

describe('KruisePodReady on Advanced StatefulSet pods', () => {
  test('a new pod gets the gate after its template gates', () => {
    const sts = statefulSet(2, 'nginx:1', (s) => {
      s.spec.podManagementPolicy = 'Parallel';
      s.spec.template.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
    });
    const plan = planStatefulSet({ statefulSet: sts, pods: [], revisions: [], now: NOW });
    const gates = plan.actions.flatMap((a) =>
      a.type === 'CreatePod' ? [[a.pod.metadata.name, a.pod.spec.readinessGates]] : [],
    );
    expect(gates).toEqual([
      ['web-0', [{ conditionType: 'InPlaceUpdateReady' }, { conditionType: 'KruisePodReady' }]],
      ['web-1', [{ conditionType: 'InPlaceUpdateReady' }, { conditionType: 'KruisePodReady' }]],
    ]);
    expect(sts.spec.template.spec.readinessGates).toEqual([{ conditionType: 'InPlaceUpdateReady' }]);
  });

  test('a pod the pass creates gets both gates’ conditions True in the same pass, after the creates (issue 17)', () => {
    const sts = statefulSet(2, 'nginx:1', (s) => {
      s.spec.podManagementPolicy = 'Parallel';
      s.spec.template.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
    });
    const plan = planStatefulSet({ statefulSet: sts, pods: [], revisions: [], now: NOW });
    const at = NOW.toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect(plan.actions.slice(2)).toEqual(
      ['web-0', 'web-1'].flatMap((name) => [
        {
          type: 'PatchPodStatus',
          pod: { name, uid: '' },
          reason: 'InPlaceUpdateReady',
          patch: {
            status: { conditions: [{ type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: at }] },
          },
        },
        {
          type: 'PatchPodStatus',
          pod: { name, uid: '' },
          reason: 'InitKruisePodReady',
          patch: {
            status: { conditions: [{ type: 'KruisePodReady', status: 'True', lastTransitionTime: at }] },
          },
        },
      ]),
    );
  });

  test('a pod created PreparingNormal (a preNormal hook not yet hooked) gets its condition too: the next pass would set the same', () => {
    const sts = statefulSet(1, 'nginx:1', (s) => {
      s.spec.lifecycle = { preNormal: { labelsHandler: { ready: 'true' } } };
    });
    const plan = planStatefulSet({ statefulSet: sts, pods: [], revisions: [], now: NOW });
    const create = plan.actions[0] as Extract<Action, { type: 'CreatePod' }>;
    expect(create.pod.metadata.labels?.['lifecycle.apps.kruise.io/state']).toBe('PreparingNormal');
    expect(plan.actions.map((a) => `${a.type} ${'reason' in a ? a.reason : ''}`)).toEqual([
      'CreatePod ',
      'PatchPodStatus InitKruisePodReady',
    ]);
  });

  test('a template without gates: KruisePodReady alone', () => {
    const sts = statefulSet(1);
    const plan = planStatefulSet({ statefulSet: sts, pods: [], revisions: [], now: NOW });
    const create = plan.actions[0] as Extract<Action, { type: 'CreatePod' }>;
    expect(create.pod.spec.readinessGates).toEqual([{ conditionType: 'KruisePodReady' }]);
  });

  test('listed gated pods without the condition get it True, after the pass’s own actions', () => {
    const sts = statefulSet(3);
    const rev = revisionOf(sts).metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: [gatedPod(0, rev), gatedPod(1, rev, 'True'), pod(2, rev)],
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(plan.actions).toEqual([INIT('web-0', 0)]);
  });

  test('a pass that halts early (OrderedReady, web-0 not Ready) still sets the first condition', () => {
    const sts = statefulSet(2);
    const rev = revisionOf(sts).metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: [gatedPod(0, rev, undefined, false)],
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(plan.halt).toBeDefined();
    expect(plan.actions).toEqual([INIT('web-0', 0)]);
  });

  test('a pod the pass marks not ready (preDelete markPodNotReady) gets no first condition', () => {
    const sts = statefulSet(1, 'nginx:1', (s) => {
      s.spec.lifecycle = { preDelete: { labelsHandler: { hold: 'true' }, markPodNotReady: true } };
    });
    const rev = revisionOf(sts).metadata.name ?? '';
    const held = gatedPod(1, rev);
    held.metadata.labels!.hold = 'true';
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: [gatedPod(0, rev), held],
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(
      plan.actions.map((a) =>
        a.type === 'PatchPod' || a.type === 'PatchPodStatus' ? `${a.type} ${a.pod.name} ${a.reason}` : a.type,
      ),
    ).toEqual([
      'PatchPodStatus web-1 MarkPodNotReady',
      'PatchPod web-1 LifecycleTransition',
      'PatchPodStatus web-0 InitKruisePodReady',
    ]);
    expect((plan.actions[0] as Extract<Action, { type: 'PatchPodStatus' }>).patch).toEqual({
      status: {
        conditions: [
          {
            type: 'KruisePodReady',
            status: 'False',
            message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]',
            lastTransitionTime: '2026-01-01T00:10:00Z',
          },
        ],
      },
    });
  });
});
