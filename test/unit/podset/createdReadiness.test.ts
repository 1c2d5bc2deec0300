/**
 * The readiness conditions of the pods a pass creates (lib/podset/createdReadiness.ts, issues 17 and 20) and the
 * executors' cut to the pods their creates made (lib/reconcile/pods/slowStartCreates.ts `patchesOfCreated`).
 */
import type { Pod } from '../../../lib/api/types.js';
import { readinessOfCreated } from '../../../lib/podset/createdReadiness.js';
import { patchesOfCreated } from '../../../lib/reconcile/pods/slowStartCreates.js';

const NOW = new Date('2026-01-01T00:10:00Z');
const AT = '2026-01-01T00:10:00Z';

function newPod(name: string, gates: string[]): Pod {
  return {
    metadata: { name, namespace: 'ns' },
    spec: {
      containers: [{ name: 'c', image: 'nginx:1.25' }],
      ...(gates.length > 0 ? { readinessGates: gates.map((conditionType) => ({ conditionType })) } : {}),
    },
  };
}

const patch = (name: string, reason: string, types: string[]) => ({
  type: 'PatchPodStatus',
  pod: { name, uid: '' },
  reason,
  patch: { status: { conditions: types.map((type) => ({ type, status: 'True', lastTransitionTime: AT })) } },
});

describe('readinessOfCreated', () => {
  const pods = [
    newPod('a', ['InPlaceUpdateReady', 'KruisePodReady']),
    newPod('b', []),
    newPod('c', ['KruisePodReady']),
  ];

  test('KruisePodReady only, for the gated pods in create order, without the in-place gates', () => {
    expect(readinessOfCreated(pods, NOW)).toEqual([
      patch('a', 'InitKruisePodReady', ['KruisePodReady']),
      patch('c', 'InitKruisePodReady', ['KruisePodReady']),
    ]);
  });

  test('with them, InPlaceUpdateReady first on a pod with that gate, then KruisePodReady', () => {
    expect(readinessOfCreated(pods, NOW, { inPlaceWorkloadVerticalScaling: false })).toEqual([
      patch('a', 'InPlaceUpdateReady', ['InPlaceUpdateReady']),
      patch('a', 'InitKruisePodReady', ['KruisePodReady']),
      patch('c', 'InitKruisePodReady', ['KruisePodReady']),
    ]);
    expect(pods[0].status).toBeUndefined();
  });
});

describe('patchesOfCreated', () => {
  test('keeps the pods the creates made, one merged pods/status patch a pod, in plan order', () => {
    const planned = readinessOfCreated(
      [
        newPod('a', ['InPlaceUpdateReady', 'KruisePodReady']),
        newPod('failed', ['KruisePodReady']),
        newPod('c', ['KruisePodReady']),
      ],
      NOW,
      { inPlaceWorkloadVerticalScaling: false },
    );
    expect(patchesOfCreated(planned, ['c', 'a'])).toEqual([
      patch('a', 'InPlaceUpdateReady', ['InPlaceUpdateReady', 'KruisePodReady']),
      patch('c', 'InitKruisePodReady', ['KruisePodReady']),
    ]);
    expect(patchesOfCreated(planned, [])).toEqual([]);
  });
});
