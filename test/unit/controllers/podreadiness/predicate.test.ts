/**
 * The pod readiness concern's predicate (lib/controllers/podreadiness/predicate.ts; OpenKruise v1.9.0's
 * pod-readiness-controller predicates and the checks of its `Reconcile`): the gate, no condition, not terminating,
 * and not a pod whose Kruiseless workload pass writes the condition itself.
 */
import type { OwnerReference, Pod } from '../../../../lib/api/types.js';
import { selectsReadinessPod } from '../../../../lib/controllers/podreadiness/predicate.js';

function pod(
  over: { gates?: string[]; conditions?: string[]; owner?: OwnerReference; deleting?: boolean } = {},
): Pod {
  return {
    metadata: {
      name: 'p',
      namespace: 'ns',
      ...(over.owner ? { ownerReferences: [over.owner] } : {}),
      ...(over.deleting ? { deletionTimestamp: '2026-12-06T10:00:00Z' } : {}),
    },
    spec: {
      containers: [{ name: 'main' }],
      ...(over.gates ? { readinessGates: over.gates.map((conditionType) => ({ conditionType })) } : {}),
    },
    status: { conditions: (over.conditions ?? []).map((type) => ({ type, status: 'False' })) },
  };
}

const owner = (apiVersion: string, kind: string, controller = true): OwnerReference => ({
  apiVersion,
  kind,
  name: 'o',
  uid: 'u',
  controller,
});

describe('selectsReadinessPod', () => {
  test.each<[string, Pod, boolean]>([
    ['a bare pod with the gate and no condition', pod({ gates: ['KruisePodReady'] }), true],
    ['the gate among others', pod({ gates: ['Other', 'KruisePodReady'] }), true],
    ['no gate', pod(), false],
    ['another gate only', pod({ gates: ['Other'] }), false],
    [
      'the condition there already (False counts too)',
      pod({ gates: ['KruisePodReady'], conditions: ['KruisePodReady'] }),
      false,
    ],
    [
      'other conditions only',
      pod({ gates: ['KruisePodReady'], conditions: ['Ready', 'PodScheduled'] }),
      true,
    ],
    ['terminating', pod({ gates: ['KruisePodReady'], deleting: true }), false],
    [
      'a Deployment’s pod (ReplicaSet)',
      pod({ gates: ['KruisePodReady'], owner: owner('apps/v1', 'ReplicaSet') }),
      true,
    ],
    [
      'an apps/v1 StatefulSet’s pod',
      pod({ gates: ['KruisePodReady'], owner: owner('apps/v1', 'StatefulSet') }),
      true,
    ],
    [
      'an apps/v1 DaemonSet’s pod',
      pod({ gates: ['KruisePodReady'], owner: owner('apps/v1', 'DaemonSet') }),
      true,
    ],
    [
      'a CloneSet’s pod',
      pod({ gates: ['KruisePodReady'], owner: owner('apps.kruise.io/v1alpha1', 'CloneSet') }),
      false,
    ],
    [
      'an Advanced StatefulSet’s pod (v1beta1)',
      pod({ gates: ['KruisePodReady'], owner: owner('apps.kruise.io/v1beta1', 'StatefulSet') }),
      false,
    ],
    [
      'an Advanced DaemonSet’s pod',
      pod({ gates: ['KruisePodReady'], owner: owner('apps.kruise.io/v1alpha1', 'DaemonSet') }),
      false,
    ],
    [
      'a BroadcastJob’s pod',
      pod({ gates: ['KruisePodReady'], owner: owner('apps.kruise.io/v1alpha1', 'BroadcastJob') }),
      false,
    ],
    [
      'an OpenKruise kind Kruiseless does not run (UnitedDeployment)',
      pod({ gates: ['KruisePodReady'], owner: owner('apps.kruise.io/v1alpha1', 'UnitedDeployment') }),
      true,
    ],
    [
      'a CloneSet as a non-controller owner',
      pod({ gates: ['KruisePodReady'], owner: owner('apps.kruise.io/v1alpha1', 'CloneSet', false) }),
      true,
    ],
  ])('%s: %s', (_what, p, expected) => {
    expect(selectsReadinessPod(p)).toBe(expected);
  });
});
