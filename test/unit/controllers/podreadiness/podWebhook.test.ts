/**
 * The readiness gate step of `/mutate-pod` (OpenKruise v1.9.0's `injectPodReadinessGate`), through the webhook's
 * frame and as the first of the served steps: with gate `KruisePodReadinessGate` off only pods of an
 * `apps.kruise.io` controller get the `KruisePodReady` gate, with it on every pod does; a pod that has it keeps its
 * gates as they are.
 */
import jsonpatch from 'fast-json-patch';
import type { MutationAnswer } from '../../../../lib/api/admission/mutation.js';
import { answerPodMutationReview } from '../../../../lib/api/admission/podMutation.js';
import type { OwnerReference, Pod } from '../../../../lib/api/types.js';
import { podMutationSteps } from '../../../../lib/controllers/podMutations.js';
import { readinessGatePodStep } from '../../../../lib/controllers/podreadiness/podWebhook.js';
import type { KubeClient } from '../../../../lib/kube/types.js';
import { podCreateBody } from '../../support/admissionReview.js';

const patchOf = (answer: MutationAnswer): jsonpatch.Operation[] =>
  JSON.parse(
    Buffer.from(answer.review.response.patch ?? 'W10=', 'base64').toString(),
  ) as jsonpatch.Operation[];

const owner = (apiVersion: string, kind: string): OwnerReference => ({
  apiVersion,
  kind,
  name: 'o',
  uid: 'u',
  controller: true,
});

const pod = (ownerRef?: OwnerReference, gates?: string[]): Pod => ({
  metadata: { name: 'p', ...(ownerRef ? { ownerReferences: [ownerRef] } : {}) },
  spec: {
    containers: [{ name: 'main', image: 'nginx:1.25' }],
    ...(gates ? { readinessGates: gates.map((conditionType) => ({ conditionType })) } : {}),
  },
});

const ADD_GATES: jsonpatch.Operation[] = [
  { op: 'add', path: '/spec/readinessGates', value: [{ conditionType: 'KruisePodReady' }] },
];
const APPEND_GATE: jsonpatch.Operation[] = [
  { op: 'add', path: '/spec/readinessGates/1', value: { conditionType: 'KruisePodReady' } },
];

describe('readinessGatePodStep', () => {
  test.each<[string, Pod, boolean, jsonpatch.Operation[]]>([
    ['a bare pod, gate off', pod(), false, []],
    ['a bare pod, gate on', pod(), true, ADD_GATES],
    ['a Deployment’s pod, gate off', pod(owner('apps/v1', 'ReplicaSet')), false, []],
    ['a Deployment’s pod, gate on', pod(owner('apps/v1', 'ReplicaSet')), true, ADD_GATES],
    ['an apps.kruise.io pod, gate off', pod(owner('apps.kruise.io/v1alpha1', 'CloneSet')), false, ADD_GATES],
    [
      'an apps.kruise.io pod with another gate, gate off',
      pod(owner('apps.kruise.io/v1beta1', 'StatefulSet'), ['Other']),
      false,
      [{ op: 'add', path: '/spec/readinessGates/1', value: { conditionType: 'KruisePodReady' } }],
    ],
    ['a bare pod with another gate, gate on', pod(undefined, ['Other']), true, APPEND_GATE],
    ['a pod that has the gate, gate on', pod(undefined, ['Other', 'KruisePodReady']), true, []],
    [
      'an apps.kruise.io pod that has the gate, gate off',
      pod(owner('apps.kruise.io/v1alpha1', 'CloneSet'), ['KruisePodReady']),
      false,
      [],
    ],
  ])('%s', async (_what, p, gate, expected) => {
    const answer = await answerPodMutationReview(podCreateBody(p), [
      readinessGatePodStep({ kruisePodReadinessGate: gate }),
    ]);
    expect(answer.review.response.allowed).toBe(true);
    expect(patchOf(answer)).toEqual(expected);
  });

  test('the settings absent: the gate is off', async () => {
    expect(patchOf(await answerPodMutationReview(podCreateBody(pod()), [readinessGatePodStep()]))).toEqual(
      [],
    );
  });

  test('served first by /mutate-pod, under the pod registration’s settings', async () => {
    // no read of the cluster happens for a bare pod with no SidecarSet, WorkloadSpread or PUB gate on
    const kube = {
      list: () => Promise.resolve({ items: [], resourceVersion: '1' }),
      get: () => Promise.resolve(undefined),
    } as unknown as Pick<KubeClient, 'get' | 'list' | 'replace' | 'serverResources' | 'getScale'>;
    const on = podMutationSteps(kube, { pod: { kruisePodReadinessGate: true } });
    const off = podMutationSteps(kube, {});
    expect(patchOf(await answerPodMutationReview(podCreateBody(pod()), on))).toEqual(ADD_GATES);
    expect(patchOf(await answerPodMutationReview(podCreateBody(pod()), off))).toEqual([]);
    const first = await on[0](pod(), { namespace: 'ns1', dryRun: false });
    expect('pod' in first && first.pod.spec.readinessGates).toEqual([{ conditionType: 'KruisePodReady' }]);
  });
});
