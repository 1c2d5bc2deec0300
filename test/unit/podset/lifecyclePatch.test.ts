/** Lifecycle patch builders (docs/behaviour/cloneset.md#pod-labels): the state patch and the KruisePodReady markPodNotReady patch. */
import type { Pod, PodCondition } from '../../../lib/api/types.js';
import { lifecycleStatePatch, markPodNotReadyPatch } from '../../../lib/podset/lifecycle/patch.js';
import { metaTime as rfc3339 } from '../../../lib/api/time.js';
import { NOW, P } from '../support/fixtures.js';

const T = '2024-05-01T08:00:00Z';

function gated(conditions: PodCondition[], gates = ['KruisePodReady']): Pod {
  const p = P('r', 'Normal', false, false, { name: 'p', readinessGates: gates });
  p.status = { phase: 'Running', conditions };
  return p;
}

describe('lifecycleStatePatch', () => {
  it('sets the state label and the UTC timestamp annotation (whole seconds)', () => {
    expect(lifecycleStatePatch('PreparingDelete', new Date('2024-05-01T08:00:00.789Z'))).toEqual({
      metadata: {
        labels: { 'lifecycle.apps.kruise.io/state': 'PreparingDelete' },
        annotations: { 'lifecycle.apps.kruise.io/timestamp': T },
      },
    });
    expect(rfc3339(NOW)).toBe(T);
  });
});

describe('markPodNotReadyPatch', () => {
  it('returns undefined without the KruisePodReady readiness gate', () => {
    expect(markPodNotReadyPatch(gated([], []), 'preDeleteHook', true, NOW)).toBeUndefined();
  });

  it('creates a missing condition with the one-entry message', () => {
    expect(markPodNotReadyPatch(gated([]), 'preDeleteHook', true, NOW)).toEqual({
      status: {
        conditions: [
          {
            type: 'KruisePodReady',
            status: 'False',
            message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]',
            lastTransitionTime: T,
          },
        ],
      },
    });
  });

  it('appends to an existing list (sorted), sets False and recomputes Ready when ContainersReady is True', () => {
    const pod = gated(
      [
        {
          type: 'KruisePodReady',
          status: 'False',
          message: '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]',
        },
        { type: 'Ready', status: 'True' },
        { type: 'ContainersReady', status: 'True' },
      ],
      ['KruisePodReady', 'InPlaceUpdateReady'],
    );
    expect(markPodNotReadyPatch(pod, 'preDeleteHook', true, NOW)).toEqual({
      status: {
        conditions: [
          {
            type: 'KruisePodReady',
            status: 'False',
            message:
              '[{"userAgent":"Lifecycle","key":"preDeleteHook"},{"userAgent":"Lifecycle","key":"preUpdateHook"}]',
            lastTransitionTime: T,
          },
          {
            type: 'Ready',
            status: 'False',
            reason: 'ReadinessGatesNotReady',
            message:
              'the status of pod readiness gate "KruisePodReady" is not "True", but False, corresponding condition of pod readiness gate "InPlaceUpdateReady" does not exist.',
            lastTransitionTime: T,
          },
        ],
      },
    });
  });

  it('turns a True condition False (message list empty before) and leaves Ready alone without ContainersReady', () => {
    const pod = gated([
      { type: 'KruisePodReady', status: 'True', message: '', reason: 'x' },
      { type: 'Ready', status: 'True' },
    ]);
    expect(markPodNotReadyPatch(pod, 'preUpdateHook', true, NOW)).toEqual({
      status: {
        conditions: [
          {
            type: 'KruisePodReady',
            status: 'False',
            reason: 'x',
            message: '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]',
            lastTransitionTime: T,
          },
        ],
      },
    });
  });

  it('does nothing when the key is already present; treats an unparsable message as empty', () => {
    const has = gated([
      {
        type: 'KruisePodReady',
        status: 'False',
        message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]',
      },
    ]);
    expect(markPodNotReadyPatch(has, 'preDeleteHook', true, NOW)).toBeUndefined();
    const junk = gated([{ type: 'KruisePodReady', status: 'False', message: 'not json' }]);
    expect(markPodNotReadyPatch(junk, 'preDeleteHook', true, NOW)?.status).toMatchObject({
      conditions: [{ message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]' }],
    });
    const odd = gated([{ type: 'KruisePodReady', status: 'False', message: '{"a":1}' }]);
    expect(markPodNotReadyPatch(odd, 'preDeleteHook', false, NOW)).toBeUndefined();
  });

  it('removes the key; an empty list turns the condition True with message []', () => {
    const pod = gated([
      {
        type: 'KruisePodReady',
        status: 'False',
        message: '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]',
      },
    ]);
    expect(markPodNotReadyPatch(pod, 'preUpdateHook', false, NOW)).toEqual({
      status: {
        conditions: [{ type: 'KruisePodReady', status: 'True', message: '[]', lastTransitionTime: T }],
      },
    });
    const two = gated([
      {
        type: 'KruisePodReady',
        status: 'False',
        message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"},{"userAgent":"Other","key":"k"}]',
      },
    ]);
    expect(markPodNotReadyPatch(two, 'preDeleteHook', false, NOW)).toEqual({
      status: {
        conditions: [
          {
            type: 'KruisePodReady',
            status: 'False',
            message: '[{"userAgent":"Other","key":"k"}]',
            lastTransitionTime: T,
          },
        ],
      },
    });
    expect(markPodNotReadyPatch(gated([]), 'preUpdateHook', false, NOW)).toBeUndefined();
  });

  it('recomputes Ready to True only if every gate is satisfied (no patch when unchanged)', () => {
    const pod = gated([
      { type: 'Ready', status: 'False' },
      { type: 'ContainersReady', status: 'True' },
    ]);
    // KruisePodReady becomes False, so Ready stays False: no Ready entry
    expect(markPodNotReadyPatch(pod, 'preDeleteHook', true, NOW)?.status).toEqual({
      conditions: [expect.objectContaining({ type: 'KruisePodReady' })],
    });
  });
});
