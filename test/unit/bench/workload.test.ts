/**
 * The workloads the bench creates (bench/scenarios/workload.ts): the CloneSet part's as before, the Advanced
 * StatefulSet part's an Advanced StatefulSet that OpenKruise's validation accepts (checked here with Kruiseless's
 * port of it) or an apps/v1 StatefulSet, the Advanced DaemonSet part's an Advanced DaemonSet OpenKruise's validation
 * accepts or an apps/v1 DaemonSet on the nodes labelled for N, and which phases go one pod at a time.
 */
import { describe, expect, it } from '@jest/globals';
import {
  daemonNodeLabel,
  objectPath,
  oneAtATime,
  phaseTimeoutMs,
  workload,
  type WorkloadShape,
} from '../../../bench/scenarios/workload.js';
import { validateStatefulSet } from '../../../lib/controllers/statefulset/api/validation.js';
import type { StatefulSet } from '../../../lib/controllers/statefulset/api/types.js';
import { validateDaemonSet } from '../../../lib/controllers/daemonset/api/validation.js';
import type { DaemonSet } from '../../../lib/controllers/daemonset/api/types.js';
import { daemonNodeLabels } from '../../../bench/support/kube.js';

const ordered: WorkloadShape = { kind: 'asts', podManagementPolicy: 'OrderedReady' };
const parallel: WorkloadShape = { kind: 'asts', podManagementPolicy: 'Parallel' };
const standard: WorkloadShape = { kind: 'ads', rollingUpdateType: 'Standard' };
const inPlace: WorkloadShape = { kind: 'ads', rollingUpdateType: 'InPlaceIfPossible' };

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

describe('the Advanced DaemonSet part', () => {
  it('an Advanced DaemonSet of each rolling update type, maxUnavailable 10 %, on the nodes labelled for N', () => {
    for (const shape of [standard, inPlace]) {
      const { path, body } = workload('kruiseless', 'ns', 'bench', 200, shape);
      expect(path).toBe('/apis/apps.kruise.io/v1beta1/namespaces/ns/daemonsets');
      const ds = body as DaemonSet;
      expect(ds.spec.updateStrategy).toEqual({
        type: 'RollingUpdate',
        rollingUpdate: {
          rollingUpdateType: shape.kind === 'ads' && shape.rollingUpdateType,
          maxUnavailable: '10%',
          maxSurge: 0,
        },
      });
      expect(ds.spec.template.spec?.nodeSelector).toEqual({ 'bench.kruiseless.io/ds-200': 'true' });
      expect(validateDaemonSet(ds)).toEqual([]);
    }
    expect(workload('openkruise', 'ns', 'bench', 200, standard)).toEqual(
      workload('kruiseless', 'ns', 'bench', 200, standard),
    );
  });

  it('an apps/v1 DaemonSet with the same strategy and nodes for kube-controller-manager', () => {
    const { path, body } = workload('daemonset', 'ns', 'bench', 1000, standard);
    expect(path).toBe('/apis/apps/v1/namespaces/ns/daemonsets');
    expect(body).toEqual({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'bench' },
      spec: {
        selector: { matchLabels: { app: 'bench' } },
        template: {
          metadata: { labels: { app: 'bench' } },
          spec: {
            containers: [{ name: 'main', image: 'bench:v1' }],
            nodeSelector: { 'bench.kruiseless.io/ds-1000': 'true' },
          },
        },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 } },
      },
    });
    expect(objectPath('daemonset', 'ns', 'bench', standard)).toBe(
      '/apis/apps/v1/namespaces/ns/daemonsets/bench',
    );
  });

  it('the DaemonSet controller runs the Standard shape only', () => {
    expect(() => workload('daemonset', 'ns', 'bench', 1, inPlace)).toThrow(
      'bench: the DaemonSet controller runs no InPlaceIfPossible ads workload',
    );
    expect(() => workload('daemonset', 'ns', 'bench', 1)).toThrow(
      'bench: the DaemonSet controller runs no cloneset workload',
    );
    expect(() => workload('statefulset', 'ns', 'bench', 1, standard)).toThrow(
      'bench: the StatefulSet controller runs no ads workload',
    );
  });

  it('the first n DaemonSet nodes carry the label of n', () => {
    expect(daemonNodeLabel(200)).toBe('bench.kruiseless.io/ds-200');
    expect(daemonNodeLabels(0, [200, 1000])).toEqual({
      'bench.kruiseless.io/ds-200': 'true',
      'bench.kruiseless.io/ds-1000': 'true',
    });
    expect(daemonNodeLabels(199, [200, 1000])).toEqual({
      'bench.kruiseless.io/ds-200': 'true',
      'bench.kruiseless.io/ds-1000': 'true',
    });
    expect(daemonNodeLabels(200, [200, 1000])).toEqual({ 'bench.kruiseless.io/ds-1000': 'true' });
    expect(daemonNodeLabels(1000, [200, 1000])).toEqual({});
  });

  it('no phase goes one pod at a time: 120 s + 0.6 s a pod', () => {
    expect(oneAtATime('daemonset', standard, 'rollout')).toBe(false);
    expect(phaseTimeoutMs('kruiseless', inPlace, 'rollout', 1000)).toBe(720_000);
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
