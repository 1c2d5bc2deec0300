import type { Lifecycle, Pod } from '../../../lib/api/types.js';
import {
  reenterPreparingUpdate,
  refreshLifecycle,
  transitionLifecycle,
} from '../../../lib/podset/lifecycle/lifecycle.js';
import { NEW_REV, NOW, OLD_REV } from '../support/fixtures.js';
import { IN_PLACE_OPTIONS, ipPod } from '../support/inPlacePods.js';

const T = '2024-05-01T08:00:00Z';
const kruiseGated = (state: string, extra: Parameters<typeof ipPod>[2] = {}): Pod => {
  const p = ipPod('p', NEW_REV, { state, ...extra });
  p.spec.readinessGates = [{ conditionType: 'KruisePodReady' }];
  return p;
};

describe('transitionLifecycle (docs/behaviour/cloneset.md#lifecycle)', () => {
  it('PreparingUpdate with markPodNotReady adds the preUpdateHook key first', () => {
    const res = transitionLifecycle(kruiseGated('Normal'), 'PreparingUpdate', true, NOW);
    expect(res.labelPatched).toBe(true);
    expect(res.actions.map((a) => a.type + ':' + ('reason' in a ? a.reason : ''))).toEqual([
      'PatchPodStatus:MarkPodNotReady',
      'PatchPod:LifecycleTransition',
    ]);
  });
  it('PreparingDelete adds preDeleteHook; Updated removes preUpdateHook (MarkPodReady)', () => {
    expect(transitionLifecycle(kruiseGated('Normal'), 'PreparingDelete', true, NOW).actions[0]).toMatchObject(
      {
        reason: 'MarkPodNotReady',
      },
    );
    const p = kruiseGated('Updating');
    p.status!.conditions!.push({
      type: 'KruisePodReady',
      status: 'False',
      message: '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]',
    });
    expect(transitionLifecycle(p, 'Updated', true, NOW).actions[0]).toMatchObject({ reason: 'MarkPodReady' });
  });
  it('same state: only the readiness side effect, no label patch', () => {
    const res = transitionLifecycle(kruiseGated('PreparingUpdate'), 'PreparingUpdate', true, NOW);
    expect(res.labelPatched).toBe(false);
    expect(res.actions.map((a) => a.type)).toEqual(['PatchPodStatus']);
  });
  it('Normal never touches readiness', () => {
    expect(
      transitionLifecycle(kruiseGated('Updated'), 'Normal', true, NOW).actions.map((a) => a.type),
    ).toEqual(['PatchPod']);
  });
});

describe('refreshLifecycle (docs/behaviour/cloneset.md#lifecycle, the refresh transitions)', () => {
  const opts = IN_PLACE_OPTIONS;
  it('Updating with an incomplete update stays', () => {
    const p = ipPod('p', NEW_REV, {
      state: 'Updating',
      annotations: {
        'apps.kruise.io/inplace-update-state': `{"revision":"new_rev","updateTimestamp":"${T}","lastContainerStatuses":{"c1":{"imageID":"image-id-xyz"}}}`,
      },
    });
    expect(refreshLifecycle(undefined, p, NEW_REV, NOW, opts).actions).toEqual([]);
  });
  it('Updating complete without lifecycle → Normal; with lifecycle but no inPlaceUpdate hook → Updated', () => {
    const p = ipPod('p', NEW_REV, { state: 'Updating' });
    const label = (lc: Lifecycle | undefined) => {
      const a = refreshLifecycle(lc, p, NEW_REV, NOW, opts).actions[0];
      return a.type === 'PatchPod' ? (a.patch.metadata as Record<string, unknown>).labels : undefined;
    };
    expect(label(undefined)).toEqual({
      'lifecycle.apps.kruise.io/state': 'Normal',
    });
    expect(label({ preDelete: { finalizersHandler: ['x'] } })).toEqual({
      'lifecycle.apps.kruise.io/state': 'Updated',
    });
  });
  it('PreparingUpdate on another revision waits; Updated with a hook not all present waits', () => {
    const lc: Lifecycle = { inPlaceUpdate: { labelsHandler: { h: 'true' } } };
    expect(
      refreshLifecycle(lc, ipPod('p', OLD_REV, { state: 'PreparingUpdate' }), NEW_REV, NOW, opts).actions,
    ).toEqual([]);
    expect(
      refreshLifecycle(lc, ipPod('p', NEW_REV, { state: 'Updated' }), NEW_REV, NOW, opts).actions,
    ).toEqual([]);
    expect(
      refreshLifecycle(lc, ipPod('p', NEW_REV, { state: 'Normal' }), NEW_REV, NOW, opts).actions,
    ).toEqual([]);
  });
});

describe('reenterPreparingUpdate (Updated → PreparingUpdate)', () => {
  it('re-adds hook labels and finalizers in one patch', () => {
    const res = reenterPreparingUpdate(
      ipPod('p', NEW_REV, { state: 'Updated' }),
      { labelsHandler: { h: 'true' }, finalizersHandler: ['f/x'] },
      NOW,
    );
    expect(res.actions).toEqual([
      {
        type: 'PatchPod',
        pod: { name: 'p', uid: 'uid-p' },
        reason: 'LifecycleTransition',
        patch: {
          metadata: {
            labels: { 'lifecycle.apps.kruise.io/state': 'PreparingUpdate', h: 'true' },
            annotations: { 'lifecycle.apps.kruise.io/timestamp': T },
            finalizers: ['f/x'],
          },
        },
      },
    ]);
  });
  it('no hook → no-op', () => {
    expect(reenterPreparingUpdate(ipPod('p', NEW_REV, { state: 'Updated' }), undefined, NOW)).toEqual({
      actions: [],
      labelPatched: false,
    });
  });
});
