/**
 * The Advanced DaemonSet planner against OpenKruise v1.9.0's `syncDaemonSet` (pkg/controller/daemonset): exact
 * revision, pods, Events and status for creation on eligible nodes, node selection, taints, misscheduled and failed
 * pods, partition ordering and the empty selector.
 */
import type { Node } from '../../../../../lib/api/node.js';
import type { ControllerRevision, Pod } from '../../../../../lib/api/types.js';
import type { DaemonSet } from '../../../../../lib/controllers/daemonset/api/types.js';
import {
  planDaemonSet,
  type DaemonSetPlanInput,
  type SyncPlan,
} from '../../../../../lib/controllers/daemonset/plan/index.js';

const NOW = new Date('2026-01-01T00:10:00Z');
/** `ComputeHash` of the template below, by Go (spew-golden's spewgen). */
const HASH = '5f7fb5cbc6';

function ds(spec: Partial<DaemonSet['spec']> = {}, status?: DaemonSet['status']): DaemonSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'ns', uid: 'ds-uid', generation: 2, resourceVersion: '5' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          containers: [{ name: 'agent', image: 'nginx:1.25', resources: { requests: { cpu: '100m' } } }],
        },
      },
      ...spec,
    },
    ...(status ? { status } : {}),
  };
}

const node = (name: string, extra: Partial<Node> = {}): Node => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  ...extra,
});

const OWNER = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'DaemonSet',
  name: 'agent',
  uid: 'ds-uid',
  controller: true,
  blockOwnerDeletion: true,
};

function pod(
  name: string,
  nodeName: string,
  extra: { phase?: string; hash?: string; created?: string } = {},
): Pod {
  return {
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      creationTimestamp: extra.created ?? '2026-01-01T00:00:00Z',
      labels: { app: 'agent', 'controller-revision-hash': extra.hash ?? HASH },
      ownerReferences: [OWNER],
    },
    spec: { containers: [{ name: 'agent', image: 'nginx:1.25' }], nodeName },
    status: {
      phase: extra.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:01:00Z' }],
    },
  };
}

const revision = (): ControllerRevision => ({
  metadata: {
    name: `agent-${HASH}`,
    namespace: 'ns',
    labels: { app: 'agent', 'controller-revision-hash': HASH },
    ownerReferences: [OWNER],
  },
  revision: 1,
  data: {
    spec: {
      template: {
        $patch: 'replace',
        metadata: { creationTimestamp: null, labels: { app: 'agent' } },
        spec: {
          containers: [{ name: 'agent', image: 'nginx:1.25', resources: { requests: { cpu: '100m' } } }],
        },
      },
    },
  },
});

function plan(over: Partial<DaemonSetPlanInput>): SyncPlan {
  let n = 0;
  const p = planDaemonSet({
    ds: ds(),
    pods: [],
    nodes: [node('n1'), node('n2'), node('n3')],
    revisions: [revision()],
    now: NOW,
    newSuffix: () => `sfx${n++}`,
    ...over,
  });
  if (p.type !== 'Sync') throw new Error(`expected Sync, got ${p.type}`);
  return p;
}

const DAEMON_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

describe('planDaemonSet: a new DaemonSet on three nodes', () => {
  const p = plan({ revisions: [] });

  it('creates the revision <name>-<ComputeHash>, revision 1, labelled with the hash', () => {
    expect(p.hash).toBe(HASH);
    expect(p.createRevision).toEqual({ apiVersion: 'apps/v1', kind: 'ControllerRevision', ...revision() });
  });

  it('creates one pod per node, pinned by node-name affinity, with the daemon tolerations, in slow-start batches', () => {
    expect(p.creates.map((c) => [c.node, c.batch])).toEqual([
      ['n1', 0],
      ['n2', 1],
      ['n3', 1],
    ]);
    expect(p.creates[0].pod).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'agent-sfx0',
        generateName: 'agent-',
        namespace: 'ns',
        labels: { app: 'agent', 'controller-revision-hash': HASH },
        ownerReferences: [OWNER],
      },
      spec: {
        containers: [{ name: 'agent', image: 'nginx:1.25', resources: { requests: { cpu: '100m' } } }],
        tolerations: DAEMON_TOLERATIONS,
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] },
              ],
            },
          },
        },
        readinessGates: [{ conditionType: 'KruisePodReady' }],
      },
    });
  });

  it('gives each pod it creates its KruisePodReady condition in the same pass, in create order (issue 20)', () => {
    const condition = { type: 'KruisePodReady', status: 'True', lastTransitionTime: '2026-01-01T00:10:00Z' };
    expect(p.createdReadyPatches).toEqual(
      ['agent-sfx0', 'agent-sfx1', 'agent-sfx2'].map((name) => ({
        type: 'PatchPodStatus',
        pod: { name, uid: '' },
        reason: 'InitKruisePodReady',
        patch: { status: { conditions: [condition] } },
      })),
    );
    expect(p.readyPatches).toEqual([]);
  });

  it('writes the status without observedGeneration while pods are being created', () => {
    expect(p.status).toEqual({
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 3,
      numberReady: 0,
      updatedNumberScheduled: 0,
      // numberAvailable 0 is absent, as Go's omitempty writes it
      numberUnavailable: 3,
      updateRevision: HASH,
    });
  });
});

describe('planDaemonSet: nodes', () => {
  it('skips nodes the nodeSelector or an untolerated NoSchedule taint rule out; adds network-unavailable for hostNetwork', () => {
    const p = plan({
      ds: ds({
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: {
            containers: [{ name: 'agent', image: 'nginx:1.25', resources: { requests: { cpu: '100m' } } }],
            nodeSelector: { role: 'edge' },
            hostNetwork: true,
          },
        },
      }),
      revisions: [],
      nodes: [
        node('n1', { metadata: { name: 'n1', labels: { role: 'edge' } } }),
        node('n2'),
        node('n3', {
          metadata: { name: 'n3', labels: { role: 'edge' } },
          spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] },
        }),
        node('n4', {
          metadata: { name: 'n4', labels: { role: 'edge' } },
          spec: {
            unschedulable: true,
            taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
          },
        }),
      ],
    });
    expect(p.creates.map((c) => c.node)).toEqual(['n1', 'n4']);
    expect(p.creates[0].pod.spec.tolerations).toEqual([
      ...DAEMON_TOLERATIONS,
      { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' },
    ]);
    expect(p.status.desiredNumberScheduled).toBe(2);
  });

  it('deletes the pod of a node that no longer fits, and counts it misscheduled; a NoExecute-tolerating pod may stay', () => {
    const p = plan({
      pods: [pod('agent-a', 'n1'), pod('agent-b', 'n2'), pod('agent-c', 'n3')],
      nodes: [
        node('n1'),
        node('n2', { spec: { taints: [{ key: 'gone', effect: 'NoExecute' }] } }),
        node('n3', { spec: { taints: [{ key: 'soft', effect: 'NoSchedule' }] } }),
      ],
    });
    expect(p.creates).toEqual([]);
    expect(p.deletes).toEqual([{ name: 'agent-b', uid: 'uid-agent-b' }]);
    expect(p.status).toMatchObject({
      desiredNumberScheduled: 1,
      currentNumberScheduled: 1,
      numberMisscheduled: 2,
      numberReady: 1,
      numberAvailable: 1,
      updatedNumberScheduled: 1,
    });
  });

  it('deletes a failed pod with a FailedDaemonPod Warning, and the younger of two pods on a node', () => {
    const p = plan({
      pods: [
        pod('agent-a', 'n1', { phase: 'Failed' }),
        pod('agent-b', 'n2'),
        pod('agent-c', 'n2', { created: '2026-01-01T00:05:00Z' }),
        pod('agent-d', 'n3'),
      ],
    });
    expect(p.events).toEqual([
      {
        type: 'Warning',
        reason: 'FailedDaemonPod',
        message: 'Found failed daemon pod ns/agent-a on node n1, will try to kill it',
      },
    ]);
    expect(p.deletes.map((d) => d.name)).toEqual(['agent-a', 'agent-c']);
    expect(p.creates).toEqual([]);
  });
});

describe('planDaemonSet: failed-pod backoff (upstream failedPodsBackoff, 1 s doubling to 15 min)', () => {
  const failedOnN1 = [pod('agent-a', 'n1', { phase: 'Failed' }), pod('agent-b', 'n2'), pod('agent-d', 'n3')];
  const at = (ms: number) => new Date(NOW.getTime() + ms);
  const ds7 = ds({}, { observedGeneration: 7 });

  it('the first failure on a node: deleted at once, its delay of 1 s kept under <observedGeneration>/<node>', () => {
    const p = plan({ ds: ds7, pods: failedOnN1 });
    expect(p.deletes.map((d) => d.name)).toEqual(['agent-a']);
    expect(p.events.map((e) => e.reason)).toEqual(['FailedDaemonPod']);
    expect(p.backoffs).toEqual([{ key: '7/n1', delayMs: 1000, at: NOW.getTime() }]);
  });

  it('a failed pod found within the delay is left, with no Event, and the pass comes back after the delay', () => {
    const backoffs = [{ key: '7/n1', delayMs: 4000, at: NOW.getTime() }];
    const p = plan({ ds: ds7, pods: failedOnN1, backoffs, now: at(3999) });
    expect(p.deletes).toEqual([]);
    expect(p.events).toEqual([]);
    expect(p.creates).toEqual([]);
    expect(p.backoffs).toEqual(backoffs);
    expect(p.requeueAfterSeconds).toBe(4);
  });

  it('after the delay: deleted, the delay doubled; never beyond 15 min', () => {
    const p = plan({
      ds: ds7,
      pods: failedOnN1,
      backoffs: [{ key: '7/n1', delayMs: 4000, at: NOW.getTime() }],
      now: at(4000),
    });
    expect(p.deletes.map((d) => d.name)).toEqual(['agent-a']);
    expect(p.backoffs).toEqual([{ key: '7/n1', delayMs: 8000, at: NOW.getTime() + 4000 }]);
    const capped = plan({
      ds: ds7,
      pods: failedOnN1,
      backoffs: [{ key: '7/n1', delayMs: 600_000, at: NOW.getTime() }],
      now: at(600_000),
    });
    expect(capped.backoffs).toEqual([{ key: '7/n1', delayMs: 900_000, at: NOW.getTime() + 600_000 }]);
  });

  it('a new generation, or a delay idle for more than 30 min, starts at 1 s again; expired entries are dropped', () => {
    const old = [{ key: '6/n1', delayMs: 8000, at: NOW.getTime() }];
    const p = plan({ ds: ds7, pods: failedOnN1, backoffs: old, now: at(1) });
    expect(p.deletes.map((d) => d.name)).toEqual(['agent-a']);
    expect(p.backoffs).toEqual([
      { key: '6/n1', delayMs: 8000, at: NOW.getTime() },
      { key: '7/n1', delayMs: 1000, at: NOW.getTime() + 1 },
    ]);
    const idle = plan({
      ds: ds7,
      pods: failedOnN1,
      backoffs: [...old, { key: '7/n1', delayMs: 900_000, at: NOW.getTime() }],
      now: at(1_800_001),
    });
    expect(idle.deletes.map((d) => d.name)).toEqual(['agent-a']);
    expect(idle.backoffs).toEqual([{ key: '7/n1', delayMs: 1000, at: NOW.getTime() + 1_800_001 }]);
  });
});

describe('planDaemonSet: status', () => {
  it('observes the generation once nothing is written; pods of another hash are not updated', () => {
    const p = plan({
      pods: [pod('agent-a', 'n1'), pod('agent-b', 'n2', { hash: 'old' }), pod('agent-c', 'n3')],
    });
    expect(p.createRevision).toBeUndefined();
    expect(p.status).toEqual({
      currentNumberScheduled: 3,
      numberMisscheduled: 0,
      desiredNumberScheduled: 3,
      numberReady: 3,
      updatedNumberScheduled: 2,
      numberAvailable: 3,
      // numberUnavailable 0 is absent, as Go's omitempty writes it
      updateRevision: HASH,
      observedGeneration: 2,
    });
  });

  it('counts a ready pod available only after minReadySeconds, and looks again then', () => {
    const p = plan({
      ds: ds({ minReadySeconds: 600 }),
      pods: [pod('agent-a', 'n1'), pod('agent-b', 'n2'), pod('agent-c', 'n3')],
    });
    expect(p.status).toMatchObject({ numberReady: 3, numberUnavailable: 3 });
    expect(p.status.numberAvailable).toBeUndefined();
    expect(p.requeueAfterSeconds).toBe(600);
  });
});

describe('planDaemonSet: other branches', () => {
  it('with partitionedScaling creates on desired − updated − partition nodes, by name', () => {
    const p = plan({
      ds: ds(
        {
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
          scaleStrategy: { partitionedScaling: true },
        },
        { desiredNumberScheduled: 3, currentNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0 },
      ),
      nodes: [node('n3'), node('n1'), node('n2')],
    });
    expect(p.creates.map((c) => c.node)).toEqual(['n1', 'n2']);
  });

  it('warns SelectingAll for an empty selector and does nothing else', () => {
    expect(
      planDaemonSet({
        ds: ds({ selector: {} }),
        pods: [],
        nodes: [node('n1')],
        revisions: [],
        now: NOW,
        newSuffix: () => 'x',
      }),
    ).toEqual({
      type: 'SelectingAll',
      events: [
        {
          type: 'Warning',
          reason: 'SelectingAll',
          message: 'This DaemonSet is selecting all pods. A non-empty selector is required.',
        },
      ],
    });
  });

  it('does nothing for a DaemonSet being deleted', () => {
    expect(
      planDaemonSet({
        ds: { ...ds(), metadata: { ...ds().metadata, deletionTimestamp: '2026-01-01T00:09:00Z' } },
        pods: [],
        nodes: [node('n1')],
        revisions: [],
        now: NOW,
        newSuffix: () => 'x',
      }),
    ).toEqual({ type: 'Skip' });
  });
});

describe('planDaemonSet: rolling update (Standard)', () => {
  const old = () => [
    pod('agent-a', 'n1', { hash: 'old' }),
    pod('agent-b', 'n2', { hash: 'old' }),
    pod('agent-c', 'n3', { hash: 'old' }),
  ];
  const status = {
    desiredNumberScheduled: 3,
    currentNumberScheduled: 3,
    numberMisscheduled: 0,
    numberReady: 3,
  };
  const rolling = (
    rollingUpdate: NonNullable<NonNullable<DaemonSet['spec']['updateStrategy']>['rollingUpdate']>,
  ) => ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate } }, status);

  it('deletes maxUnavailable (default 1) old pods, the node names taken from the last, and observes the generation', () => {
    const p = plan({ ds: ds({}, status), pods: old() });
    expect(p.deletes).toEqual([{ name: 'agent-c', uid: 'uid-agent-c' }]);
    expect(p.creates).toEqual([]);
    expect(p.status.observedGeneration).toBe(2);
  });

  it('with maxUnavailable 2 deletes two; a node already without its pod counts as unavailable', () => {
    expect(plan({ ds: rolling({ maxUnavailable: 2 }), pods: old() }).deletes.map((d) => d.name)).toEqual([
      'agent-c',
      'agent-b',
    ]);
    const [a, b] = old();
    expect(plan({ ds: rolling({ maxUnavailable: 2 }), pods: [a, b] }).creates.map((c) => c.node)).toEqual([
      'n3',
    ]);
  });

  it('waits while an updated pod is not yet available', () => {
    const [a, b] = old();
    const fresh = pod('agent-d', 'n3');
    fresh.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] };
    expect(plan({ ds: rolling({ maxUnavailable: 1 }), pods: [a, b, fresh] }).deletes).toEqual([]);
  });

  it('replaces an old pod that is not available at once, beyond maxUnavailable', () => {
    const [a, b, c] = old();
    a.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] };
    expect(plan({ ds: rolling({ maxUnavailable: 1 }), pods: [a, b, c] }).deletes.map((d) => d.name)).toEqual([
      'agent-a',
      'agent-c',
    ]);
  });

  it('keeps partition nodes at the old revision: partition 2 of 3 updates one node', () => {
    const [a, b] = old();
    const updated = pod('agent-d', 'n3');
    expect(plan({ ds: rolling({ maxUnavailable: 3, partition: 2 }), pods: [a, b, updated] }).deletes).toEqual(
      [],
    );
    expect(
      plan({ ds: rolling({ maxUnavailable: 3, partition: 2 }), pods: old() }).deletes.map((d) => d.name),
    ).toEqual(['agent-c']);
  });

  it('updates only the nodes rollingUpdate.selector matches', () => {
    const nodes = [
      node('n1', { metadata: { name: 'n1', labels: { canary: 'true' } } }),
      node('n2'),
      node('n3'),
    ];
    const p = plan({
      ds: rolling({ maxUnavailable: 3, selector: { matchLabels: { canary: 'true' } } }),
      pods: old(),
      nodes,
    });
    expect(p.deletes.map((d) => d.name)).toEqual(['agent-a']);
  });

  it('updates nothing while paused, or under OnDelete', () => {
    expect(plan({ ds: rolling({ maxUnavailable: 3, paused: true }), pods: old() }).deletes).toEqual([]);
    expect(plan({ ds: ds({ updateStrategy: { type: 'OnDelete' } }, status), pods: old() }).deletes).toEqual(
      [],
    );
  });

  it('with maxSurge 1 creates a new pod beside an old one, and deletes the old once the new is available', () => {
    const surge = rolling({ maxSurge: 1, maxUnavailable: 0 });
    const first = plan({ ds: surge, pods: old() });
    expect(first.creates.map((c) => c.node)).toEqual(['n3']);
    expect(first.deletes).toEqual([]);
    const [a, b, c] = old();
    const next = plan({
      ds: surge,
      pods: [a, b, c, pod('agent-d', 'n3', { created: '2026-01-01T00:06:00Z' })],
    });
    expect(next.deletes.map((d) => d.name)).toEqual(['agent-c']);
    expect(next.creates).toEqual([]);
  });

  it('with maxSurge and minReadySeconds keeps the old pod until the new one is available, and looks again then', () => {
    const surge = ds(
      {
        minReadySeconds: 10,
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      },
      status,
    );
    const [a, b, c] = old();
    const fresh = pod('agent-d', 'n3', { created: '2026-01-01T00:09:50Z' });
    // Ready for 4 s of the 10: not available yet
    fresh.status = {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:09:56Z' }],
    };
    const p = plan({ ds: surge, pods: [a, b, c, fresh] });
    expect(p.deletes).toEqual([]);
    expect(p.creates).toEqual([]);
    // 6 s left, past the strict "more than minReadySeconds"
    expect(p.requeueAfterSeconds).toBe(7);
  });
});

describe('planDaemonSet: revision history', () => {
  const oldRevision = (n: number): ControllerRevision => ({
    metadata: { name: `agent-old${n}`, namespace: 'ns', labels: { 'controller-revision-hash': `old${n}` } },
    revision: n,
    data: { spec: { template: { $patch: 'replace', spec: { containers: [] } } } },
  });

  it('deletes the oldest revisions beyond revisionHistoryLimit, skipping those a pod still carries', () => {
    const current = { ...revision(), revision: 5 };
    const p = plan({
      ds: ds({ revisionHistoryLimit: 1 }),
      revisions: [oldRevision(3), oldRevision(1), oldRevision(2), oldRevision(4), current],
      pods: [pod('agent-a', 'n1'), pod('agent-b', 'n2'), pod('agent-c', 'n3', { hash: 'old1' })],
    });
    expect(p.deleteRevisions).toEqual(['agent-old2', 'agent-old3', 'agent-old4']);
  });

  it('keeps 10 old revisions by default, and prunes nothing on a pass that writes pods', () => {
    const current = { ...revision(), revision: 12 };
    const eleven = Array.from({ length: 11 }, (_, i) => oldRevision(i + 1));
    expect(
      plan({
        revisions: [...eleven, current],
        pods: [pod('agent-a', 'n1'), pod('agent-b', 'n2'), pod('agent-c', 'n3')],
      }).deleteRevisions,
    ).toEqual(['agent-old1']);
    expect(plan({ revisions: [...eleven, current] }).deleteRevisions).toEqual([]);
  });

  const duplicate = (name: string, hash: string, n: number): ControllerRevision => ({
    ...revision(),
    metadata: { ...revision().metadata, name, labels: { app: 'agent', 'controller-revision-hash': hash } },
    revision: n,
  });

  it('two revisions record the template: every pod not of the higher one relabelled to it, the other deleted', () => {
    const p = plan({
      revisions: [duplicate('agent-dup', 'dup', 3), oldRevision(2), revision()],
      pods: [
        pod('agent-a', 'n1'),
        pod('agent-b', 'n2', { hash: 'old2' }),
        pod('agent-c', 'n3', { hash: 'dup' }),
      ],
    });
    const relabel = (name: string) => ({
      type: 'PatchPod',
      pod: { name, uid: `uid-${name}` },
      reason: 'RelabelDuplicateRevision',
      patch: { metadata: { labels: { 'controller-revision-hash': 'dup' } } },
    });
    expect(p.dedup).toEqual({
      relabel: [relabel('agent-a'), relabel('agent-b')],
      deleteRevisions: [`agent-${HASH}`],
    });
    expect([p.hash, p.currentRevision, p.renumberRevision, p.createRevision]).toEqual([
      'dup',
      'agent-dup',
      undefined,
      undefined,
    ]);
    // the rest of the pass sees the pods relabelled: all three updated, nothing replaced
    expect([p.creates, p.deletes]).toEqual([[], []]);
    expect([p.status.updatedNumberScheduled, p.status.updateRevision]).toEqual([3, 'dup']);
  });

  it('of duplicates with the same revision the last listed is kept; the kept one renumbered above the old', () => {
    const p = plan({
      revisions: [revision(), duplicate('agent-dup', 'dup', 1), oldRevision(4)],
      pods: [pod('agent-a', 'n1', { hash: 'dup' })],
    });
    expect(p.dedup).toEqual({ relabel: [], deleteRevisions: [`agent-${HASH}`] });
    expect(p.renumberRevision?.metadata.name).toBe('agent-dup');
    expect(p.renumberRevision?.revision).toBe(5);
  });

  it('one revision recording the template: no dedup', () => {
    expect(plan({ pods: [pod('agent-a', 'n1', { hash: 'other' })] }).dedup).toBeUndefined();
  });

  it('renumbers the current revision above a newer old one (a rollback)', () => {
    const p = plan({ revisions: [oldRevision(4), revision()] });
    expect(p.renumberRevision?.revision).toBe(5);
    expect(p.createRevision).toBeUndefined();
  });
});

describe('planDaemonSet: InPlaceIfPossible', () => {
  const oldRev: ControllerRevision = {
    metadata: {
      name: 'agent-old',
      namespace: 'ns',
      labels: { app: 'agent', 'controller-revision-hash': 'old' },
    },
    revision: 1,
    data: {
      spec: {
        template: {
          $patch: 'replace',
          metadata: { creationTimestamp: null, labels: { app: 'agent' } },
          spec: {
            containers: [{ name: 'agent', image: 'nginx:1.24', resources: { requests: { cpu: '100m' } } }],
          },
        },
      },
    },
  };
  const current = { ...revision(), revision: 2 };
  const status = {
    desiredNumberScheduled: 3,
    currentNumberScheduled: 3,
    numberMisscheduled: 0,
    numberReady: 3,
  };
  const gated = (name: string, nodeName: string): Pod => {
    const p = pod(name, nodeName, { hash: 'old' });
    p.spec.containers = [{ name: 'agent', image: 'nginx:1.24' }];
    p.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
    p.status = {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:01:00Z' },
        { type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: '2026-01-01T00:01:00Z' },
      ],
      containerStatuses: [
        { name: 'agent', image: 'nginx:1.24', imageID: 'id-124', ready: true, restartCount: 0 },
      ],
    };
    return p;
  };
  const inPlaceDs = ds(
    {
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 1 },
      },
    },
    status,
  );

  it('updates the chosen old pod in place (hash label, image, InPlaceUpdateReady False) instead of deleting it', () => {
    const p = plan({
      ds: inPlaceDs,
      revisions: [oldRev, current],
      pods: [gated('agent-a', 'n1'), gated('agent-b', 'n2'), gated('agent-c', 'n3')],
    });
    expect(p.deletes).toEqual([]);
    expect(p.updatedInPlace).toEqual(['agent-c']);
    expect(p.inPlace.map((a) => [a.type, a.pod.name])).toEqual([
      ['PatchPodStatus', 'agent-c'],
      ['PatchPod', 'agent-c'],
    ]);
    const patch = p.inPlace[1].patch as {
      metadata: { labels: Record<string, string>; annotations: Record<string, string | null> };
      spec: unknown;
    };
    expect(patch.metadata.labels).toEqual({ 'controller-revision-hash': HASH });
    expect(
      JSON.parse(patch.metadata.annotations['apps.kruise.io/inplace-update-state'] ?? '{}'),
    ).toMatchObject({
      revision: HASH,
      lastContainerStatuses: { agent: { imageID: 'id-124' } },
    });
    expect(patch.spec).toEqual({ containers: [{ name: 'agent', image: 'nginx:1.25' }] });
  });

  it('recreates a pod without the InPlaceUpdateReady gate', () => {
    const [a, b, c] = [gated('agent-a', 'n1'), gated('agent-b', 'n2'), gated('agent-c', 'n3')];
    c.spec.readinessGates = [];
    const p = plan({ ds: inPlaceDs, revisions: [oldRev, current], pods: [a, b, c] });
    expect(p.deletes.map((d) => d.name)).toEqual(['agent-c']);
    expect(p.updatedInPlace).toEqual([]);
  });

  it('gives new pods the InPlaceUpdateReady gate, and the refresh sets its condition True', () => {
    const created = plan({ ds: inPlaceDs, revisions: [], pods: [] });
    expect(created.creates[0].pod.spec.readinessGates).toEqual([
      { conditionType: 'InPlaceUpdateReady' },
      { conditionType: 'KruisePodReady' },
    ]);
    const fresh = pod('agent-a', 'n1');
    fresh.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
    const p = plan({
      ds: inPlaceDs,
      revisions: [current],
      pods: [fresh, pod('agent-b', 'n2'), pod('agent-c', 'n3')],
    });
    expect(p.inPlace.map((a) => [a.type, a.pod.name, a.reason])).toEqual([
      ['PatchPodStatus', 'agent-a', 'InPlaceUpdateReady'],
    ]);
  });

  it('writes only KruisePodReady in the creating pass: InPlaceUpdateReady waits for a pass that writes no pod', () => {
    const created = plan({ ds: inPlaceDs, revisions: [], pods: [] });
    expect(created.inPlace).toEqual([]);
    expect(created.createdReadyPatches.map((a) => [a.pod.name, a.reason, a.patch])).toEqual(
      ['agent-sfx0', 'agent-sfx1', 'agent-sfx2'].map((name) => [
        name,
        'InitKruisePodReady',
        {
          status: {
            conditions: [
              { type: 'KruisePodReady', status: 'True', lastTransitionTime: '2026-01-01T00:10:00Z' },
            ],
          },
        },
      ]),
    );
  });
});

describe('planDaemonSet: lifecycle.preDelete', () => {
  const status = {
    desiredNumberScheduled: 3,
    currentNumberScheduled: 3,
    numberMisscheduled: 0,
    numberReady: 3,
  };
  const hooked = (name: string, nodeName: string, state?: string): Pod => {
    const p = pod(name, nodeName, { hash: 'old' });
    p.metadata.labels = {
      ...p.metadata.labels,
      hook: 'true',
      ...(state ? { 'lifecycle.apps.kruise.io/state': state } : {}),
    };
    return p;
  };
  const hookedDs = ds(
    {
      lifecycle: { preDelete: { labelsHandler: { hook: 'true' } } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
    },
    status,
  );

  it('moves a hooked pod the update would delete to PreparingDelete instead', () => {
    const p = plan({
      ds: hookedDs,
      pods: [hooked('agent-a', 'n1'), hooked('agent-b', 'n2'), hooked('agent-c', 'n3')],
    });
    expect(p.deletes).toEqual([]);
    expect(p.preparingDelete.map((a) => [a.type, a.pod.name, a.reason])).toEqual([
      ['PatchPod', 'agent-c', 'LifecycleTransition'],
    ]);
    expect(
      (p.preparingDelete[0].patch as { metadata: { labels: Record<string, string> } }).metadata.labels,
    ).toEqual({
      'lifecycle.apps.kruise.io/state': 'PreparingDelete',
    });
  });

  it('keeps a PreparingDelete pod while hooked, and deletes it once the hook lets go', () => {
    const held = plan({
      ds: hookedDs,
      pods: [hooked('agent-a', 'n1'), hooked('agent-b', 'n2'), hooked('agent-c', 'n3', 'PreparingDelete')],
    });
    expect(held.deletes).toEqual([]);
    expect(held.preparingDelete).toEqual([]);
    const released = hooked('agent-c', 'n3', 'PreparingDelete');
    delete released.metadata.labels?.hook;
    const p = plan({ ds: hookedDs, pods: [hooked('agent-a', 'n1'), hooked('agent-b', 'n2'), released] });
    expect(p.deletes).toEqual([{ name: 'agent-c', uid: 'uid-agent-c' }]);
  });
});
