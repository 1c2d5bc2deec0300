/**
 * `kruiseless plan ds/<name>`'s report on the planner's own plans (lib/controllers/daemonset/plan, the pure planner
 * a pass runs): the writes in the executor's order, each with why, pending expectations and an invalid DaemonSet —
 * exact text; and `kruiseless why <pod>`'s report on the same previews (lib/cli/whyDaemonSetView.ts).
 */
import { describe, expect, it } from '@jest/globals';
import type { Node } from '../../../lib/api/node.js';
import type { ControllerRevision, Pod } from '../../../lib/api/types.js';
import { daemonSetPlanReport, plannedDaemonSetWrites } from '../../../lib/cli/planDaemonSetView.js';
import { placeholderIds } from '../../../lib/cli/planView.js';
import { daemonSetWhyReport } from '../../../lib/cli/whyDaemonSetView.js';
import type { DaemonSet } from '../../../lib/controllers/daemonset/api/types.js';
import { planDaemonSet } from '../../../lib/controllers/daemonset/plan/index.js';
import type { DaemonSetPassPreview } from '../../../lib/controllers/daemonset/preview.js';
import { noExpectations } from '../../../lib/reconcile/pods/observeExpectations.js';
import type { Expectations } from '../../../lib/state/index.js';

const NOW = new Date('2026-01-01T00:10:00Z');
/** `ComputeHash` of the template below (as test/unit/controllers/daemonset/plan/plan.test.ts). */
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

const node = (name: string): Node => ({ metadata: { name, labels: { 'kubernetes.io/hostname': name } } });

const OWNER = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'DaemonSet',
  name: 'agent',
  uid: 'ds-uid',
  controller: true,
  blockOwnerDeletion: true,
};

function pod(name: string, nodeName: string, hash = HASH, phase = 'Running'): Pod {
  return {
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { app: 'agent', 'controller-revision-hash': hash },
      ownerReferences: [OWNER],
    },
    spec: { containers: [{ name: 'agent', image: 'nginx:1.25' }], nodeName },
    status: {
      phase,
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

const SETTLED = {
  observedGeneration: 2,
  desiredNumberScheduled: 2,
  currentNumberScheduled: 2,
  numberMisscheduled: 0,
  numberReady: 2,
  updatedNumberScheduled: 1,
  numberAvailable: 2,
  updateRevision: HASH,
};

/** A preview as previewDaemonSetPass builds it, with the real planner's plan. */
function preview(
  daemonSet: DaemonSet,
  pods: Pod[],
  revisions: ControllerRevision[],
  pending = noExpectations(),
): DaemonSetPassPreview {
  const nodes = [node('n1'), node('n2')];
  const plan = planDaemonSet({
    ds: daemonSet,
    pods,
    nodes,
    revisions,
    now: NOW,
    newSuffix: placeholderIds(),
  });
  const waiting = pending.creates.length + pending.deletes.length + pending.updates.length > 0;
  return {
    ds: daemonSet,
    pods,
    revisions,
    nodes,
    claimWrites: 0,
    observed: { pending, expired: [], changed: false },
    waiting,
    plan,
    resizeWrite: 'resize',
  };
}

describe('daemonSetPlanReport', () => {
  it('first pass: the revision, a pod per node that has none, the status', () => {
    expect(daemonSetPlanReport(preview(ds(), [], []), 'not read')).toBe(
      [
        'DaemonSet ns/agent',
        '  state:            not read',
        `  update revision:  agent-${HASH} (hash ${HASH}) (new)`,
        '  nodes:            2, 2 should run the pod',
        '  update strategy:  RollingUpdate Standard, maxUnavailable 1, maxSurge 0',
        '  pods:             0 owned, 0 revisions',
        '  expectations:     none pending',
        'Writes, in order:',
        `  1. create controllerrevision agent-${HASH}: the template has no revision yet: new update revision`,
        `  2. create pod agent-<new-1>: node n1 should run the pod and has none: created at the update revision ${HASH}, slow-start batch 0`,
        `  3. create pod agent-<new-2>: node n2 should run the pod and has none: created at the update revision ${HASH}, slow-start batch 1`,
        '  4. patch pod/status agent-<new-1>: new pod with the KruisePodReady gate: condition set True',
        '  5. patch pod/status agent-<new-2>: new pod with the KruisePodReady gate: condition set True',
        `  6. update daemonset/status agent: desiredNumberScheduled -→2, currentNumberScheduled -→0, numberMisscheduled -→0, numberReady -→0, updatedNumberScheduled -→0, numberUnavailable -→2, updateRevision -→${HASH}`,
        '',
      ].join('\n'),
    );
  });

  it('rolling update: the old pod is deleted, with its revision', () => {
    const p = preview(ds({}, SETTLED), [pod('agent-a', 'n1', 'old'), pod('agent-b', 'n2')], [revision()]);
    expect(plannedDaemonSetWrites(p)).toEqual([
      { write: 'delete pod agent-a', why: `rolling update: at revision old, created again at ${HASH}` },
    ]);
  });

  it('a Failed pod is deleted, with the FailedDaemonPod Warning', () => {
    const p = preview(
      ds({}, SETTLED),
      [pod('agent-a', 'n1', HASH, 'Failed'), pod('agent-b', 'n2')],
      [revision()],
    );
    expect(daemonSetPlanReport(p, 'not read')).toBe(
      [
        'DaemonSet ns/agent',
        '  state:            not read',
        `  update revision:  agent-${HASH} (hash ${HASH})`,
        '  nodes:            2, 2 should run the pod',
        '  update strategy:  RollingUpdate Standard, maxUnavailable 1, maxSurge 0',
        '  pods:             2 owned, 1 revisions',
        '  expectations:     none pending',
        'Writes, in order:',
        '  1. delete pod agent-a: Failed on node n1: deleted to be created again',
        '  2. update daemonset/status agent: updatedNumberScheduled 1→2',
        'Events:',
        '  Warning FailedDaemonPod: Found failed daemon pod ns/agent-a on node n1, will try to kill it',
        '',
      ].join('\n'),
    );
  });

  it('pending expectations: nothing written', () => {
    const pending: Expectations = { ...noExpectations(), creates: [{ name: 'agent-x', at: NOW.getTime() }] };
    expect(daemonSetPlanReport(preview(ds(), [], [], pending), 'not read')).toBe(
      [
        'DaemonSet ns/agent',
        '  state:            not read',
        `  update revision:  agent-${HASH} (hash ${HASH}) (new)`,
        '  nodes:            2, 2 should run the pod',
        '  update strategy:  RollingUpdate Standard, maxUnavailable 1, maxSurge 0',
        '  pods:             0 owned, 0 revisions',
        '  expectations:     create agent-x not yet seen: pod writes wait',
        '  stops:            pending expectations: the pass writes nothing and looks again',
        'Writes: none',
        '',
      ].join('\n'),
    );
  });

  it('an invalid DaemonSet: its errors and the FailedValidation status only', () => {
    const invalid = ds({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } },
    });
    expect(daemonSetPlanReport(preview(invalid, [], []), 'not read')).toBe(
      [
        'DaemonSet ns/agent',
        '  state:            not read',
        '  update strategy:  RollingUpdate Standard, maxUnavailable 0, maxSurge 0',
        '  pods:             0 owned, 0 revisions',
        '  expectations:     none pending',
        'Invalid DaemonSet (nothing else is changed until it is fixed):',
        '  spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
        'Writes, in order:',
        '  1. update daemonset/status agent: FailedValidation condition and its Warning Event, unless the stored condition already says it',
        '',
      ].join('\n'),
    );
  });
});

describe('plan ds/<name>: duplicate current revisions', () => {
  it('the relabels, then the duplicate deleted, before anything else', () => {
    const dup: ControllerRevision = {
      ...revision(),
      metadata: { ...revision().metadata, name: 'agent-dup', labels: { 'controller-revision-hash': 'dup' } },
      revision: 2,
    };
    const p = preview(
      ds({}, SETTLED),
      [pod('agent-a', 'n1'), pod('agent-b', 'n2', 'dup')],
      [revision(), dup],
    );
    expect(plannedDaemonSetWrites(p).slice(0, 2)).toEqual([
      {
        write: 'patch pod agent-a',
        why: 'relabel to the kept current revision before its duplicates are deleted',
      },
      {
        write: `delete controllerrevision agent-${HASH}`,
        why: 'records the template too: a duplicate of agent-dup',
      },
    ]);
  });
});

describe('why <pod> of an Advanced DaemonSet (whyDaemonSetView)', () => {
  const facts = (p: DaemonSetPassPreview, name: string) => ({
    namespace: 'ns',
    name,
    pod: p.pods.find((x) => x.metadata.name === name)!,
    daemonSetName: 'agent',
    preview: p,
    stateRead: true,
    events: [],
    stateNote: 'expectations from table t (cluster c)',
  });

  it('a pod at an old revision on a node the partition keeps back, the node tainted: exact report', () => {
    const tainted: Node = {
      ...node('n2'),
      spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] },
    };
    const p = preview(
      ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }, SETTLED),
      [pod('agent-a', 'n1', 'old'), pod('agent-b', 'n2', 'old')],
      [revision()],
    );
    const withTaint = { ...p, nodes: [p.nodes[0], tainted] };
    expect(daemonSetWhyReport(facts(withTaint, 'agent-b'))).toBe(
      [
        'Pod ns/agent-b',
        '  DaemonSet:        agent (apps.kruise.io)',
        '  node:             n2',
        '  should run:       no: taint k=v:NoSchedule not tolerated; a pod already there may stay',
        '  created:          2026-01-01T00:00:00Z',
        `  revision:         old (an old revision; the update revision is ${HASH})`,
        '  update:           kept at its revision by partition 2 (0 nodes may update)',
        '  lifecycle state:  (none: Normal)',
        '  in-place update:  none recorded',
        '  state:            expectations from table t (cluster c)',
        '  expectations:     nothing pending for this pod',
        '  next pass:        nothing for this pod',
        'History (Events): none kept',
        '',
      ].join('\n'),
    );
  });

  it('without a partition the rolling update reaches the node: the next pass replaces the pod', () => {
    const p = preview(ds({}, SETTLED), [pod('agent-a', 'n1', 'old'), pod('agent-b', 'n2')], [revision()]);
    const lines = daemonSetWhyReport(facts(p, 'agent-a')).split('\n');
    expect([lines[3], lines[6], lines[11]]).toEqual([
      '  should run:       yes',
      '  update:           the rolling update reaches node n1: replaced as maxUnavailable / maxSurge allow',
      '  next pass:        delete pod agent-a: rolling update: at revision old, created again at 5f7fb5cbc6',
    ]);
  });

  it('a node left out by rollingUpdate.selector; a node gone', () => {
    const selector = { matchLabels: { canary: 'true' } };
    const p = preview(
      ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { selector } } }, SETTLED),
      [pod('agent-a', 'n1', 'old'), pod('agent-c', 'n3', 'old')],
      [revision()],
    );
    expect(daemonSetWhyReport(facts(p, 'agent-a')).split('\n')[6]).toBe(
      '  update:           node n1 does not match rollingUpdate.selector {"matchLabels":{"canary":"true"}}: left at its revision',
    );
    expect(daemonSetWhyReport(facts(p, 'agent-c')).split('\n')[2]).toBe(
      '  node:             n3 (gone: the pod is deleted)',
    );
  });
});
