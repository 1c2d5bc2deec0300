/** plan and why formatting from planner output and pod facts: exact lines. */
import { describe, expect, it } from '@jest/globals';
import type { CloneSet, Pod } from '../../../lib/api/types.js';
import { planCloneSet } from '../../../lib/controllers/cloneset/plan/index.js';
import { placeholderIds, plannedWrites, planReport, statusChanges } from '../../../lib/cli/planView.js';
import { namesPod, whyReport } from '../../../lib/cli/whyView.js';
import { PATCH_WHY, POD_RESIZE_WHY } from '../../../lib/cli/writeWhy.js';
import type { PassPreview } from '../../../lib/controllers/cloneset/preview.js';

const cloneSet: CloneSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: 'ns', uid: 'u1', generation: 1 },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
};

function preview(waiting: boolean): PassPreview {
  const plan = planCloneSet({
    cloneSet,
    pods: [],
    pvcs: [],
    revisions: [],
    now: new Date('2026-01-01T00:00:00Z'),
    newInstanceId: placeholderIds(),
  });
  const effective = waiting
    ? { ...plan, actions: [], revisions: { ...plan.revisions, create: undefined } }
    : plan;
  const pending = waiting
    ? { creates: [{ name: 'web-abcde', at: 0 }], deletes: [], updates: [] }
    : { creates: [], deletes: [], updates: [] };
  return {
    world: { cloneSet, pods: [], pvcs: [], revisions: [] },
    observed: { pending, expired: [], changed: false },
    waiting,
    plan,
    effective,
    resizeWrite: 'resize',
  };
}

describe('plan report', () => {
  it('lists the writes in executor order with their reasons', () => {
    const p = preview(false);
    const rev = p.plan.revisions.updateRevision;
    expect(plannedWrites(p)).toEqual([
      { write: `create controllerrevision ${rev}`, why: 'the template changed: new update revision' },
      {
        write: 'create pod web-<new-1>',
        why: `scale up: fewer pods than replicas (scaleUpNum 2), at the update revision ${rev}, slow-start batch 0`,
      },
      {
        write: 'create pod web-<new-2>',
        why: `scale up: fewer pods than replicas (scaleUpNum 2), at the update revision ${rev}, slow-start batch 1`,
      },
      {
        write: 'update cloneset/status web',
        why: `replicas -→0, readyReplicas -→0, availableReplicas -→0, updatedReplicas -→0, updatedReadyReplicas -→0, expectedUpdatedReplicas -→2, observedGeneration -→1, updateRevision -→${rev}, currentRevision -→${rev}`,
      },
    ]);
  });

  it('an in-place resize shows its pods/resize write before the pod patch', () => {
    const p = preview(false);
    const resized = {
      ...p,
      effective: {
        ...p.effective,
        revisions: { ...p.effective.revisions, create: undefined },
        statusChanged: false,
        actions: [
          {
            type: 'PatchPod' as const,
            pod: { name: 'web-abcde', uid: 'u' },
            reason: 'InPlaceUpdate' as const,
            patch: {},
            resize: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '150m' } } }] } },
          },
        ],
      },
    };
    expect(plannedWrites(resized).map((w) => w.write)).toEqual([
      'patch pod/resize web-abcde',
      'patch pod web-abcde',
    ]);
    // a server older than 1.32 gets the resources inside the one pod patch (lib/reconcile/pods/patchPod.ts)
    expect(plannedWrites({ ...resized, resizeWrite: 'podPatch' })).toEqual([
      {
        write: 'patch pod web-abcde',
        why: `${PATCH_WHY.InPlaceUpdate}; ${POD_RESIZE_WHY.podPatch}`,
      },
    ]);
    // an unknown version: the resize first, said to fall back on 404
    expect(plannedWrites({ ...resized, resizeWrite: 'resizeThenPodPatch' })).toEqual([
      { write: 'patch pod/resize web-abcde', why: POD_RESIZE_WHY.resizeThenPodPatch },
      { write: 'patch pod web-abcde', why: PATCH_WHY.InPlaceUpdate },
    ]);
  });

  it('says when pending expectations hold the pod writes back', () => {
    const report = planReport(preview(true), 'not read');
    expect(report.split('\n').slice(0, 9)).toEqual([
      'CloneSet ns/web',
      '  state:            not read',
      `  update revision:  ${preview(true).plan.revisions.updateRevision} (new)`,
      `  current revision: ${preview(true).plan.revisions.currentRevision}`,
      '  pods:             0 owned, 0 pvcs, 0 revisions',
      '  expectations:     create web-abcde not yet seen: pod writes wait',
      '  scale-down:       nothing recorded',
      '  phase:            scale',
      '  diff:             scaleUpNum=2 scaleUpLimit=2',
    ]);
    expect(report).toContain('Writes, in order:\n  1. update cloneset/status web: ');
  });

  it('names changed status fields', () => {
    const base = {
      replicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      updatedReplicas: 1,
      updatedReadyReplicas: 1,
    };
    expect(statusChanges(base, { ...base, readyReplicas: 0 })).toBe('readyReplicas 1→0');
    expect(statusChanges(base, base)).toBe('conditions');
  });
});

describe('why report', () => {
  it('matches pod names as whole words only', () => {
    expect(namesPod('succeed to create pod web-abcde', 'web-abcde')).toBe(true);
    expect(namesPod('succeed to create pod web-abcdef', 'web-abcde')).toBe(false);
    expect(namesPod('pods web-abcde, web-fghjk', 'web-fghjk')).toBe(true);
    expect(namesPod(undefined, 'web-abcde')).toBe(false);
  });

  it('orders Events of the same second by their resourceVersion (the order the API server wrote them)', () => {
    const at = '2026-01-01T00:00:00Z';
    const event = (reason: string, message: string, resourceVersion: string) => ({
      type: 'Normal',
      reason,
      message,
      lastTimestamp: at,
      metadata: { resourceVersion },
      involvedObject: { kind: 'CloneSet', name: 'web' },
    });
    const report = whyReport({
      namespace: 'ns',
      name: 'web-abcde',
      cloneSetName: 'web',
      events: [
        event('SuccessfulDelete', 'succeed to delete pod web-abcde', '120'),
        event('SuccessfulCreate', 'succeed to create pod web-abcde', '99'),
      ],
      stateNote: 'not read',
    });
    expect(report.split('\n').filter((l) => l.includes(' on CloneSet/'))).toEqual([
      `  ${at}  Normal SuccessfulCreate on CloneSet/web: succeed to create pod web-abcde → created by the CloneSet`,
      `  ${at}  Normal SuccessfulDelete on CloneSet/web: succeed to delete pod web-abcde → deleted by the CloneSet`,
    ]);
  });

  it('explains a pod at an old revision, marked for deletion and chosen by a recorded scale-down; Events by time', () => {
    const pod: Pod = {
      metadata: {
        name: 'web-abcde',
        creationTimestamp: '2026-01-01T00:00:00Z',
        labels: {
          'controller-revision-hash': 'web-old',
          'apps.kruise.io/cloneset-instance-id': 'abcde',
          'apps.kruise.io/specified-delete': 'true',
          'lifecycle.apps.kruise.io/state': 'PreparingDelete',
        },
      },
      spec: { containers: [] },
    };
    const report = whyReport({
      namespace: 'ns',
      name: 'web-abcde',
      pod,
      cloneSet: {
        ...cloneSet,
        status: {
          ...{
            replicas: 1,
            readyReplicas: 1,
            availableReplicas: 1,
            updatedReplicas: 0,
            updatedReadyReplicas: 0,
          },
          updateRevision: 'web-new',
        },
      },
      cloneSetName: 'web',
      intent: {
        intentId: 'i1',
        createdAt: 0,
        pods: [{ name: 'web-abcde', uid: 'u', reason: 'SpecifiedDelete' }],
      },
      expectations: { creates: [], deletes: [{ name: 'web-abcde', at: 1000 }], updates: [] },
      events: [
        {
          type: 'Normal',
          reason: 'Scheduled',
          message: 'Successfully assigned ns/web-abcde to node-1',
          eventTime: '2026-01-01T00:00:00.500000Z',
          involvedObject: { kind: 'Pod', name: 'web-abcde' },
          metadata: {},
        },
        {
          type: 'Normal',
          reason: 'SuccessfulCreate',
          message: 'succeed to create pod web-abcde',
          lastTimestamp: '2026-01-01T00:00:00Z',
          involvedObject: { kind: 'CloneSet', name: 'web' },
          metadata: {},
        },
      ],
      stateNote: 'from table t',
    });
    expect(report).toBe(
      [
        'Pod ns/web-abcde',
        '  CloneSet:         web',
        '  created:          2026-01-01T00:00:00Z, instance id abcde',
        '  revision:         web-old (an old revision; the update revision is web-new: the pod is due for update unless partition or pause keeps it)',
        '  lifecycle state:  PreparingDelete',
        '  specified-delete: true: the CloneSet deletes this pod',
        '  in-place update:  none recorded',
        '  state:            from table t',
        '  scale-down:       chosen for deletion by scale-down i1 at 1970-01-01T00:00:00.000Z: SpecifiedDelete',
        '  expectations:     delete issued at 1970-01-01T00:00:01.000Z not yet seen',
        'History (Events):',
        '  2026-01-01T00:00:00Z  Normal SuccessfulCreate on CloneSet/web: succeed to create pod web-abcde → created by the CloneSet',
        '  2026-01-01T00:00:00.500000Z  Normal Scheduled on Pod/web-abcde: Successfully assigned ns/web-abcde to node-1',
        '',
      ].join('\n'),
    );
  });
});
