import {
  CONDITION_INPLACE_UPDATE_READY,
  LABEL_CONTROLLER_REVISION_HASH,
  LABEL_LIFECYCLE_STATE,
} from '../../../../../lib/api/keys.js';
import type {
  CloneSet,
  CloneSetCondition,
  CloneSetStatus,
  Pod,
  PodCondition,
} from '../../../../../lib/api/types.js';
import {
  calculateStatus,
  progressRequeueSeconds,
  setCondition,
  statusNeedsWrite,
  type StatusInput,
} from '../../../../../lib/controllers/cloneset/plan/status.js';
import type { StrategyNumbers } from '../../../../../lib/controllers/cloneset/plan/types.js';
import { metaTime } from '../../../../../lib/api/time.js';

const T0 = new Date('2024-05-01T08:00:00Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const iso = (s: number) => metaTime(at(s));

interface PodOpts {
  ready?: boolean;
  state?: string;
  iur?: 'True' | 'False';
  readySince?: number;
  phase?: string;
}

let seq = 0;
function pod(rev: string, o: PodOpts = {}): Pod {
  const conditions: PodCondition[] = [];
  if (o.ready !== false)
    conditions.push({ type: 'Ready', status: 'True', lastTransitionTime: iso(o.readySince ?? -3600) });
  else conditions.push({ type: 'Ready', status: 'False' });
  if (o.iur) conditions.push({ type: CONDITION_INPLACE_UPDATE_READY, status: o.iur });
  const labels: Record<string, string> = { app: 'demo', [LABEL_CONTROLLER_REVISION_HASH]: rev };
  if (o.state !== undefined) labels[LABEL_LIFECYCLE_STATE] = o.state;
  return {
    metadata: { name: `p${seq++}`, labels },
    spec: { containers: [{ name: 'c' }] },
    status: { phase: o.phase ?? 'Running', conditions },
  };
}
const many = (n: number, rev: string, o: PodOpts = {}) => Array.from({ length: n }, () => pod(rev, o));

function strategy(replicas: number, partition = 0): StrategyNumbers {
  return {
    replicas,
    partition,
    maxSurge: 0,
    maxUnavailable: 1,
    scaleMaxUnavailable: 2147483647,
    minReadySeconds: 0,
    rollingUpdate: true,
    paused: false,
    updateType: 'ReCreate',
    excludePreparingDelete: false,
    expectedUpdatedReplicas: replicas - partition,
  };
}

function cloneSet(
  replicas: number,
  extra: Partial<CloneSet['spec']> = {},
  status?: Partial<CloneSetStatus>,
): CloneSet {
  return {
    metadata: { name: 'cs', namespace: 'ns', generation: 3 },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'demo' } },
      template: { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'c' }] } },
      progressDeadlineSeconds: 10,
      updateStrategy: { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 },
      ...extra,
    },
    status: status && {
      replicas: 0,
      readyReplicas: 0,
      availableReplicas: 0,
      updatedReplicas: 0,
      updatedReadyReplicas: 0,
      ...status,
    },
  };
}

function input(cs: CloneSet, pods: Pod[], over: Partial<StatusInput> = {}): StatusInput {
  return {
    cloneSet: cs,
    pods,
    strategy: strategy(cs.spec.replicas ?? 1),
    updateRevision: '2',
    currentRevision: '1',
    collisionCount: 0,
    now: T0,
    ...over,
  };
}

const progressingOf = (s: CloneSetStatus) => s.conditions?.find((c) => c.type === 'Progressing');
const cond = (
  reason: string,
  status: 'True' | 'False',
  updated: number,
  transition = updated,
): CloneSetCondition => ({
  type: 'Progressing',
  status,
  reason,
  message: 'm',
  lastUpdateTime: iso(updated),
  lastTransitionTime: iso(transition),
});

/** 5 pods giving (replicas 5, ready 4, available 3, updated 2, updatedReady 1, updatedAvailable 1). */
function mixedPods(): Pod[] {
  return [pod('2'), pod('2', { ready: false }), pod('1'), pod('1'), pod('1', { state: 'PreparingDelete' })];
}

describe('Progressing condition — scenario 54 (TestSyncProgressingStatus)', () => {
  test.each([
    ['(a) progressDeadlineSeconds absent', undefined],
    ['(b) progressDeadlineSeconds MaxInt32', 2147483647],
  ])('%s removes the Progressing condition', (_n, pds) => {
    const cs = cloneSet(
      10,
      { progressDeadlineSeconds: pds },
      { conditions: [cond('CloneSetAvailable', 'True', -5)] },
    );
    const out = calculateStatus(input(cs, mixedPods()));
    expect(out.status.conditions).toBeUndefined();
    expect(out.requeueAfterSeconds).toBeUndefined();
  });

  test('(c) no prior condition, rollout 1→2 in progress → True/CloneSetUpdated and requeue after 11 s', () => {
    const out = calculateStatus(input(cloneSet(10), mixedPods(), { strategy: strategy(10, 8) }));
    expect(out.status).toMatchObject({
      replicas: 5,
      readyReplicas: 4,
      availableReplicas: 3,
      updatedReplicas: 2,
      updatedReadyReplicas: 1,
      updatedAvailableReplicas: 1,
      expectedUpdatedReplicas: 2,
    });
    expect(out.status.conditions).toEqual([
      {
        type: 'Progressing',
        status: 'True',
        reason: 'CloneSetUpdated',
        message: 'CloneSet is progressing',
        lastUpdateTime: '2024-05-01T08:00:00Z',
        lastTransitionTime: '2024-05-01T08:00:00Z',
      },
    ]);
    expect(out.requeueAfterSeconds).toBe(11);
  });

  test('(d) the same while paused → True/CloneSetPaused, no requeue', () => {
    const cs = cloneSet(10, { updateStrategy: { type: 'ReCreate', paused: true } });
    const out = calculateStatus(input(cs, mixedPods(), { strategy: strategy(10, 8) }));
    expect(progressingOf(out.status)).toMatchObject({
      status: 'True',
      reason: 'CloneSetPaused',
      message: 'CloneSet is paused',
    });
    expect(out.requeueAfterSeconds).toBeUndefined();
  });

  test('(e) all 10 updated and available with current = update → True/CloneSetAvailable', () => {
    const out = calculateStatus(input(cloneSet(10), many(10, '2'), { currentRevision: '2' }));
    expect(progressingOf(out.status)).toMatchObject({
      status: 'True',
      reason: 'CloneSetAvailable',
      message: 'CloneSet is available',
    });
  });

  test('(f) partition "90%" of 10 with 1 updated available pod → True/ProgressPartitionAvailable', () => {
    const cs = cloneSet(10, { updateStrategy: { type: 'ReCreate', partition: '90%' } });
    const out = calculateStatus(input(cs, [pod('2'), ...many(9, '1')], { strategy: strategy(10, 9) }));
    expect(out.status.expectedUpdatedReplicas).toBe(1);
    expect(progressingOf(out.status)).toMatchObject({
      status: 'True',
      reason: 'ProgressPartitionAvailable',
      message: 'CloneSet has been paused due to partition ready',
    });
  });

  test('(g) prior CloneSetUpdated older than the deadline → False/ProgressDeadlineExceeded naming the update revision', () => {
    const cs = cloneSet(10, {}, { conditions: [cond('CloneSetUpdated', 'True', -60)] });
    const out = calculateStatus(input(cs, mixedPods(), { strategy: strategy(10, 8) }));
    expect(out.status.conditions).toEqual([
      {
        type: 'Progressing',
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        message: 'CloneSet revision 2 has timed out progressing',
        lastUpdateTime: iso(0),
        lastTransitionTime: iso(0),
      },
    ]);
    expect(out.requeueAfterSeconds).toBeUndefined();
  });

  test('(h) prior CloneSetUpdated at t=1 s, clock at t=8 s → unchanged (times kept), requeue after 4 s', () => {
    const prior = cond('CloneSetUpdated', 'True', 1);
    const cs = cloneSet(10, {}, { conditions: [prior] });
    const out = calculateStatus(input(cs, mixedPods(), { now: at(8), strategy: strategy(10, 8) }));
    expect(out.status.conditions).toEqual([prior]);
    expect(out.requeueAfterSeconds).toBe(4);
  });

  test.each([
    ['lastUpdate now−5 s, pds 10 → 6 s', -5, 10, 6],
    ['lastUpdate now−5 s, pds 4 → no requeue', -5, 4, undefined],
    ['lastUpdate now−4 s, pds 4 → no requeue (0)', -4, 4, undefined],
    ['lastUpdate now−3.5 s, pds 4 → 0.5 s', -3.5, 4, 0.5],
    ['no condition → no requeue', undefined, 4, undefined],
  ])('(i) requeue: %s', (_n, since, pds, want) => {
    const last = since === undefined ? undefined : new Date(T0.getTime() + since * 1000).toISOString();
    expect(progressRequeueSeconds(last, pds, T0)).toBe(want);
  });
});

describe('Progressing deadline: stickiness and the Kruiseless fix of rule 4', () => {
  test('ProgressDeadlineExceeded sticks through a new rollout until the CloneSet is available', () => {
    const prior = cond('ProgressDeadlineExceeded', 'False', -100);
    const cs = cloneSet(10, {}, { conditions: [prior] });
    const stuck = calculateStatus(input(cs, mixedPods(), { updateRevision: '3', strategy: strategy(10, 8) }));
    expect(stuck.status.conditions).toEqual([prior]);
    const done = calculateStatus(input(cs, many(10, '3'), { updateRevision: '3', currentRevision: '3' }));
    expect(progressingOf(done.status)).toMatchObject({
      status: 'True',
      reason: 'CloneSetAvailable',
      lastUpdateTime: iso(0),
      lastTransitionTime: iso(0),
    });
  });

  test.each(['CloneSetAvailable', 'CloneSetPaused', 'ProgressPartitionAvailable'])(
    'a CloneSet settled as %s long ago starts a fresh deadline when its next rollout begins (upstream would exceed at once)',
    (reason) => {
      const cs = cloneSet(10, {}, { conditions: [cond(reason, 'True', -3600, -7200)] });
      const out = calculateStatus(input(cs, mixedPods(), { strategy: strategy(10, 8) }));
      expect(out.status.conditions).toEqual([
        {
          type: 'Progressing',
          status: 'True',
          reason: 'CloneSetUpdated',
          message: 'CloneSet is progressing',
          lastUpdateTime: iso(0),
          lastTransitionTime: iso(-7200),
        },
      ]);
      expect(out.requeueAfterSeconds).toBe(11);
    },
  );
});

describe('status counters (docs/behaviour/cloneset.md#status-fields)', () => {
  test.each<[string, Pod, [number, number, number, number]]>([
    ['running, ready, Normal', pod('2', { state: 'Normal' }), [1, 1, 1, 1]],
    ['no lifecycle label counts like Normal', pod('2'), [1, 1, 1, 1]],
    ['PreparingNormal is ready but not available', pod('2', { state: 'PreparingNormal' }), [1, 0, 1, 0]],
    ['PreparingUpdate is ready but not available', pod('2', { state: 'PreparingUpdate' }), [1, 0, 1, 0]],
    ['Updating is ready but not available', pod('2', { state: 'Updating' }), [1, 0, 1, 0]],
    ['Updated is ready but not available', pod('2', { state: 'Updated' }), [1, 0, 1, 0]],
    [
      'PreparingDelete is counted in replicas and ready',
      pod('2', { state: 'PreparingDelete' }),
      [1, 0, 1, 0],
    ],
    ['InPlaceUpdateReady=False is neither ready nor available', pod('2', { iur: 'False' }), [0, 0, 0, 0]],
    ['InPlaceUpdateReady=True is ready and available', pod('2', { iur: 'True' }), [1, 1, 1, 1]],
    ['not Ready', pod('2', { ready: false }), [0, 0, 0, 0]],
    ['Pending with Ready=True is not ready', pod('2', { phase: 'Pending' }), [0, 0, 0, 0]],
    [
      'ready 5 s ago with minReadySeconds 10 is ready, not available',
      pod('2', { readySince: -5 }),
      [1, 0, 1, 0],
    ],
    ['old revision pod counts in ready/available only', pod('1'), [1, 1, 0, 0]],
  ])('%s', (_n, p, [ready, available, updatedReady, updatedAvailable]) => {
    const cs = cloneSet(1, { minReadySeconds: 10, progressDeadlineSeconds: 20 });
    const s = calculateStatus(input(cs, [p])).status;
    expect([
      s.readyReplicas,
      s.availableReplicas,
      s.updatedReadyReplicas,
      s.updatedAvailableReplicas ?? 0,
    ]).toEqual([ready, available, updatedReady, updatedAvailable]);
    expect(s.replicas).toBe(1);
  });

  test('status carries generation, revisions, collision count and the canonical selector', () => {
    const cs = cloneSet(2, {
      selector: {
        matchLabels: { app: 'demo' },
        matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['b', 'a'] }],
      },
    });
    const s = calculateStatus(input(cs, [], { collisionCount: 2 })).status;
    expect(s).toMatchObject({
      observedGeneration: 3,
      updateRevision: '2',
      currentRevision: '1',
      collisionCount: 2,
      labelSelector: 'app=demo,tier notin (a,b)',
      expectedUpdatedReplicas: 2,
    });
  });
});

describe('currentRevision promotion — C05', () => {
  test('replicas 2, only one pod and it is updated → currentRevision stays r1', () => {
    const s = calculateStatus(input(cloneSet(2), [pod('2')])).status;
    expect(s.currentRevision).toBe('1');
  });

  test('replicas 2, two updated pods that are not ready → promoted to the update revision', () => {
    const s = calculateStatus(input(cloneSet(2), many(2, '2', { ready: false }))).status;
    expect(s.currentRevision).toBe('2');
  });

  test('replicas 2, three updated pods (surge) → not promoted', () => {
    expect(calculateStatus(input(cloneSet(2), many(3, '2'))).status.currentRevision).toBe('1');
  });

  test('a pod on a short-hash label matches the full update revision name', () => {
    const s = calculateStatus(
      input(cloneSet(1), [pod('abc')], { updateRevision: 'cs-abc', currentRevision: 'cs-old' }),
    ).status;
    expect(s.currentRevision).toBe('cs-abc');
  });
});

describe('FailedScale / FailedUpdate (docs/behaviour/cloneset.md#status)', () => {
  test('a scale error sets FailedScale True with the message; an update error adds FailedUpdate', () => {
    const first = calculateStatus(
      input(cloneSet(1, { progressDeadlineSeconds: undefined }), [], { scaleError: 'boom' }),
    ).status;
    expect(first.conditions).toEqual([
      { type: 'FailedScale', status: 'True', lastTransitionTime: iso(0), message: 'boom' },
    ]);
    const again = calculateStatus(
      input(cloneSet(1, { progressDeadlineSeconds: undefined }, { conditions: first.conditions }), [], {
        now: at(5),
        updateError: 'bad',
      }),
    ).status;
    expect(again.conditions).toEqual([
      { type: 'FailedScale', status: 'True', lastTransitionTime: iso(0), message: 'boom' },
      { type: 'FailedUpdate', status: 'True', lastTransitionTime: iso(5), message: 'bad' },
    ]);
  });

  test('a failure condition stays while its phase did not run (Kruiseless deviation, docs/behaviour/cloneset.md#failed-conditions)', () => {
    const failed: CloneSetCondition = { type: 'FailedUpdate', status: 'True', message: 'x' };
    const s = calculateStatus(
      input(cloneSet(1, { progressDeadlineSeconds: undefined }, { conditions: [failed] }), [], {
        scaleRan: true,
      }),
    ).status;
    expect(s.conditions).toEqual([failed]);
  });

  test('a failure condition is removed once its phase succeeds, and the removal is written', () => {
    const failed: CloneSetCondition = { type: 'FailedUpdate', status: 'True', message: 'x' };
    const other: CloneSetCondition = { type: 'FailedScale', status: 'True', message: 'y' };
    const cs = cloneSet(1, { progressDeadlineSeconds: undefined }, { conditions: [other, failed] });
    const r = calculateStatus(input(cs, [], { updateRan: true }));
    expect(r.status.conditions).toEqual([other]);
    expect(statusNeedsWrite({ ...r.status, conditions: [other, failed] }, r.status)).toBe(true);
  });

  test('a new error text replaces the message and keeps lastTransitionTime', () => {
    const failed: CloneSetCondition = {
      type: 'FailedUpdate',
      status: 'True',
      lastTransitionTime: iso(0),
      message: 'old',
    };
    const s = calculateStatus(
      input(cloneSet(1, { progressDeadlineSeconds: undefined }, { conditions: [failed] }), [], {
        now: at(7),
        updateError: 'new',
        updateRan: true,
      }),
    ).status;
    expect(s.conditions).toEqual([{ ...failed, message: 'new' }]);
  });
});

describe('write condition (docs/behaviour/cloneset.md#status)', () => {
  const settled = (): CloneSet => {
    const cs = cloneSet(2, {}, {});
    cs.status = calculateStatus(input(cs, many(2, '2'), { currentRevision: '2' })).status;
    return cs;
  };

  test('an unchanged status is not written', () => {
    const cs = settled();
    expect(
      calculateStatus(input(cs, many(2, '2'), { currentRevision: '2', now: at(100) })).statusChanged,
    ).toBe(false);
  });

  test('no stored status → written', () => {
    expect(calculateStatus(input(cloneSet(2), many(2, '2'))).statusChanged).toBe(true);
  });

  test.each<[string, Partial<CloneSetStatus>]>([
    ['a newer observedGeneration', { observedGeneration: 4 }],
    ['replicas', { replicas: 3 }],
    ['readyReplicas', { readyReplicas: 1 }],
    ['availableReplicas', { availableReplicas: 1 }],
    ['updatedReplicas', { updatedReplicas: 1 }],
    ['updatedReadyReplicas', { updatedReadyReplicas: 1 }],
    ['updatedAvailableReplicas', { updatedAvailableReplicas: 1 }],
    ['expectedUpdatedReplicas', { expectedUpdatedReplicas: 1 }],
    ['updateRevision', { updateRevision: 'x' }],
    ['currentRevision', { currentRevision: 'x' }],
    ['labelSelector', { labelSelector: 'x' }],
    ['Progressing reason', { conditions: [cond('CloneSetUpdated', 'True', 0)] }],
    ['Progressing status', { conditions: [cond('CloneSetAvailable', 'False', 0)] }],
    ['Progressing presence', { conditions: [] }],
    [
      'a FailedScale condition (Kruiseless writes failure conditions)',
      { conditions: [...(settled().status!.conditions ?? []), { type: 'FailedScale', status: 'True' }] },
    ],
  ])('a change of %s is written', (_n, change) => {
    const old = settled().status!;
    const next = { ...old, ...change };
    expect(statusNeedsWrite(old, next)).toBe(true);
  });

  test.each<[string, Partial<CloneSetStatus>]>([
    ['an older observedGeneration', { observedGeneration: 1 }],
    ['collisionCount alone', { collisionCount: 5 }],
    [
      'Progressing times or message alone',
      { conditions: [{ ...settled().status!.conditions![0], message: 'other', lastUpdateTime: iso(9) }] },
    ],
  ])('%s is not written', (_n, change) => {
    const old = settled().status!;
    expect(statusNeedsWrite(old, { ...old, ...change })).toBe(false);
  });
});

describe('setCondition and metaTime', () => {
  test('same status, new reason keeps lastTransitionTime and moves the condition last', () => {
    const other: CloneSetCondition = { type: 'FailedScale', status: 'True' };
    const out = setCondition(
      [cond('CloneSetAvailable', 'True', 1, 0), other],
      cond('CloneSetUpdated', 'True', 5),
    );
    expect(out).toEqual([other, { ...cond('CloneSetUpdated', 'True', 5), lastTransitionTime: iso(0) }]);
  });

  test('metaTime drops sub-second precision', () => {
    expect(metaTime(new Date('2024-05-01T08:00:00.987Z'))).toBe('2024-05-01T08:00:00Z');
  });
});

describe('omitempty counters (OpenKruise CloneSetStatus json tags)', () => {
  it('writes no updatedAvailableReplicas when it is 0', () => {
    const cs = cloneSet(1, { minReadySeconds: 10, progressDeadlineSeconds: 20 });
    const s = calculateStatus(input(cs, [pod('1')])).status;
    expect(Object.keys(s)).not.toContain('updatedAvailableReplicas');
    expect(s.updatedReplicas).toBe(0);
  });
});
