/**
 * The first KruisePodReady condition (lib/podset/podReadiness.ts, docs/behaviour/cloneset.md#kruise-pod-ready;
 * OpenKruise's pod-readiness controller `Reconcile`): which pods get it, and the exact pods/status patch.
 */
import type { Pod } from '../../../lib/api/types.js';
import { initKruisePodReady, podsDeletedOrMarked } from '../../../lib/podset/podReadiness.js';
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
