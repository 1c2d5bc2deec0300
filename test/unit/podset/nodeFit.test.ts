/**
 * The per-node fit check OpenKruise's BroadcastJob runs (`checkNodeFitness`) and the node-name pin
 * (`ReplaceDaemonSetPodNodeNameNodeAffinity`, `getAssignedNode`): lib/podset/nodeFit.ts, lib/podset/nodePin.ts.
 */
import type { Node } from '../../../lib/api/node.js';
import type { Pod } from '../../../lib/api/types.js';
import {
  insufficientResources,
  requiredNodeAffinityMatches,
  toleratesTaint,
  whyPodDoesNotFit,
  type FitSpec,
} from '../../../lib/podset/nodeFit.js';
import { assignedNode, replaceNodeNameAffinity } from '../../../lib/podset/nodePin.js';

function node(name: string, extra: Partial<Node> = {}, labels: Record<string, string> = {}): Node {
  return {
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
    status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
    ...extra,
  };
}

const spec = (s: Partial<FitSpec> = {}): FitSpec => ({ containers: [{ name: 'c', image: 'busybox' }], ...s });

describe('whyPodDoesNotFit', () => {
  it('fits a plain pod on a plain node', () => {
    expect(whyPodDoesNotFit(spec(), node('n1'))).toBeUndefined();
  });

  it('refuses another node than nodeName', () => {
    expect(whyPodDoesNotFit(spec({ nodeName: 'n2' }), node('n1'))?.predicate).toBe('NodeName');
  });

  it('checks nodeSelector labels', () => {
    expect(
      whyPodDoesNotFit(spec({ nodeSelector: { zone: 'a' } }), node('n1', {}, { zone: 'b' }))?.predicate,
    ).toBe('NodeAffinity');
    expect(
      whyPodDoesNotFit(spec({ nodeSelector: { zone: 'a' } }), node('n1', {}, { zone: 'a' })),
    ).toBeUndefined();
  });

  it('names the first untolerated NoSchedule/NoExecute taint; PreferNoSchedule is ignored', () => {
    const tainted = node('n1', {
      spec: {
        taints: [
          { key: 'soft', effect: 'PreferNoSchedule' },
          { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
        ],
      },
    });
    expect(whyPodDoesNotFit(spec(), tainted)).toEqual({
      predicate: 'TaintToleration',
      reason: "node(s) had taint {dedicated: gpu}, that the pod didn't tolerate",
    });
    expect(
      whyPodDoesNotFit(
        spec({ tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu' }] }),
        tainted,
      ),
    ).toBeUndefined();
  });

  it('refuses an unschedulable node unless the unschedulable taint is tolerated', () => {
    const cordoned = node('n1', { spec: { unschedulable: true } });
    expect(whyPodDoesNotFit(spec(), cordoned)?.predicate).toBe('NodeUnschedulable');
    expect(whyPodDoesNotFit(spec({ tolerations: [{ operator: 'Exists' }] }), cordoned)).toBeUndefined();
  });

  it('checks requests against allocatable, and a node that allows no pod', () => {
    const big = spec({
      containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '5', memory: '1Gi' } } }],
    });
    expect(whyPodDoesNotFit(big, node('n1'))).toEqual({
      predicate: 'NodeResourcesFit',
      reason: 'Insufficient cpu',
    });
    expect(insufficientResources(spec(), node('n1', { status: { allocatable: {} } }))).toEqual([
      'Too many pods',
    ]);
  });

  it('counts a regular init container as a peak and a sidecar as a sum', () => {
    const s = spec({
      containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '2' } } }],
      initContainers: [
        { name: 'side', image: 'i', restartPolicy: 'Always', resources: { requests: { cpu: '1' } } },
        { name: 'init', image: 'i', resources: { requests: { cpu: '3500m' } } },
      ],
    });
    // sidecar 1 + init 3.5 = 4.5 > containers 2 + sidecar 1 = 3
    expect(insufficientResources(s, node('n1'))).toEqual(['Insufficient cpu']);
  });
});

describe('requiredNodeAffinityMatches', () => {
  const withTerms = (terms: NonNullable<FitSpec['affinity']>['nodeAffinity']): FitSpec => ({
    affinity: { nodeAffinity: terms },
  });

  it('ORs the terms and ANDs inside a term; Gt compares integers', () => {
    const s = withTerms({
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          {
            matchExpressions: [
              { key: 'zone', operator: 'In', values: ['a'] },
              { key: 'gpu', operator: 'Exists' },
            ],
          },
          { matchExpressions: [{ key: 'rank', operator: 'Gt', values: ['5'] }] },
        ],
      },
    });
    expect(requiredNodeAffinityMatches(s, node('n', {}, { zone: 'a' }))).toBe(false);
    expect(requiredNodeAffinityMatches(s, node('n', {}, { zone: 'a', gpu: '' }))).toBe(true);
    expect(requiredNodeAffinityMatches(s, node('n', {}, { rank: '6' }))).toBe(true);
    expect(requiredNodeAffinityMatches(s, node('n', {}, { rank: 'x' }))).toBe(false);
  });

  it('matches nothing with no terms, an empty term or a malformed requirement', () => {
    const none = withTerms({ requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } });
    const empty = withTerms({ requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{}] } });
    const bad = withTerms({
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n', 'm'] }] }],
      },
    });
    for (const s of [none, empty, bad]) expect(requiredNodeAffinityMatches(s, node('n'))).toBe(false);
  });

  it('matches metadata.name fields', () => {
    const pinned: FitSpec = { affinity: replaceNodeNameAffinity(undefined, 'n1') };
    expect(requiredNodeAffinityMatches(pinned, node('n1'))).toBe(true);
    expect(requiredNodeAffinityMatches(pinned, node('n2'))).toBe(false);
  });
});

describe('toleratesTaint', () => {
  it('an empty key with Exists tolerates every taint; Equal compares values', () => {
    expect(toleratesTaint({ operator: 'Exists' }, { key: 'k', effect: 'NoExecute' })).toBe(true);
    expect(toleratesTaint({ key: 'k', value: 'v' }, { key: 'k', value: 'w', effect: 'NoSchedule' })).toBe(
      false,
    );
    expect(toleratesTaint({ key: 'k', effect: 'NoExecute' }, { key: 'k', effect: 'NoSchedule' })).toBe(false);
  });
});

describe('replaceNodeNameAffinity / assignedNode', () => {
  it('replaces every required term with the one name pin and keeps the rest', () => {
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }],
      },
      podAntiAffinity: { x: 1 },
    };
    expect(replaceNodeNameAffinity(affinity, 'n3')).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n3'] }] }],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }],
      },
      podAntiAffinity: { x: 1 },
    });
    expect(
      affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
    ).toHaveLength(1);
  });

  it('reads nodeName first, then the pin, else empty', () => {
    const pod = (s: Partial<Pod['spec']>): Pod => ({ metadata: {}, spec: { containers: [], ...s } });
    expect(assignedNode(pod({ nodeName: 'a', affinity: replaceNodeNameAffinity(undefined, 'b') }))).toBe('a');
    expect(assignedNode(pod({ affinity: replaceNodeNameAffinity(undefined, 'b') }))).toBe('b');
    expect(assignedNode(pod({}))).toBe('');
  });
});
