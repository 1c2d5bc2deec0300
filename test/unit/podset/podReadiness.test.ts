/**
 * The first KruisePodReady condition (lib/podset/podReadiness.ts, docs/behaviour/cloneset.md#kruise-pod-ready;
 * OpenKruise's pod-readiness controller `Reconcile`): which pods get it, and the exact pods/status patch.
 */
import type { Pod } from '../../../lib/api/types.js';
import {
  initKruisePodReady,
  injectKruisePodReadyGate,
  podsDeletedOrMarked,
} from '../../../lib/podset/podReadiness.js';
import { NOW, webPod } from '../controllers/cloneset/plan/goldenInputs.js';

function gated(id: string, extra: (pod: Pod) => void = () => undefined): Pod {
  const pod = webPod(id, 'v1');
  pod.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }, { conditionType: 'KruisePodReady' }];
  extra(pod);
  return pod;
}

const INIT_PATCH = {
  status: {
    conditions: [{ type: 'KruisePodReady', status: 'True', lastTransitionTime: '2024-05-01T08:00:00Z' }],
  },
};

describe('initKruisePodReady', () => {
  test('patches only the gated, non-terminating pods without the condition, in pod order', () => {
    const pods = [
      gated('a'),
      webPod('nogate', 'v1'),
      gated('deleting', (p) => (p.metadata.deletionTimestamp = '2024-05-01T07:59:00Z')),
      gated('hasfalse', (p) =>
        p.status!.conditions!.push({ type: 'KruisePodReady', status: 'False', message: '[]' }),
      ),
      gated('skipped'),
      gated('b', (p) => (p.status = undefined)),
    ];
    expect(initKruisePodReady(pods, new Set(['web-skipped']), NOW)).toEqual([
      {
        type: 'PatchPodStatus',
        pod: { name: 'web-a', uid: 'uid-web-a', resourceVersion: '100' },
        reason: 'InitKruisePodReady',
        patch: INIT_PATCH,
      },
      {
        type: 'PatchPodStatus',
        pod: { name: 'web-b', uid: 'uid-web-b', resourceVersion: '100' },
        reason: 'InitKruisePodReady',
        patch: INIT_PATCH,
      },
    ]);
  });

  test('a template that declares the gate itself is treated the same', () => {
    const pod = webPod('t', 'v1');
    pod.spec.readinessGates = [{ conditionType: 'KruisePodReady' }];
    expect(
      initKruisePodReady([pod], new Set(), NOW).map((a) => a.type === 'PatchPodStatus' && a.pod.name),
    ).toEqual(['web-t']);
  });
});

describe('podsDeletedOrMarked', () => {
  test('names the pods of DeletePod and MarkPodNotReady/MarkPodReady actions, no other patch', () => {
    const ref = (name: string) => ({ name, uid: `uid-${name}` });
    expect(
      podsDeletedOrMarked([
        { type: 'DeletePod', pod: ref('d'), reason: 'ScaleDown', pvcNames: [] },
        { type: 'PatchPodStatus', pod: ref('s'), reason: 'MarkPodNotReady', patch: {} },
        { type: 'PatchPodStatus', pod: ref('r'), reason: 'MarkPodReady', patch: {} },
        { type: 'PatchPodStatus', pod: ref('i'), reason: 'InPlaceUpdateReady', patch: {} },
        { type: 'PatchPodStatus', pod: ref('u'), reason: 'StartInPlaceUpdate', patch: {} },
        { type: 'PatchPod', pod: ref('p'), reason: 'LifecycleTransition', patch: {} },
      ]),
    ).toEqual(new Set(['d', 's', 'r']));
  });
});

describe('injectKruisePodReadyGate (OpenKruise pod webhook injectPodReadinessGate)', () => {
  const owned = (apiVersion: string | undefined, gates?: string[]): Pod => ({
    metadata: {
      name: 'p',
      ownerReferences:
        apiVersion === undefined ? [] : [{ apiVersion, kind: 'X', name: 'x', uid: 'u', controller: true }],
    },
    spec: {
      containers: [],
      ...(gates ? { readinessGates: gates.map((conditionType) => ({ conditionType })) } : {}),
    },
  });
  const gatesOf = (pod: Pod) => pod.spec.readinessGates?.map((g) => g.conditionType);

  test.each([
    ['a CloneSet pod (v1alpha1)', 'apps.kruise.io/v1alpha1', undefined, ['KruisePodReady']],
    [
      'an Advanced StatefulSet pod (v1beta1), after its template gates',
      'apps.kruise.io/v1beta1',
      ['InPlaceUpdateReady', 'custom'],
      ['InPlaceUpdateReady', 'custom', 'KruisePodReady'],
    ],
    [
      'a pod that already has the gate',
      'apps.kruise.io/v1beta1',
      ['KruisePodReady', 'x'],
      ['KruisePodReady', 'x'],
    ],
    ['an apps/v1 StatefulSet pod', 'apps/v1', undefined, undefined],
    ['a group-less apiVersion spelled like the group', 'apps.kruise.io', undefined, undefined],
    ['a pod without a controller', undefined, ['a'], ['a']],
  ])('%s', (_what, apiVersion, gates, expected) => {
    expect(gatesOf(injectKruisePodReadyGate(owned(apiVersion, gates)))).toEqual(expected);
  });

  test('a non-controller owner reference of the group does not count', () => {
    const pod = owned(undefined);
    pod.metadata.ownerReferences = [
      { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 's', uid: 'u' },
    ];
    expect(injectKruisePodReadyGate(pod).spec.readinessGates).toBeUndefined();
  });
});
