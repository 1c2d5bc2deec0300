/**
 * The registry's two lists agree (lib/controllers/index.ts `CONTROLLERS`, lib/controllers/kinds.ts
 * `CONTROLLER_KINDS`): the light list the watch, resync and admission functions use is, entry by entry, the part
 * of each full registration they read — so the sources can never watch a kind the reconcile function does not
 * reconcile, or miss one.
 */
import { describe, expect, it } from '@jest/globals';
import {
  CONTROLLERS,
  CONTROLLER_KINDS,
  KNOWN_KINDS,
  controllerByKind,
} from '../../../lib/controllers/index.js';
import { controllerNameOf } from '../../../lib/core/objectKey.js';

describe('the registry', () => {
  it('lists cloneset, statefulset (Advanced StatefulSet), broadcastjob, sidecarset, advancedcronjob, daemonset (Advanced DaemonSet), podunavailablebudget, workloadspread and pod (container launch priority and pod readiness)', () => {
    expect(CONTROLLERS.map((c) => c.name)).toEqual([
      'cloneset',
      'statefulset',
      'broadcastjob',
      'sidecarset',
      'advancedcronjob',
      'daemonset',
      'podunavailablebudget',
      'workloadspread',
      'pod',
    ]);
    // a controller of a built-in resource: its keys are pods, and it has no CRD; its name is the one the metrics
    // give a request of its kind (controllerNameOf)
    expect(controllerByKind('core/Pod')?.name).toBe('pod');
    expect(controllerNameOf('core/Pod')).toBe('pod');
    // one registration per key kind: leases and expectations are keyed by kind
    expect(new Set(CONTROLLERS.map((c) => c.kind)).size).toBe(CONTROLLERS.length);
    expect(KNOWN_KINDS('core/Pod')).toEqual({ namespaced: true });
    expect(controllerByKind('core/Pod')?.crd).toBeUndefined();
    expect(controllerByKind('apps.kruise.io/WorkloadSpread')?.name).toBe('workloadspread');
    expect(KNOWN_KINDS('apps.kruise.io/WorkloadSpread')).toEqual({ namespaced: true });
    expect(controllerByKind('policy.kruise.io/PodUnavailableBudget')?.name).toBe('podunavailablebudget');
    expect(KNOWN_KINDS('policy.kruise.io/PodUnavailableBudget')).toEqual({ namespaced: true });
    expect(controllerByKind('apps.kruise.io/DaemonSet')?.name).toBe('daemonset');
    expect(KNOWN_KINDS('apps.kruise.io/DaemonSet')).toEqual({ namespaced: true });
    expect(controllerByKind('apps.kruise.io/SidecarSet')?.name).toBe('sidecarset');
    expect(KNOWN_KINDS('apps.kruise.io/SidecarSet')).toEqual({ namespaced: false });
    expect(controllerByKind('apps.kruise.io/AdvancedCronJob')?.name).toBe('advancedcronjob');
    expect(controllerByKind('apps.kruise.io/BroadcastJob')?.name).toBe('broadcastjob');
    expect(controllerByKind('apps.kruise.io/CloneSet')?.name).toBe('cloneset');
    expect(controllerByKind('apps.kruise.io/StatefulSet')?.name).toBe('statefulset');
    expect(KNOWN_KINDS('apps.kruise.io/CloneSet')).toEqual({ namespaced: true });
    expect(KNOWN_KINDS('apps.kruise.io/StatefulSet')).toEqual({ namespaced: true });
  });

  it('has the same controllers, in the same order, in its light list, sharing their parts', () => {
    expect(CONTROLLER_KINDS).toHaveLength(CONTROLLERS.length);
    CONTROLLERS.forEach((c, i) => {
      const light = CONTROLLER_KINDS[i];
      expect(light.name).toBe(c.name);
      expect(light.kind).toBe(c.kind);
      expect(light.resource).toBe(c.resource);
      expect(light.watches).toBe(c.watches);
      expect(light.crd).toBe(c.crd);
      expect(light.settings).toBe(c.settings);
    });
  });
});
