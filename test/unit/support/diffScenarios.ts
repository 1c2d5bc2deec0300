/**
 * The diff scenarios 1–26 of docs/behaviour/scenarios.md (OpenKruise's
 * `TestCalculateDiffsWithExpectation`, 80 steps) as data: CloneSet arguments `CS(R, partition,
 * maxUnavailable, maxSurge)` plus modifiers, pods `P(rev, state, ready, sd)` in list order, the expected diff
 * record (zero fields omitted), and what the scale phase then does (`then`). Pods are named `pod-<index>`
 * (instance id `id<index>`) by {@link scenarioContext}.
 */
import { LifecycleState, type LifecycleStateValue } from '../../../lib/api/keys.js';
import type { CloneSet, IntOrString } from '../../../lib/api/types.js';
import type { DiffRecord, PhaseContext } from '../../../lib/controllers/cloneset/plan/types.js';
import { cloneSet, named, NEW_REV, OLD_REV, pod, phaseContext } from './fixtures.js';

/** What the scale phase does in a scenario step. */
export interface ScaleThen {
  /** Pods created, in order: at the current (`cur`) or update (`upd`) revision. */
  create?: ('cur' | 'upd')[];
  /** Indexes of pods deleted, in order. */
  delete?: number[];
  /** Indexes of pods moved to `PreparingDelete` (hooked by preDelete). */
  preDelete?: number[];
  /** `ScaleUpLimited` event with this limit. */
  limited?: number;
}

/** One scenario step. */
export interface DiffScenario {
  name: string;
  cs: [number, IntOrString, IntOrString, IntOrString];
  pods: ['new' | 'old', string, boolean, boolean][];
  diff: Partial<DiffRecord>;
  then: ScaleThen;
  /** scaleStrategy.maxUnavailable. */
  scaleMaxUnavailable?: number;
  excludePreparingDelete?: boolean;
  paused?: boolean;
  /** Current revision = update revision = new_rev. */
  consistent?: boolean;
  /** `CloneSetPartitionRollback` off. */
  noRollback?: boolean;
  /** Upstream passes the PreparingUpdate-aware predicate explicitly (the scale predicate is used everywhere here). */
  preparingUpdateAsUpdate?: boolean;
  /** lifecycle.preDelete hooks specified-delete and PreparingDelete pods (label `hook: "true"`). */
  hooked?: boolean;
}

/** The hook used by the `hooked` scenarios (scenarios 21–24, docs/behaviour/scenarios.md). */
export const PRE_DELETE_HOOK = { labelsHandler: { hook: 'true' } };

/** The CloneSet of a scenario step. */
export function scenarioCloneSet(s: DiffScenario): CloneSet {
  const cs = cloneSet(...s.cs);
  if (s.scaleMaxUnavailable !== undefined) cs.spec.scaleStrategy = { maxUnavailable: s.scaleMaxUnavailable };
  if (s.excludePreparingDelete) {
    cs.metadata.labels = { 'apps.kruise.io/cloneset-scaling-exclude-preparing-delete': 'true' };
  }
  if (s.paused) cs.spec.updateStrategy = { ...cs.spec.updateStrategy, paused: true };
  if (s.hooked) cs.spec.lifecycle = { preDelete: PRE_DELETE_HOOK };
  return cs;
}

/** The phase context of a scenario step (gates of docs/behaviour/scenarios.md#scenarios: both on unless `noRollback`). */
export function scenarioContext(s: DiffScenario): PhaseContext {
  const pods = named(
    s.pods.map(([rev, state, ready, sd]) => {
      const hooked = s.hooked && (sd || state === LifecycleState.PreparingDelete);
      return pod(rev === 'new' ? NEW_REV : OLD_REV, state as LifecycleStateValue, ready, sd, {
        labels: hooked ? { hook: 'true' } : {},
      });
    }),
  );
  return phaseContext(scenarioCloneSet(s), pods, {
    current: s.consistent ? NEW_REV : OLD_REV,
    options: { cloneSetPartitionRollback: !s.noRollback, preparingUpdateAsUpdate: true },
  });
}

/** All 80 steps, in upstream order. */
export const DIFF_SCENARIOS: DiffScenario[] = [
  { name: 'an empty cloneset', cs: [0, 0, 1, 0], pods: [], diff: {}, then: {} },
  {
    name: 'increase replicas to 5 (step 1/2)',
    cs: [5, 0, 1, 0],
    pods: [],
    diff: { scaleUpNum: 5, scaleUpLimit: 5 },
    then: { create: ['upd', 'upd', 'upd', 'upd', 'upd'] },
  },
  {
    name: 'increase replicas to 5 (step 2/2)',
    cs: [5, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'specified delete 1 pod (all ready) (step 1/3)',
    cs: [5, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, true],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: { deleteReadyLimit: 1 },
    then: { delete: [0] },
  },
  {
    name: 'specified delete 1 pod (all ready) (step 2/3)',
    cs: [5, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, scaleUpLimit: 1 },
    then: { create: ['upd'] },
  },
  {
    name: 'specified delete 1 pod (all ready) (step 3/3)',
    cs: [5, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'specified delete 2 pod (all ready) (step 1/6)',
    cs: [5, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, true],
      ['new', 'Normal', true, true],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: { deleteReadyLimit: 1 },
    then: { delete: [0] },
  },
  {
    name: 'specified delete 2 pod (all ready) (step 2/6)',
    cs: [5, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, true],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, scaleUpLimit: 1 },
    then: { create: ['upd'] },
  },
  {
    name: 'specified delete 2 pod (all ready) (step 3/6)',
    cs: [5, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, true],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'specified delete 2 pod (all ready) (step 4/6)',
    cs: [5, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, true],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: { deleteReadyLimit: 1 },
    then: { delete: [0] },
  },
  {
    name: 'specified delete 2 pod (all ready) (step 5/6)',
    cs: [5, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, scaleUpLimit: 1 },
    then: { create: ['upd'] },
  },
  {
    name: 'specified delete 2 pod (all ready) (step 6/6)',
    cs: [5, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'specified delete 2 pod and replicas to 4 (step 1/3)',
    cs: [4, 0, 1, 0],
    pods: [
      ['new', 'Normal', false, true],
      ['new', 'Normal', false, true],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: { deleteReadyLimit: 2 },
    then: { delete: [0, 1] },
  },
  {
    name: 'specified delete 2 pod and replicas to 4 (step 2/3)',
    cs: [4, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, scaleUpLimit: 1 },
    then: { create: ['upd'] },
  },
  {
    name: 'specified delete 2 pod and replicas to 4 (step 3/3)',
    cs: [4, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'update partition=3 (step 1/3)',
    cs: [5, 3, 1, 0],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: { updateNum: 2, updateMaxUnavailable: 1 },
    then: {},
  },
  {
    name: 'update partition=3 (step 2/3)',
    cs: [5, 3, 1, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: { updateNum: 1, updateMaxUnavailable: 1 },
    then: {},
  },
  {
    name: 'update partition=3 (step 3/3)',
    cs: [5, 3, 1, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'rollback partition=4 (step 1/3)',
    cs: [5, 4, 2, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: { updateNum: -3, updateMaxUnavailable: 2 },
    then: {},
  },
  {
    name: 'rollback partition=4 (step 2/3)',
    cs: [5, 4, 2, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: { updateNum: -1, updateMaxUnavailable: 2 },
    then: {},
  },
  {
    name: 'rollback partition=4 (step 3/3)',
    cs: [5, 4, 2, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'specified delete with maxSurge (step 1/4)',
    cs: [5, 0, 0, 1],
    pods: [
      ['new', 'Normal', true, true],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, useSurge: 1, scaleUpLimit: 1 },
    then: { create: ['upd'] },
  },
  {
    name: 'specified delete with maxSurge (step 2/4)',
    cs: [5, 0, 0, 1],
    pods: [
      ['new', 'Normal', true, true],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: { useSurge: 1 },
    then: {},
  },
  {
    name: 'specified delete with maxSurge (step 3/4)',
    cs: [5, 0, 0, 1],
    pods: [
      ['new', 'Normal', true, true],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: { deleteReadyLimit: 1, useSurge: 1 },
    then: { delete: [0] },
  },
  {
    name: 'specified delete with maxSurge (step 4/4)',
    cs: [5, 0, 0, 1],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'update in-place partition=3 with maxSurge (step 1/4)',
    cs: [5, 3, 1, 1],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, useSurge: 1, updateNum: 2, updateMaxUnavailable: 1, scaleUpLimit: 1 },
    then: { create: ['upd'] },
  },
  {
    name: 'update in-place partition=3 with maxSurge (step 2/4)',
    cs: [5, 3, 1, 1],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: { useSurge: 1, updateNum: 1, updateMaxUnavailable: 2 },
    then: {},
  },
  {
    name: 'update in-place partition=3 with maxSurge (step 3/4)',
    cs: [5, 3, 1, 1],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Updating', false, false],
      ['new', 'Normal', false, false],
    ],
    diff: { scaleDownNum: 1, scaleDownNumOldRevision: 1, deleteReadyLimit: 0 },
    then: {},
  },
  {
    name: 'update in-place partition=3 with maxSurge (step 4/4)',
    cs: [5, 3, 1, 1],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: { scaleDownNum: 1, scaleDownNumOldRevision: 1, deleteReadyLimit: 1 },
    then: { delete: [0] },
  },
  {
    name: 'update recreate partition=3 with maxSurge (step 1/7)',
    cs: [5, 3, 1, 1],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, useSurge: 1, updateNum: 2, updateMaxUnavailable: 1, scaleUpLimit: 1 },
    then: { create: ['upd'] },
  },
  {
    name: 'update recreate partition=3 with maxSurge (step 2/7)',
    cs: [5, 3, 1, 1],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: { useSurge: 1, updateNum: 1, updateMaxUnavailable: 2 },
    then: {},
  },
  {
    name: 'update recreate partition=3 with maxSurge (step 3/7)',
    cs: [5, 3, 1, 1],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, true],
      ['new', 'Normal', false, false],
    ],
    diff: { useSurge: 1, useSurgeOldRevision: 1, deleteReadyLimit: 1, updateNum: 1, updateMaxUnavailable: 2 },
    then: { delete: [4] },
  },
  {
    name: 'update recreate partition=3 with maxSurge (step 4/7)',
    cs: [5, 3, 1, 1],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: { useSurge: 1, scaleUpNum: 1, updateNum: 1, updateMaxUnavailable: 1, scaleUpLimit: 1 },
    then: { create: ['upd'] },
  },
  {
    name: 'update recreate partition=3 with maxSurge (step 5/7)',
    cs: [5, 3, 1, 1],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', false, false],
      ['new', 'Normal', false, false],
    ],
    diff: { scaleDownNum: 1, scaleDownNumOldRevision: 1, deleteReadyLimit: 0 },
    then: {},
  },
  {
    name: 'update recreate partition=3 with maxSurge (step 6/7)',
    cs: [5, 3, 1, 1],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: { scaleDownNum: 1, scaleDownNumOldRevision: 1, deleteReadyLimit: 1 },
    then: { delete: [0] },
  },
  {
    name: 'update recreate partition=3 with maxSurge (step 7/7)',
    cs: [5, 3, 1, 1],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'update recreate partition=99% with maxUnavailable=3, maxSurge=2 (step 1/3)',
    cs: [5, '99%', 3, 2],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, useSurge: 1, updateNum: 1, updateMaxUnavailable: 3, scaleUpLimit: 1 },
    then: { create: ['upd'] },
  },
  {
    name: 'update recreate partition=99% with maxUnavailable=3, maxSurge=2 (step 2/3)',
    cs: [5, '99%', 3, 2],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: { scaleDownNum: 1, scaleDownNumOldRevision: 1, deleteReadyLimit: 3 },
    then: { delete: [0] },
  },
  {
    name: 'update recreate partition=99% with maxUnavailable=3, maxSurge=2 (step 3/3)',
    cs: [5, '99%', 3, 2],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'update recreate partition=99% with maxUnavailable=40%, maxSurge=30% (step 1/3)',
    cs: [5, '99%', '40%', '30%'],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, useSurge: 1, updateNum: 1, updateMaxUnavailable: 2, scaleUpLimit: 1 },
    then: { create: ['upd'] },
  },
  {
    name: 'update recreate partition=99% with maxUnavailable=40%, maxSurge=30% (step 2/3)',
    cs: [5, '99%', '40%', '30%'],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: { scaleDownNum: 1, scaleDownNumOldRevision: 1, deleteReadyLimit: 2 },
    then: { delete: [0] },
  },
  {
    name: 'update recreate partition=99% with maxUnavailable=40%, maxSurge=30% (step 3/3)',
    cs: [5, '99%', '40%', '30%'],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'update recreate partition=99% with maxUnavailable=30%, maxSurge=30% (step 1/3)',
    cs: [5, '99%', '30%', '30%'],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, useSurge: 1, updateNum: 1, updateMaxUnavailable: 1, scaleUpLimit: 1 },
    then: { create: ['upd'] },
  },
  {
    name: 'update recreate partition=99% with maxUnavailable=30%, maxSurge=30% (step 2/3)',
    cs: [5, '99%', '30%', '30%'],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: { scaleDownNum: 1, scaleDownNumOldRevision: 1, deleteReadyLimit: 1 },
    then: { delete: [0] },
  },
  {
    name: 'update recreate partition=99% with maxUnavailable=30%, maxSurge=30% (step 3/3)',
    cs: [5, '99%', '30%', '30%'],
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'revision consistent 1',
    cs: [5, 0, 1, 0],
    consistent: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'revision consistent 2',
    cs: [5, 3, 1, 0],
    consistent: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'revision consistent 3',
    cs: [5, 3, 1, 0],
    consistent: true,
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'revision consistent 4',
    cs: [5, 1, 1, 0],
    consistent: true,
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: { updateNum: 2, updateMaxUnavailable: 1 },
    then: {},
  },
  {
    name: 'allow to update when fail to scale out normally',
    cs: [5, 1, 2, 0],
    consistent: true,
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, updateNum: 1, updateMaxUnavailable: 1, scaleUpLimit: 1 },
    then: { create: ['upd'] },
  },
  {
    name: 'allow to update when fail to scale in normally',
    cs: [5, 1, 1, 0],
    consistent: true,
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: {
      scaleDownNum: 1,
      scaleDownNumOldRevision: 2,
      deleteReadyLimit: 2,
      updateNum: 1,
      updateMaxUnavailable: 2,
    },
    then: { delete: [0] },
  },
  {
    name: 'disable rollback feature-gate',
    cs: [5, 4, 1, 0],
    noRollback: true,
    pods: [
      ['old', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: {},
    then: {},
  },
  {
    name: 'increase replicas 0 to 5 with scale maxUnavailable = 2',
    cs: [5, 0, 1, 0],
    scaleMaxUnavailable: 2,
    pods: [],
    diff: { scaleUpNum: 5, scaleUpLimit: 2 },
    then: { create: ['upd', 'upd'], limited: 2 },
  },
  {
    name: 'increase replicas 3 to 6 with scale maxUnavailable = 2, not ready pod = 1',
    cs: [6, 0, 1, 0],
    scaleMaxUnavailable: 2,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: { scaleUpNum: 3, scaleUpLimit: 1 },
    then: { create: ['upd'], limited: 1 },
  },
  {
    name: 'increase replicas 3 to 6 with scale maxUnavailable = 2, not ready pod = 2',
    cs: [6, 0, 1, 0],
    scaleMaxUnavailable: 2,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', false, false],
      ['new', 'Normal', false, false],
    ],
    diff: { scaleUpNum: 3, scaleUpLimit: 0 },
    then: { limited: 0 },
  },
  {
    name: '[scalingExcludePreparingDelete=false] specific delete a pod with lifecycle hook (step 1/4)',
    cs: [3, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, true],
    ],
    diff: { deleteReadyLimit: 1 },
    hooked: true,
    then: { preDelete: [2] },
  },
  {
    name: '[scalingExcludePreparingDelete=false] specific delete a pod with lifecycle hook (step 2/4)',
    cs: [3, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'PreparingDelete', true, true],
    ],
    diff: {},
    hooked: true,
    then: {},
  },
  {
    name: '[scalingExcludePreparingDelete=false] specific delete a pod with lifecycle hook (step 3/4)',
    cs: [3, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, scaleUpLimit: 1 },
    hooked: true,
    then: { create: ['upd'] },
  },
  {
    name: '[scalingExcludePreparingDelete=false] specific delete a pod with lifecycle hook (step 4/4)',
    cs: [3, 0, 1, 0],
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: {},
    hooked: true,
    then: {},
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook (step 1/4)',
    cs: [3, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, true],
    ],
    diff: { deleteReadyLimit: 1 },
    hooked: true,
    then: { preDelete: [2] },
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook (step 2/4)',
    cs: [3, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'PreparingDelete', true, true],
    ],
    diff: { scaleUpNum: 1, scaleUpLimit: 1 },
    hooked: true,
    then: { create: ['upd'] },
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook (step 3/4)',
    cs: [3, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'PreparingDelete', true, true],
      ['new', 'Normal', false, false],
    ],
    diff: {},
    hooked: true,
    then: {},
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook (step 4/4)',
    cs: [3, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'PreparingDelete', true, true],
      ['new', 'Normal', false, false],
    ],
    diff: {},
    hooked: true,
    then: {},
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 1/5)',
    cs: [3, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, true],
    ],
    diff: { deleteReadyLimit: 1 },
    hooked: true,
    then: { preDelete: [2] },
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 2/5)',
    cs: [3, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'PreparingDelete', true, true],
    ],
    diff: { scaleUpNum: 1, scaleUpLimit: 1 },
    hooked: true,
    then: { create: ['upd'] },
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 3/5)',
    cs: [3, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'PreparingDelete', true, true],
      ['new', 'Normal', false, false],
    ],
    diff: {},
    hooked: true,
    then: {},
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 4/5)',
    cs: [3, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: { scaleDownNum: 1, deleteReadyLimit: 1 },
    hooked: true,
    then: { delete: [3] },
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific delete a pod with lifecycle hook and then cancel (step 5/5)',
    cs: [3, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: {},
    hooked: true,
    then: {},
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 1/6)',
    cs: [3, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
    ],
    diff: {},
    hooked: true,
    then: {},
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 2/6)',
    cs: [2, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, true],
    ],
    diff: { deleteReadyLimit: 2 },
    hooked: true,
    then: { preDelete: [2] },
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 3/6)',
    cs: [2, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'PreparingDelete', true, true],
    ],
    diff: {},
    hooked: true,
    then: {},
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 4/6)',
    cs: [3, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'PreparingDelete', true, true],
    ],
    diff: { scaleUpNum: 1, scaleUpLimit: 1 },
    hooked: true,
    then: { create: ['upd'] },
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 5/6)',
    cs: [3, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'PreparingDelete', true, true],
      ['new', 'Normal', false, false],
    ],
    diff: {},
    hooked: true,
    then: {},
  },
  {
    name: '[scalingExcludePreparingDelete=true] specific scale down with lifecycle hook, then scale up pods (step 6/6)',
    cs: [3, 0, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['new', 'Normal', true, false],
      ['new', 'Normal', true, false],
      ['new', 'Normal', false, false],
    ],
    diff: {},
    hooked: true,
    then: {},
  },
  {
    name: '[scalingWithPreparingUpdate=true] scaling up when a preparing pod is not updated, and expected-updated is 1',
    cs: [4, '90%', 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['old', 'PreparingUpdate', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, scaleUpLimit: 1, scaleUpNumOldRevision: 1 },
    then: { create: ['cur'] },
  },
  {
    name: '[scalingWithPreparingUpdate=true] scaling up when a preparing pod is not updated, and expected-updated is 2',
    cs: [4, 2, 1, 0],
    excludePreparingDelete: true,
    pods: [
      ['old', 'PreparingUpdate', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 1, scaleUpLimit: 1 },
    then: { create: ['upd'] },
  },
  {
    name: '[UpdateStrategyPaused=true] scale up pods with maxSurge=3,maxUnavailable=0',
    cs: [5, 0, 0, 3],
    paused: true,
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: { scaleUpNum: 2, scaleUpLimit: 2, updateNum: 3, updateMaxUnavailable: -2 },
    then: { create: ['upd', 'upd'] },
  },
  {
    name: '[UpdateStrategyPaused=true] scale down pods with maxSurge=3,maxUnavailable=0',
    cs: [3, 0, 0, 3],
    paused: true,
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
    ],
    diff: {
      scaleDownNum: 2,
      scaleDownNumOldRevision: 5,
      deleteReadyLimit: 2,
      updateNum: 3,
      updateMaxUnavailable: 2,
    },
    then: { delete: [0, 1] },
  },
  {
    name: '[UpdateStrategyPaused=true] create 0 newRevision pods with maxSurge=3,maxUnavailable=0',
    cs: [5, 0, 0, 3],
    paused: true,
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', false, false],
      ['new', 'Normal', false, false],
      ['new', 'Normal', false, false],
    ],
    diff: { scaleDownNum: 3, scaleDownNumOldRevision: 5, updateNum: 2, updateMaxUnavailable: 3 },
    then: {},
  },
  {
    name: '[UpdateStrategyPaused=true] create 0 newRevision pods with maxSurge=3,maxUnavailable=0',
    cs: [5, 2, 0, 3],
    paused: true,
    pods: [
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['old', 'Normal', true, false],
      ['new', 'Normal', false, false],
      ['new', 'Normal', false, false],
      ['new', 'Normal', false, false],
    ],
    diff: { scaleDownNum: 3, scaleDownNumOldRevision: 3 },
    then: {},
  },
];
