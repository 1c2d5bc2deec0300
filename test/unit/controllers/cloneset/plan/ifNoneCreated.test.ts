/**
 * The plan's `ifNoneCreated`: what OpenKruise's `syncCloneSet` does when `createPods` created nothing (a quota
 * refusing every create) — the update phase in the same reconcile — planned beside the creates.
 */
import { describe, expect, test } from '@jest/globals';
import type { CloneSet, ControllerRevision, Pod } from '../../../../../lib/api/types.js';
import { planCloneSet } from '../../../../../lib/controllers/cloneset/plan/index.js';

const NOW = new Date('2024-05-01T08:00:00Z');

function cloneSet(replicas: number): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: 'ns', uid: 'uid-web', generation: 1 },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'main', image: 'nginx:1.18' }] },
      },
    },
  };
}

/** The pod a first plan of 1 replica creates, as created, bound and Running but still PreparingNormal. */
function createdPod(): { pod: Pod; revision: ControllerRevision } {
  const first = planCloneSet({
    cloneSet: cloneSet(1),
    pods: [],
    pvcs: [],
    revisions: [],
    now: NOW,
    newInstanceId: () => 'aaaaa',
  });
  const create = first.actions.find((a) => a.type === 'CreatePod');
  if (create?.type !== 'CreatePod') throw new Error('no create planned');
  const pod: Pod = {
    ...create.pod,
    metadata: { ...create.pod.metadata, uid: 'uid-aaaaa', creationTimestamp: '2024-05-01T07:59:00Z' },
    spec: { ...create.pod.spec, containers: create.pod.spec?.containers ?? [], nodeName: 'node-0' },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] },
  };
  return { pod, revision: first.revisions.create as ControllerRevision };
}

describe('planCloneSet: ifNoneCreated', () => {
  test('a scale-up beside a PreparingNormal pod: the create, and instead the pod made Normal with its conditions', () => {
    const { pod, revision } = createdPod();
    const plan = planCloneSet({
      cloneSet: cloneSet(2),
      pods: [pod],
      pvcs: [],
      revisions: [revision],
      now: NOW,
      newInstanceId: () => 'bbbbb',
    });
    expect(plan.phase).toBe('scale');
    expect(
      plan.actions.map((a) => (a.type === 'CreatePod' ? `CreatePod ${a.pod.metadata.name ?? ''}` : a.type)),
    ).toEqual(['CreatePod web-bbbbb', 'PatchPodStatus']);
    expect(
      plan.ifNoneCreated?.map((a) => [
        a.type,
        'reason' in a ? a.reason : undefined,
        a.type === 'PatchPod' || a.type === 'PatchPodStatus' ? a.pod.name : '',
      ]),
    ).toEqual([
      ['PatchPodStatus', 'InPlaceUpdateReady', 'web-aaaaa'],
      ['PatchPod', 'LifecycleTransition', 'web-aaaaa'],
      ['PatchPodStatus', 'InitKruisePodReady', 'web-aaaaa'],
    ]);
  });

  test('a scale-down plans no ifNoneCreated', () => {
    const { pod, revision } = createdPod();
    const plan = planCloneSet({
      cloneSet: cloneSet(0),
      pods: [pod],
      pvcs: [],
      revisions: [revision],
      now: NOW,
      newInstanceId: () => 'bbbbb',
    });
    expect(plan.actions.map((a) => a.type)).toContain('DeletePod');
    expect(plan.ifNoneCreated).toBeUndefined();
  });
});
