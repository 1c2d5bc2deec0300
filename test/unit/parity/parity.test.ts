/**
 * The parity runner's pure parts on CloneSet's scenarios and parity entry: scenario files, snapshot normalisation,
 * pod selection, comparison, report.
 */
import type { V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import { compareRuns, matchesPath } from '../../parity/compare.js';
import type { ClusterState } from '../../parity/cluster.js';
import { cloneSet } from '../../parity/kinds/cloneset/index.js';
import { podUnavailableBudget } from '../../parity/kinds/podunavailablebudget/index.js';
import { statefulSet } from '../../parity/kinds/statefulset/index.js';
import { renderReport, summaryLine } from '../../parity/report.js';
import { awaitingSchedulerRetry, beingRemoved, selectPods, type ScenarioRun } from '../../parity/run.js';
import { loadScenarios } from '../../parity/scenario.js';
import { takeSnapshot } from '../../parity/snapshot.js';

function pod(name: string, id: string, created: string, extra: Partial<V1Pod['metadata']> = {}): V1Pod {
  return {
    metadata: {
      name,
      uid: `0000000${name.length}-1111-2222-3333-444444444444`,
      creationTimestamp: new Date(created),
      labels: { 'apps.kruise.io/cloneset-instance-id': id, app: 'web' },
      ownerReferences: [
        { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'u', controller: true },
      ],
      ...extra,
    },
    spec: { nodeName: 'kwok-node-1', containers: [{ name: 'main', image: 'nginx' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function state(pods: V1Pod[]): ClusterState {
  return {
    object: { metadata: { name: 'web', generation: 1 }, spec: {}, status: { updateRevision: 'web-abc' } },
    pods,
    pvcs: [],
    revisions: [],
    imagePullJobs: [],
    events: [
      {
        metadata: {},
        involvedObject: { kind: 'CloneSet', name: 'web' },
        type: 'Normal',
        reason: 'SuccessfulCreate',
        message: `succeed to create pod ${pods[0]?.metadata?.name ?? ''}`,
        count: 1,
      },
    ],
  };
}

describe('scenario files', () => {
  it('every file in test/parity/scenarios/cloneset loads and validates, each a cloneset scenario', () => {
    const scenarios = loadScenarios(cloneSet);
    expect(scenarios.length).toBeGreaterThanOrEqual(28);
    expect(new Set(scenarios.map((s) => s.kind))).toEqual(new Set(['cloneset']));
    expect(scenarios.filter((s) => s.quick).map((s) => s.name)).toEqual([
      'partition-inplace',
      'predelete-hook',
      'predelete-not-ready',
      'scale-normal',
      'seed-story',
      'v1beta1-inplace-rollout',
    ]);
  });

  it('the Advanced StatefulSet quick subset is the scenarios seen at 0 different on OpenKruise v1.9.0', () => {
    const scenarios = loadScenarios(statefulSet);
    expect(scenarios.length).toBe(53);
    expect(scenarios.filter((s) => s.quick).map((s) => s.name)).toEqual([
      'asts-ordered-scale',
      'asts-parallel-burst',
      'asts-predelete-hook',
      'asts-vct-retain',
    ]);
  });
});

describe('takeSnapshot', () => {
  it('makes two clusters whose pods differ only in random parts equal', () => {
    const a = takeSnapshot(
      cloneSet,
      state([pod('web-x7k2p', 'x7k2p', '2026-01-01T00:00:00Z')]),
      new Set(),
      { maxPods: 1, minReady: 0 },
      true,
    );
    const b = takeSnapshot(
      cloneSet,
      state([pod('web-q9z4m', 'q9z4m', '2026-02-02T00:00:05Z')]),
      new Set(),
      { maxPods: 1, minReady: 0 },
      true,
    );
    expect(a).toEqual(b);
    expect(a.events).toEqual({ 'Normal SuccessfulCreate: succeed to create pod web-<id>': 1 });
    expect(a.pods[0]?.labels).toEqual({ 'apps.kruise.io/cloneset-instance-id': '<id>', app: 'web' });
    expect(a.pods[0]?.spec).toEqual({ containers: [{ image: 'nginx', name: 'main' }] });
  });

  it('tells kept pods from new ones and keeps what is not random', () => {
    const p = pod('web-x7k2p', 'x7k2p', '2026-01-01T00:00:00Z');
    const kept = takeSnapshot(
      cloneSet,
      state([p]),
      new Set([p.metadata?.uid ?? '']),
      { maxPods: 1, minReady: 1 },
      true,
    );
    expect(kept.pods.map((x) => x.since)).toEqual(['kept']);
    const other = pod('web-x7k2p', 'x7k2p', '2026-01-01T00:00:00Z', { labels: { app: 'other' } });
    expect(
      takeSnapshot(cloneSet, state([other]), new Set(), { maxPods: 1, minReady: 1 }, true).pods[0]?.labels,
    ).toEqual({ app: 'other' });
  });
});

describe('takeSnapshot: the object deleted', () => {
  it("normalises the children's names in Events by the scenario's object name once the object is gone", () => {
    const gone = (podName: string): ClusterState => ({
      ...state([pod(podName, 'x', '2026-01-01T00:00:00Z')]),
      object: undefined,
      pods: [],
    });
    const peaks = { maxPods: 0, minReady: 0 };
    const a = takeSnapshot(cloneSet, gone('web-x7k2p'), new Set(), peaks, true, 'web');
    const b = takeSnapshot(cloneSet, gone('web-q9z4m'), new Set(), peaks, true, 'web');
    expect(a.object).toBe('absent');
    expect(a.events).toEqual({ 'Normal SuccessfulCreate: succeed to create pod web-<id>': 1 });
    expect(a).toEqual(b);
  });
});

describe('takeSnapshot: pod volumes', () => {
  it('compares the volumes by name, not in the order listed (upstream ranges over a Go map of claims)', () => {
    const withVolumes = (names: string[]): V1Pod => {
      const p = pod('web-x7k2p', 'x7k2p', '2026-01-01T00:00:00Z');
      p.spec = {
        ...(p.spec ?? { containers: [] }),
        volumes: names.map((n) => ({ name: n, persistentVolumeClaim: { claimName: `${n}-web-0` } })),
      };
      return p;
    };
    const snap = (names: string[]) =>
      takeSnapshot(cloneSet, state([withVolumes(names)]), new Set(), { maxPods: 1, minReady: 1 }, true);
    expect(snap(['logs', 'data'])).toEqual(snap(['data', 'logs']));
    expect(
      (snap(['logs', 'data']).pods[0]?.spec as { volumes: { name: string }[] }).volumes.map((v) => v.name),
    ).toEqual(['data', 'logs']);
  });
});

describe('takeSnapshot: Events', () => {
  it('counts each Event, except a per-reconcile ScaleUpLimited, which is only present', () => {
    const s = state([pod('web-x7k2p', 'x7k2p', '2026-01-01T00:00:00Z')]);
    const limited = {
      metadata: {},
      involvedObject: { kind: 'CloneSet', name: 'web' },
      type: 'Warning',
      reason: 'ScaleUpLimited',
      message: 'scaleUp is limited because of scaleStrategy.maxUnavailable, limit: 0',
      count: 7,
    };
    const snap = takeSnapshot(
      cloneSet,
      { ...s, events: [...s.events, { ...s.events[0], count: 3 }, limited] },
      new Set(),
      { maxPods: 1, minReady: 1 },
      true,
    );
    expect(snap.events).toEqual({
      'Normal SuccessfulCreate: succeed to create pod web-<id>': 4,
      'Warning ScaleUpLimited: scaleUp is limited because of scaleStrategy.maxUnavailable, limit: 0': 1,
    });
  });
});

describe('takeSnapshot: timing-only Events', () => {
  it('leaves out a FailedCreate whose pod name was still held by a terminating pod, and keeps other failures', () => {
    const s = state([pod('web-x7k2p', 'x7k2p', '2026-01-01T00:00:00Z')]);
    const failed = (message: string) => ({
      metadata: {},
      involvedObject: { kind: 'CloneSet', name: 'web' },
      type: 'Warning',
      reason: 'FailedCreate',
      message,
      count: 1,
    });
    const snap = takeSnapshot(
      cloneSet,
      {
        ...s,
        events: [
          ...s.events,
          failed(
            'failed to create pod: object is being deleted: pods "web-x7k2p" already exists, the server was not able to generate a unique name for the object, pod: {}',
          ),
          failed('failed to create pod: pods "web-x7k2p" is forbidden: exceeded quota'),
        ],
      },
      new Set(),
      { maxPods: 1, minReady: 1 },
      true,
    );
    expect(snap.events).toEqual({
      'Normal SuccessfulCreate: succeed to create pod web-<id>': 1,
      'Warning FailedCreate: failed to create pod: pods "web-<id>" is forbidden: exceeded quota': 1,
    });
  });
});

describe('takeSnapshot: CloneSet status conditions', () => {
  const withConditions = (conditions: Record<string, unknown>[]): ClusterState => {
    const s = state([pod('web-x7k2p', 'x7k2p', '2026-01-01T00:00:00Z')]);
    return { ...s, object: { ...s.object!, status: { updateRevision: 'web-abc', conditions } } };
  };
  const statusOf = (s: ClusterState) => {
    const snap = takeSnapshot(cloneSet, s, new Set(), { maxPods: 1, minReady: 1 }, true);
    return snap.object === 'absent' ? undefined : snap.object.status;
  };

  it('drops a FailedUpdate that only reports an optimistic-concurrency conflict, and the emptied list', () => {
    const conflict = {
      type: 'FailedUpdate',
      status: 'True',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      message:
        'Operation cannot be fulfilled on pods "web-x7k2p": the object has been modified; please apply your changes to the latest version and try again',
    };
    expect(statusOf(withConditions([conflict]))).toEqual({ updateRevision: 'web-abc' });
  });

  it('drops a FailedScale whose create met a pod of the same name still being deleted', () => {
    const terminating = {
      type: 'FailedScale',
      status: 'True',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      message:
        'object is being deleted: pods "web-x7k2p" already exists, the server was not able to generate a unique name for the object',
    };
    expect(statusOf(withConditions([terminating]))).toEqual({ updateRevision: 'web-abc' });
  });

  it('keeps any other FailedUpdate, without its timestamps', () => {
    const failed = {
      type: 'FailedUpdate',
      status: 'True',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      message: 'find Pod web-x7k2p update strategy is InPlaceOnly but can not update in-place',
    };
    expect(statusOf(withConditions([failed]))).toEqual({
      updateRevision: 'web-abc',
      conditions: [
        {
          type: 'FailedUpdate',
          status: 'True',
          message: 'find Pod web-<id> update strategy is InPlaceOnly but can not update in-place',
        },
      ],
    });
  });
});

describe('selectPods', () => {
  const pods = [
    pod('web-bbbbb', 'bbbbb', '2026-01-01T00:00:02Z'),
    pod('web-aaaaa', 'aaaaa', '2026-01-01T00:00:01Z', { labels: { 'parity.kruiseless.io/marker': 'm' } }),
    pod('web-ccccc', 'ccccc', '2026-01-01T00:00:01Z', {
      deletionTimestamp: new Date('2026-01-01T00:00:09Z'),
    }),
  ];
  it('orders live pods by creation time, then name', () => {
    expect(selectPods(cloneSet, state(pods), { all: true }).map((p) => p.metadata?.name)).toEqual([
      'web-aaaaa',
      'web-bbbbb',
    ]);
    expect(selectPods(cloneSet, state(pods), { index: 1 }).map((p) => p.metadata?.name)).toEqual([
      'web-bbbbb',
    ]);
    expect(selectPods(cloneSet, state(pods), { marker: 'm', index: 0 }).map((p) => p.metadata?.name)).toEqual(
      ['web-aaaaa'],
    );
  });
  it('picks by the node a pod is bound to', () => {
    const onNode = (name: string, node: string): V1Pod => {
      const p = pod(name, name.slice(4), '2026-01-01T00:00:01Z');
      return { ...p, spec: { ...p.spec, containers: p.spec?.containers ?? [], nodeName: node } };
    };
    const bound = [onNode('web-aaaaa', 'kwok-node-2'), onNode('web-bbbbb', 'kwok-node-0')];
    expect(
      selectPods(cloneSet, state(bound), { node: 'kwok-node-0', index: 0 }).map((p) => p.metadata?.name),
    ).toEqual(['web-bbbbb']);
  });
  it('fails loudly when nothing matches', () => {
    expect(() => selectPods(cloneSet, state(pods), { state: 'PreparingDelete', all: true })).toThrow(
      'no pod matches {"state":"PreparingDelete","all":true} (of 2 live pods)',
    );
  });
  it('picks among the terminating pods with terminating: true', () => {
    expect(
      selectPods(cloneSet, state(pods), { terminating: true, all: true }).map((p) => p.metadata?.name),
    ).toEqual(['web-ccccc']);
    expect(() => selectPods(cloneSet, state(pods), { terminating: true, marker: 'm', index: 0 })).toThrow(
      'no pod matches {"terminating":true,"marker":"m","index":0} (of 1 terminating pods)',
    );
  });
});

describe('compareRuns', () => {
  const run = (replicas: number, error?: string): ScenarioRun => ({
    checkpoints: {
      created: takeSnapshot(
        cloneSet,
        { ...state([]), object: { metadata: { name: 'web' }, spec: {}, status: { replicas } } },
        new Set(),
        { maxPods: 0, minReady: 0 },
        true,
      ),
    },
    ...(error ? { error } : {}),
  });
  it('identical, deliberate or different, with the paths', () => {
    expect(compareRuns('s', run(2), run(2), []).result).toBe('identical');
    const different = compareRuns('s', run(2), run(3), []);
    expect(different).toEqual({
      scenario: 's',
      result: 'different',
      differences: [{ path: 'created.object.status.replicas', reference: 2, kruiseless: 3 }],
    });
    const deliberate = compareRuns('s', run(2), run(3), [
      { path: 'created.*.status', reason: 'a chosen difference' },
    ]);
    expect(deliberate.result).toBe('deliberate');
    expect(compareRuns('s', run(2), run(2, 'boom'), []).differences).toEqual([
      { path: 'error', reference: undefined, kruiseless: 'boom' },
    ]);
  });
  it('an error is deliberate only under an entry for `error` itself', () => {
    const refused = compareRuns('s', run(2, 'denied'), run(2), [
      { path: 'error', reason: 'a webhook we lack' },
    ]);
    expect(refused).toEqual({
      scenario: 's',
      result: 'deliberate',
      differences: [
        { path: 'error', reference: 'denied', kruiseless: undefined, deliberate: 'a webhook we lack' },
      ],
    });
    expect(compareRuns('s', run(2, 'denied'), run(2), [{ path: '*', reason: 'everything' }]).result).toBe(
      'different',
    );
  });
  it('the same failed step on both sides (the same refusal) is no difference; another one is', () => {
    const refusal = 'HTTP 422: admission webhook "vx.kb.io" denied the request: spec: Invalid value';
    expect(compareRuns('s', run(2, refusal), run(2, refusal), [])).toEqual({
      scenario: 's',
      result: 'identical',
      differences: [],
    });
    expect(compareRuns('s', run(2, refusal), run(2, `${refusal}!`), []).differences).toEqual([
      { path: 'error', reference: refusal, kruiseless: `${refusal}!` },
    ]);
  });
  it('matchesPath: `*` is one segment and a pattern covers what is below it', () => {
    expect(matchesPath('a.*.c', 'a.b.c.d')).toBe(true);
    expect(matchesPath('a.*.c', 'a.b.x')).toBe(false);
    expect(matchesPath('a.b.c', 'a.b')).toBe(false);
  });
  it('report and summary line', () => {
    const verdicts = [compareRuns('one', run(2), run(2), []), compareRuns('two', run(2), run(3), [])];
    expect(summaryLine(verdicts)).toBe('parity: 2 scenarios, 1 identical, 0 deliberate, 1 different');
    expect(summaryLine(verdicts, 'cloneset')).toBe(
      'parity cloneset: 2 scenarios, 1 identical, 0 deliberate, 1 different',
    );
    expect(renderReport(verdicts)).toEqual([
      'scenario  result',
      '--------  ----------',
      'one       identical',
      'two       different',
      '',
      'two: different',
      '  created.object.status.replicas: DIFFERENT',
      '    openkruise: 2',
      '    kruiseless: 3',
    ]);
  });
});

describe('PodUnavailableBudget: pods of any owner, pod names as status keys', () => {
  const bare = (name: string, created: string): V1Pod => {
    const p = pod(name, '', created);
    return { ...p, metadata: { ...p.metadata, ownerReferences: undefined, labels: { app: 'web' } } };
  };
  it('pod steps pick bare pods, which a CloneSet kind would not see', () => {
    const pods = [bare('web-1', '2026-01-01T00:00:02Z'), bare('web-0', '2026-01-01T00:00:01Z')];
    expect(selectPods(podUnavailableBudget, state(pods), { index: 0 }).map((p) => p.metadata?.name)).toEqual([
      'web-0',
    ]);
    expect(() => selectPods(cloneSet, state(pods), { index: 0 })).toThrow(
      'no pod matches {"index":0} (of 0 live pods)',
    );
  });
  it("normalises a CloneSet pod's name in status.disruptedPods' keys", () => {
    const withDisrupted = (podName: string): ClusterState => ({
      ...state([pod(podName, podName.slice(4), '2026-01-01T00:00:01Z')]),
      object: {
        metadata: { name: 'web', generation: 1 },
        spec: {},
        status: { disruptedPods: { [podName]: '2026-01-01T00:00:05Z' } },
      },
    });
    const peaks = { maxPods: 1, minReady: 1 };
    const a = takeSnapshot(podUnavailableBudget, withDisrupted('web-x7k2p'), new Set(), peaks, true);
    const b = takeSnapshot(podUnavailableBudget, withDisrupted('web-q9z4m'), new Set(), peaks, true);
    expect(a.object).toEqual({ spec: {}, status: { disruptedPods: { 'web-<id>': '<time>' } } });
    expect(b).toEqual(a);
  });
});

describe('beingRemoved', () => {
  const pod = (deletionTimestamp?: string, finalizers?: string[]): V1Pod => ({
    metadata: { name: 'p', deletionTimestamp: deletionTimestamp as unknown as Date, finalizers },
  });

  it('holds a checkpoint back while kwok has still to remove a terminating pod with no finalizer', () => {
    expect(beingRemoved(pod('2026-12-04T12:00:00Z'))).toBe(true);
    expect(beingRemoved(pod('2026-12-04T12:00:00Z', []))).toBe(true);
  });

  it('counts a pod held by a finalizer, and a live pod, as settled state', () => {
    expect(beingRemoved(pod('2026-12-04T12:00:00Z', ['parity.kruiseless.io/hold']))).toBe(false);
    expect(beingRemoved(pod())).toBe(false);
  });
});

describe('awaitingSchedulerRetry', () => {
  const unbound =
    '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';
  const pod = (message: string, nodeName?: string): V1Pod => ({
    metadata: { name: 'retain-1' },
    spec: {
      nodeName,
      containers: [],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-retain-1' } }],
    },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }],
    },
  });
  const claim = (phase: string): V1PersistentVolumeClaim => ({
    metadata: { name: 'data-retain-1' },
    status: { phase },
  });

  it('holds a checkpoint back while a pod refused for an unbound claim waits for a retry its claim now allows', () => {
    expect(awaitingSchedulerRetry(pod(unbound), [claim('Bound')])).toBe(true);
    expect(
      awaitingSchedulerRetry(pod('persistentvolumeclaim "data-retain-1" not found'), [claim('Bound')]),
    ).toBe(true);
  });

  it('counts as settled a claim that stays unbound, a refusal for another reason, and a placed pod', () => {
    expect(awaitingSchedulerRetry(pod(unbound), [claim('Pending')])).toBe(false);
    expect(awaitingSchedulerRetry(pod(unbound), [])).toBe(false);
    expect(
      awaitingSchedulerRetry(pod('0/3 nodes are available: 3 node(s) had untolerated taint {t: x}.'), [
        claim('Bound'),
      ]),
    ).toBe(false);
    expect(awaitingSchedulerRetry(pod(unbound, 'kwok-node-0'), [claim('Bound')])).toBe(false);
  });
});
