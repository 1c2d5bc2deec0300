/**
 * The Adaptive strategy against OpenKruise v1.9.0's `TestRescheduleSubset` (pkg/controller/workloadspread/
 * reschedule_test.go), its five cases as data with exact conditions (upstream compares the status only), then the
 * edges of `GetTimeBeforePendingTimeout`, `setWorkloadSpreadSubsetCondition` and the last-subset branch of
 * `calculateWorkloadSpreadSubsetStatuses`.
 */
import type { Pod } from '../../../../../lib/api/types.js';
import type {
  WorkloadSpread,
  WorkloadSpreadSubsetCondition,
  WorkloadSpreadSubsetStatus,
} from '../../../../../lib/controllers/workloadspread/api/types.js';
import {
  mergeCondition,
  pendingTimeout,
  planWorkloadSpread,
  rescheduleCriticalSeconds,
  type StatusEvent,
  type UnschedulablePods,
} from '../../../../../lib/controllers/workloadspread/plan/index.js';
import { pod, workloadSpread } from '../fixtures.js';

const NOW = Date.parse('2026-12-04T07:30:00Z');
const at = (offsetSeconds: number) =>
  new Date(NOW + offsetSeconds * 1000).toISOString().replace('.000Z', 'Z');

/** Upstream's wsDemo: subset-a (max 5), subset-b (no max), Adaptive with 5 critical seconds. */
function adaptive(
  conditions: [WorkloadSpreadSubsetCondition[]?, WorkloadSpreadSubsetCondition[]?],
): WorkloadSpread {
  const [a, b] = conditions;
  return workloadSpread({
    spec: {
      targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' },
      subsets: [{ name: 'subset-a', maxReplicas: 5 }, { name: 'subset-b' }],
      scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 5 } },
    },
    status: {
      subsetStatuses: [
        { name: 'subset-a', replicas: 0, missingReplicas: 5, ...(a ? { conditions: a } : {}) },
        { name: 'subset-b', replicas: 0, missingReplicas: -1, ...(b ? { conditions: b } : {}) },
      ],
    },
  });
}

/** Upstream's `NewWorkloadSpreadSubsetCondition("Schedulable", True, "", "")` written a minute before. */
const unknownTrue: WorkloadSpreadSubsetCondition = {
  type: 'Schedulable',
  status: 'True',
  reason: 'Unknown',
  message: '',
  lastTransitionTime: at(-60),
};

/** Upstream's `newScheduledFailedPod`: created a minute ago, Pending, unbound, PodScheduled=False Unschedulable. */
function scheduleFailed(name: string, createdSecondsAgo = 60): Pod {
  const p = pod(name, 'subset-a', { creationTimestamp: at(-createdSecondsAgo) });
  return {
    ...p,
    spec: { containers: p.spec.containers },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    },
  };
}

const sufficient = (lastTransitionTime: string): WorkloadSpreadSubsetCondition => ({
  type: 'Schedulable',
  status: 'True',
  reason: 'Sufficient',
  message: '',
  lastTransitionTime,
});

interface Case {
  name: string;
  ws: WorkloadSpread;
  pods: Pod[];
  subsetStatuses: WorkloadSpreadSubsetStatus[];
  unschedulable: string[];
  events: StatusEvent[];
  recheckAfterMs?: number;
}

const twoPods = [scheduleFailed('test-pod-0'), scheduleFailed('test-pod-1')];

const CASES: Case[] = [
  {
    name: 'close reschedule strategy, condition is null',
    ws: (() => {
      const ws = adaptive([]);
      ws.spec.scheduleStrategy = { type: 'Fixed', adaptive: { rescheduleCriticalSeconds: 5 } };
      return ws;
    })(),
    pods: [],
    subsetStatuses: [
      { name: 'subset-a', replicas: 0, missingReplicas: 5 },
      { name: 'subset-b', replicas: 0, missingReplicas: -1 },
    ],
    unschedulable: [],
    events: [],
  },
  {
    name: 'create no Pods, subset-a is schedulable',
    ws: adaptive([]),
    pods: [],
    subsetStatuses: [
      { name: 'subset-a', replicas: 0, missingReplicas: 5, conditions: [sufficient(at(0))] },
      { name: 'subset-b', replicas: 0, missingReplicas: -1, conditions: [sufficient(at(0))] },
    ],
    unschedulable: [],
    events: [],
  },
  {
    name: 'create two Pods, two pending, subset-a is unschedulable',
    ws: adaptive([[unknownTrue], [unknownTrue]]),
    pods: twoPods,
    subsetStatuses: [
      {
        name: 'subset-a',
        replicas: 2,
        missingReplicas: 3,
        conditions: [
          {
            type: 'Schedulable',
            status: 'False',
            reason: 'PodUnschedulable',
            message: '',
            lastTransitionTime: at(0),
          },
        ],
      },
      // the same status with another reason keeps the old transition time
      { name: 'subset-b', replicas: 0, missingReplicas: -1, conditions: [sufficient(at(-60))] },
    ],
    unschedulable: ['subset-a/test-pod-0', 'subset-a/test-pod-1'],
    events: [],
  },
  {
    name: 'subset-a was unschedulable and not reach up 5 minutes',
    ws: adaptive([[{ type: 'Schedulable', status: 'False', lastTransitionTime: at(-240) }], [unknownTrue]]),
    pods: [],
    subsetStatuses: [
      {
        name: 'subset-a',
        replicas: 0,
        missingReplicas: 5,
        conditions: [{ type: 'Schedulable', status: 'False', lastTransitionTime: at(-240) }],
      },
      { name: 'subset-b', replicas: 0, missingReplicas: -1, conditions: [sufficient(at(-60))] },
    ],
    unschedulable: [],
    events: [],
    recheckAfterMs: 60_000,
  },
  {
    name: 'subset-a was recovered from unschedulable to schedulable',
    ws: adaptive([[{ type: 'Schedulable', status: 'False', lastTransitionTime: at(-600) }], [unknownTrue]]),
    pods: [],
    subsetStatuses: [
      { name: 'subset-a', replicas: 0, missingReplicas: 5, conditions: [sufficient(at(0))] },
      { name: 'subset-b', replicas: 0, missingReplicas: -1, conditions: [sufficient(at(-60))] },
    ],
    unschedulable: [],
    events: [
      {
        type: 'Normal',
        reason: 'RecoverSchedulable',
        message: 'Subset subset-a of WorkloadSpread ns/ws-a is recovered from unschedulable to schedulable',
      },
    ],
  },
];

const names = (u: UnschedulablePods[]) =>
  u.flatMap((x) => x.pods.map((p) => `${x.subset}/${p.metadata.name}`));

describe('TestRescheduleSubset (upstream table)', () => {
  it.each(CASES)('$name', (c) => {
    const plan = planWorkloadSpread(
      c.ws,
      { pods: c.pods, replicas: 5, latestVersion: 'versionIgnored' },
      NOW,
    );
    expect(plan.status.subsetStatuses).toEqual(c.subsetStatuses);
    expect(names(plan.unschedulable)).toEqual(c.unschedulable);
    expect(plan.events).toEqual(c.events);
    expect(plan.recheckAfterMs).toBe(c.recheckAfterMs);
    expect(plan.changed).toBe(true);
  });

  it('the versioned statuses get their own conditions against their own old ones, but no pods to delete', () => {
    const plan = planWorkloadSpread(
      adaptive([[unknownTrue], [unknownTrue]]),
      { pods: twoPods, replicas: 5, latestVersion: 'versionIgnored' },
      NOW,
    );
    expect(plan.status.versionedSubsetStatuses).toEqual({
      versionIgnored: [
        {
          name: 'subset-a',
          replicas: 2,
          missingReplicas: 3,
          conditions: [
            {
              type: 'Schedulable',
              status: 'False',
              reason: 'PodUnschedulable',
              message: '',
              lastTransitionTime: at(0),
            },
          ],
        },
        { name: 'subset-b', replicas: 0, missingReplicas: -1, conditions: [sufficient(at(0))] },
      ],
    });
    expect(plan.unschedulable).toHaveLength(1);
  });
});

describe('the Adaptive strategy beyond upstream table', () => {
  it('a pod unschedulable for 3 of 5 critical seconds is kept, and the pass looks again in 2 s', () => {
    const plan = planWorkloadSpread(
      adaptive([]),
      { pods: [scheduleFailed('young', 3)], replicas: 5, latestVersion: 'versionIgnored' },
      NOW,
    );
    expect(plan.unschedulable).toEqual([]);
    expect(plan.status.subsetStatuses?.[0]?.conditions).toEqual([sufficient(at(0))]);
    expect(plan.recheckAfterMs).toBe(2_000);
  });

  it('a subset already unschedulable keeps its mark whole (time, message) while pods still fail', () => {
    const old: WorkloadSpreadSubsetCondition = {
      type: 'Schedulable',
      status: 'False',
      reason: 'PodUnschedulable',
      message: 'kept',
      lastTransitionTime: at(-30),
      observedGeneration: 3,
    };
    const plan = planWorkloadSpread(
      adaptive([[old], []]),
      { pods: [scheduleFailed('p')], replicas: 5, latestVersion: 'versionIgnored' },
      NOW,
    );
    expect(plan.status.subsetStatuses?.[0]?.conditions).toEqual([old]);
    expect(names(plan.unschedulable)).toEqual(['subset-a/p']);
  });

  it('the last subset is never rescheduled: its unschedulable pods stay and a False mark turns True at once', () => {
    const last = { ...scheduleFailed('b-pod'), metadata: { ...scheduleFailed('b-pod').metadata } };
    last.metadata.annotations = {
      'apps.kruise.io/matched-workloadspread': JSON.stringify({ name: 'ws-a', subset: 'subset-b' }),
    };
    const plan = planWorkloadSpread(
      adaptive([[], [{ type: 'Schedulable', status: 'False', lastTransitionTime: at(-10) }]]),
      { pods: [last], replicas: 5, latestVersion: 'versionIgnored' },
      NOW,
    );
    expect(plan.unschedulable).toEqual([]);
    expect(plan.status.subsetStatuses?.[1]?.conditions).toEqual([sufficient(at(0))]);
    expect(plan.events).toEqual([]);
  });

  it('the Fixed strategy drops every old condition', () => {
    const ws = adaptive([[unknownTrue], [unknownTrue]]);
    ws.spec.scheduleStrategy = { type: 'Fixed' };
    const plan = planWorkloadSpread(ws, { pods: twoPods, replicas: 5, latestVersion: 'versionIgnored' }, NOW);
    expect(plan.status.subsetStatuses?.map((s) => s.conditions)).toEqual([undefined, undefined]);
    expect(plan.unschedulable).toEqual([]);
  });

  it('rescheduleCriticalSeconds counts only under type Adaptive, 0 when absent', () => {
    const ws = adaptive([]);
    expect(rescheduleCriticalSeconds(ws)).toBe(5);
    ws.spec.scheduleStrategy = { type: 'Adaptive' };
    expect(rescheduleCriticalSeconds(ws)).toBe(0);
    ws.spec.scheduleStrategy = { adaptive: { rescheduleCriticalSeconds: 5 } };
    expect(rescheduleCriticalSeconds(ws)).toBe(0);
  });
});

describe('pendingTimeout (GetTimeBeforePendingTimeout)', () => {
  const failed = scheduleFailed('p', 10);
  it.each<[string, Pod, ReturnType<typeof pendingTimeout>]>([
    ['unschedulable for 10 s of 5: timed out', failed, { timedOut: true }],
    ['unschedulable for 10 s of 15: 5 s to go', failed, { timedOut: false, recheckAfterMs: 5_000 }],
    [
      'bound to a node: not counted',
      { ...failed, spec: { ...failed.spec, nodeName: 'n' } },
      { timedOut: false },
    ],
    [
      'Running: not counted',
      { ...failed, status: { ...failed.status, phase: 'Running' } },
      { timedOut: false },
    ],
    [
      'being deleted: not counted',
      { ...failed, metadata: { ...failed.metadata, deletionTimestamp: at(0) } },
      { timedOut: false },
    ],
    [
      'PodScheduled=False for another reason: not counted',
      {
        ...failed,
        status: {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulerError' }],
        },
      },
      { timedOut: false },
    ],
    ['right at the critical time: neither timed out nor rechecked', failed, { timedOut: false }],
  ])('%s', (name, p, expected) => {
    const critical = name.includes('of 15') ? 15_000 : name.startsWith('right at') ? 10_000 : 5_000;
    expect(pendingTimeout(p, critical, NOW)).toEqual(expected);
  });
});

describe('mergeCondition (setWorkloadSpreadSubsetCondition)', () => {
  const current: WorkloadSpreadSubsetCondition = {
    type: 'Schedulable',
    status: 'False',
    reason: 'PodUnschedulable',
    message: 'old',
    lastTransitionTime: at(-100),
  };
  it('the same status and reason keep the current condition whole', () => {
    expect(mergeCondition(current, { ...current, message: '', lastTransitionTime: at(0) })).toBe(current);
  });
  it('the same status with another reason keeps only the transition time', () => {
    expect(
      mergeCondition(current, { ...current, reason: 'Other', message: '', lastTransitionTime: at(0) }),
    ).toEqual({
      ...current,
      reason: 'Other',
      message: '',
    });
  });
  it('another status takes the new condition', () => {
    const next = sufficient(at(0));
    expect(mergeCondition(current, next)).toBe(next);
  });
});
