/**
 * The workloads the bench creates (bench/scenarios/workload.ts): the CloneSet part's as before, the Advanced
 * StatefulSet part's an Advanced StatefulSet that OpenKruise's validation accepts (checked here with Kruiseless's
 * port of it) or an apps/v1 StatefulSet, and which phases go one pod at a time.
 */
import { describe, expect, it } from '@jest/globals';
import {
  objectPath,
  oneAtATime,
  phaseTimeoutMs,
  workload,
  type WorkloadShape,
} from '../../../bench/scenarios/workload.js';
import { validateStatefulSet } from '../../../lib/controllers/statefulset/api/validation.js';
import type { StatefulSet } from '../../../lib/controllers/statefulset/api/types.js';

const ordered: WorkloadShape = { kind: 'asts', podManagementPolicy: 'OrderedReady' };
const parallel: WorkloadShape = { kind: 'asts', podManagementPolicy: 'Parallel' };

describe('workload', () => {
  it('the CloneSet part: a CloneSet for the kruise controllers, a Deployment for kube-controller-manager', () => {
    expect(workload('kruiseless', 'ns', 'bench', 3).path).toBe(
      '/apis/apps.kruise.io/v1alpha1/namespaces/ns/clonesets',
    );
    expect(workload('openkruise', 'ns', 'bench', 3)).toEqual(workload('kruiseless', 'ns', 'bench', 3));
    expect(workload('deployment', 'ns', 'bench', 3).path).toBe('/apis/apps/v1/namespaces/ns/deployments');
    expect(objectPath('deployment', 'ns', 'bench')).toBe('/apis/apps/v1/namespaces/ns/deployments/bench');
  });

  it('an Advanced StatefulSet in place, with the gate and the maxUnavailable its policy allows', () => {
    for (const [shape, maxUnavailable] of [
      [ordered, 1],
      [parallel, '20%'],
    ] as const) {
      const { path, body } = workload('kruiseless', 'ns', 'bench', 20, shape);
      expect(path).toBe('/apis/apps.kruise.io/v1beta1/namespaces/ns/statefulsets');
      const sts = body as StatefulSet;
      expect(sts.spec.podManagementPolicy).toBe(shape.kind === 'asts' && shape.podManagementPolicy);
      expect(sts.spec.updateStrategy).toEqual({
        type: 'RollingUpdate',
        rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable },
      });
      expect(sts.spec.template.spec?.readinessGates).toEqual([{ conditionType: 'InPlaceUpdateReady' }]);
      expect(validateStatefulSet(sts)).toEqual([]);
    }
  });

  it('an apps/v1 StatefulSet for kube-controller-manager, without the readiness gate nobody would set', () => {
    const { path, body } = workload('statefulset', 'ns', 'bench', 20, parallel);
    expect(path).toBe('/apis/apps/v1/namespaces/ns/statefulsets');
    expect(body).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      spec: {
        replicas: 20,
        podManagementPolicy: 'Parallel',
        updateStrategy: { type: 'RollingUpdate' },
        template: { spec: { containers: [{ name: 'main', image: 'bench:v1' }] } },
      },
    });
    expect(JSON.stringify(body)).not.toContain('readinessGates');
    expect(objectPath('statefulset', 'ns', 'bench', ordered)).toBe(
      '/apis/apps/v1/namespaces/ns/statefulsets/bench',
    );
  });

  it('refuses a controller that does not run the shape', () => {
    expect(() => workload('deployment', 'ns', 'bench', 1, parallel)).toThrow(
      'bench: the Deployment controller runs no asts workload',
    );
    expect(() => workload('statefulset', 'ns', 'bench', 1)).toThrow(
      'bench: the StatefulSet controller runs no cloneset workload',
    );
  });
});

describe('oneAtATime and phaseTimeoutMs', () => {
  it('OrderedReady scale-ups and the StatefulSet controller image change go one pod at a time', () => {
    expect(oneAtATime('kruiseless', ordered, 'scaleUp')).toBe(true);
    expect(oneAtATime('statefulset', ordered, 'scaleUp')).toBe(true);
    expect(oneAtATime('openkruise', parallel, 'scaleUp')).toBe(false);
    expect(oneAtATime('statefulset', parallel, 'rollout')).toBe(true);
    expect(oneAtATime('kruiseless', parallel, 'rollout')).toBe(false);
    expect(oneAtATime('deployment', { kind: 'cloneset' }, 'rollout')).toBe(false);
  });
  it('120 s + 0.6 s a pod, 2 s a pod one at a time (the CloneSet part unchanged)', () => {
    expect(phaseTimeoutMs('kruiseless', { kind: 'cloneset' }, 'scaleUp', 200)).toBe(240_000);
    expect(phaseTimeoutMs('kruiseless', parallel, 'rollout', 1000)).toBe(720_000);
    expect(phaseTimeoutMs('openkruise', ordered, 'scaleUp', 1000)).toBe(2_120_000);
  });
});
