/** The soak's user edits (scripts/soak/edits.ts): a seeded plan, each edit resolved against the CloneSet as it is, and when a CloneSet counts as settled. */
import { describe, expect, it } from '@jest/globals';
import type { CloneSet, Pod } from '../../../lib/api/types.js';
import { planEdits, resolveEdit, unsettledReason, type PlannedEdit } from '../../../scripts/soak/edits.js';

function cloneSet(
  spec: Partial<CloneSet['spec']> = {},
  status: Partial<NonNullable<CloneSet['status']>> = {},
): CloneSet {
  return {
    metadata: { name: 'soak-0', namespace: 'kruiseless-soak-0', generation: 3 },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'soak-0' } },
      template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.18-alpine' }] } },
      updateStrategy: { type: 'InPlaceIfPossible' },
      ...spec,
    },
    status: {
      observedGeneration: 3,
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      updatedReplicas: 3,
      updatedReadyReplicas: 3,
      ...status,
    },
  };
}

function pod(name: string, terminating = false): Pod {
  return {
    metadata: { name, ...(terminating ? { deletionTimestamp: '2026-12-01T20:00:00Z' } : {}) },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.18-alpine' }] },
  };
}

const edit = (kind: PlannedEdit['kind'], pick = 0): PlannedEdit => ({ cloneset: 0, kind, pick, delayMs: 0 });

describe('planEdits', () => {
  const opts = { seed: 18, count: 200, clonesets: 4, minDelayMs: 2000, maxDelayMs: 8000 };

  it('gives the same plan for the same seed and another for another seed', () => {
    expect(planEdits(opts)).toEqual(planEdits(opts));
    expect(planEdits({ ...opts, seed: 19 })).not.toEqual(planEdits(opts));
    expect(planEdits({ ...opts, count: 0 })).toEqual([]);
  });

  it('stays within its bounds and uses every kind and every CloneSet', () => {
    const plan = planEdits(opts);
    expect(plan).toHaveLength(200);
    expect(plan.every((e) => e.delayMs >= 2000 && e.delayMs <= 8000)).toBe(true);
    expect(new Set(plan.map((e) => e.cloneset))).toEqual(new Set([0, 1, 2, 3]));
    expect(new Set(plan.map((e) => e.kind)).size).toBe(7);
  });
});

describe('resolveEdit', () => {
  it('scales to another replica count in 1…5', () => {
    const picks = [0, 1, 2, 3, 4].map((pick) => resolveEdit(edit('scale', pick), cloneSet(), []));
    expect(picks.map((c) => c?.verb === 'patchCloneSet' && c.patch)).toEqual([
      { spec: { replicas: 1 } },
      { spec: { replicas: 2 } },
      { spec: { replicas: 4 } },
      { spec: { replicas: 5 } },
      { spec: { replicas: 1 } },
    ]);
  });

  it('changes the image to another one, with the strategy the kind names', () => {
    expect(resolveEdit(edit('imageRecreate', 1), cloneSet(), [])).toEqual({
      verb: 'patchCloneSet',
      patch: {
        spec: {
          updateStrategy: { type: 'ReCreate' },
          template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.20-alpine' }] } },
        },
      },
      what: 'image nginx:1.18-alpine → nginx:1.20-alpine (ReCreate)',
    });
    expect(resolveEdit(edit('imageInPlace', 0), cloneSet(), [])?.what).toBe(
      'image nginx:1.18-alpine → nginx:1.19-alpine (InPlaceIfPossible)',
    );
  });

  it('moves the partition to another value in 0…replicas, also from one above replicas', () => {
    const at = (partition: number, pick: number) =>
      resolveEdit(edit('partition', pick), cloneSet({ updateStrategy: { partition } }), [])?.what;
    expect([0, 1, 2].map((pick) => at(0, pick))).toEqual([
      'partition 0 → 1',
      'partition 0 → 2',
      'partition 0 → 3',
    ]);
    expect(at(2, 2)).toBe('partition 2 → 3');
    expect(at(5, 1)).toBe('partition 5 → 1');
  });

  it('flips paused', () => {
    expect(resolveEdit(edit('pauseResume'), cloneSet(), [])?.what).toBe('pause');
    expect(resolveEdit(edit('pauseResume'), cloneSet({ updateStrategy: { paused: true } }), [])).toEqual({
      verb: 'patchCloneSet',
      patch: { spec: { updateStrategy: { paused: false } } },
      what: 'resume',
    });
  });

  it('picks an active pod by name order for a delete or a specified delete, none when there is none', () => {
    const pods = [pod('soak-0-c'), pod('soak-0-a', true), pod('soak-0-b')];
    expect(resolveEdit(edit('deletePod', 3), cloneSet(), pods)).toEqual({
      verb: 'deletePod',
      pod: 'soak-0-c',
      what: 'delete pod soak-0-c',
    });
    expect(resolveEdit(edit('specifiedDelete', 2), cloneSet(), pods)).toEqual({
      verb: 'patchPod',
      pod: 'soak-0-b',
      patch: { metadata: { labels: { 'apps.kruise.io/specified-delete': 'true' } } },
      what: 'specified-delete soak-0-b',
    });
    expect(resolveEdit(edit('deletePod'), cloneSet(), [pod('x', true)])).toBeUndefined();
  });
});

describe('unsettledReason', () => {
  const three = [pod('a'), pod('b'), pod('c')];

  it('is undefined when the status matches the spec and every pod is there', () => {
    expect(unsettledReason(cloneSet(), three)).toBeUndefined();
  });

  it('names what differs', () => {
    expect(unsettledReason(cloneSet({}, { observedGeneration: 2 }), three)).toBe(
      'observedGeneration 2 ≠ generation 3',
    );
    expect(unsettledReason(cloneSet({}, { readyReplicas: 2 }), three)).toBe(
      'status replicas 3 ready 2 available 3, spec 3',
    );
    expect(unsettledReason(cloneSet(), [...three, pod('d', true)])).toBe('3 pods (1 terminating), spec 3');
    expect(unsettledReason(cloneSet({}, { updatedReplicas: 1, updatedReadyReplicas: 1 }), three)).toBe(
      'updated 1 (ready 1), at least 3 wanted',
    );
  });

  it('asks for replicas − partition updated pods, none when paused', () => {
    const partitioned = cloneSet(
      { updateStrategy: { partition: 2 } },
      { updatedReplicas: 1, updatedReadyReplicas: 1 },
    );
    expect(unsettledReason(partitioned, three)).toBeUndefined();
    const paused = cloneSet(
      { updateStrategy: { paused: true } },
      { updatedReplicas: 0, updatedReadyReplicas: 0 },
    );
    expect(unsettledReason(paused, three)).toBeUndefined();
  });
});
