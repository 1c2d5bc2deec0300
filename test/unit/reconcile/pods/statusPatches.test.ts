/** mergeStatusPatches: two condition patches of one pod become one pods/status write. */
import { mergeStatusPatches, type PodPatch } from '../../../../lib/reconcile/pods/statusPatches.js';

const T = '2026-12-01T05:59:00Z';
const ref = (name: string) => ({ name, uid: `uid-${name}`, resourceVersion: '7' });
type StatusPatch = Extract<PodPatch, { type: 'PatchPodStatus' }>;
const inPlaceReady = (name: string): StatusPatch => ({
  type: 'PatchPodStatus',
  pod: ref(name),
  reason: 'InPlaceUpdateReady',
  patch: { status: { conditions: [{ type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: T }] } },
});
const kruiseReady = (name: string): StatusPatch => ({
  type: 'PatchPodStatus',
  pod: ref(name),
  reason: 'InitKruisePodReady',
  patch: { status: { conditions: [{ type: 'KruisePodReady', status: 'True', lastTransitionTime: T }] } },
});
const lifecycle = (name: string): PodPatch => ({
  type: 'PatchPod',
  pod: ref(name),
  reason: 'LifecycleTransition',
  patch: { metadata: { labels: { 'lifecycle.apps.kruise.io/state': 'Normal' } } },
});

describe('mergeStatusPatches', () => {
  test('the scale-up pass of two new pods: four status patches become two, each with both conditions', () => {
    const run = [inPlaceReady('a'), inPlaceReady('b'), kruiseReady('a'), kruiseReady('b')];
    const copy = structuredClone(run);
    expect(mergeStatusPatches(run)).toEqual([
      {
        ...inPlaceReady('a'),
        patch: {
          status: {
            conditions: [
              { type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: T },
              { type: 'KruisePodReady', status: 'True', lastTransitionTime: T },
            ],
          },
        },
      },
      {
        ...inPlaceReady('b'),
        patch: {
          status: {
            conditions: [
              { type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: T },
              { type: 'KruisePodReady', status: 'True', lastTransitionTime: T },
            ],
          },
        },
      },
    ]);
    expect(run).toEqual(copy);
  });

  test('the refresh order of a new pod (InPlaceUpdateReady, lifecycle label, KruisePodReady): one status write before the label', () => {
    const run = [inPlaceReady('a'), lifecycle('a'), kruiseReady('a')];
    expect(mergeStatusPatches(run).map((a) => `${a.type} ${a.reason} ${JSON.stringify(a.patch)}`)).toEqual([
      `PatchPodStatus InPlaceUpdateReady {"status":{"conditions":[{"type":"InPlaceUpdateReady","status":"True","lastTransitionTime":"${T}"},{"type":"KruisePodReady","status":"True","lastTransitionTime":"${T}"}]}}`,
      `PatchPod LifecycleTransition {"metadata":{"labels":{"lifecycle.apps.kruise.io/state":"Normal"}}}`,
    ]);
  });

  test('the same condition type twice is not merged, and a third patch merges into the later one', () => {
    const notReady: PodPatch = { ...kruiseReady('a'), reason: 'MarkPodNotReady' };
    const run = [kruiseReady('a'), notReady, inPlaceReady('a')];
    const out = mergeStatusPatches(run);
    expect(out.map((a) => a.reason)).toEqual(['InitKruisePodReady', 'MarkPodNotReady']);
    expect(out[1].patch).toEqual({
      status: {
        conditions: [
          { type: 'KruisePodReady', status: 'True', lastTransitionTime: T },
          { type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: T },
        ],
      },
    });
  });

  test('a patch with anything besides status.conditions is not merged', () => {
    const other: PodPatch = {
      ...kruiseReady('a'),
      patch: { status: { conditions: [{ type: 'KruisePodReady', status: 'True' }], phase: 'Running' } },
    };
    expect(mergeStatusPatches([inPlaceReady('a'), other])).toEqual([inPlaceReady('a'), other]);
  });

  test('other pods keep their order', () => {
    const run = [inPlaceReady('a'), lifecycle('b'), kruiseReady('a'), lifecycle('a'), kruiseReady('b')];
    expect(mergeStatusPatches(run).map((a) => `${a.type} ${a.pod.name}`)).toEqual([
      'PatchPodStatus a',
      'PatchPod b',
      'PatchPod a',
      'PatchPodStatus b',
    ]);
  });
});
