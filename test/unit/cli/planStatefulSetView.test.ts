/** `kruiseless plan asts/<name>` formatting from the Advanced StatefulSet planner's output: exact lines. */
import { describe, expect, it } from '@jest/globals';
import type { ControllerRevision, Pod } from '../../../lib/api/types.js';
import type { StatefulSet } from '../../../lib/controllers/statefulset/api/types.js';
import { planPass, withoutFailedValidation } from '../../../lib/controllers/statefulset/pass.js';
import type { StatefulSetPassPreview } from '../../../lib/controllers/statefulset/preview.js';
import {
  plannedStatefulSetWrites,
  statefulSetPlanReport,
  statefulSetStatusChanges,
} from '../../../lib/cli/planStatefulSetView.js';
import type { Expectations } from '../../../lib/state/index.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

function webSet(change: (s: StatefulSet) => void = () => undefined): StatefulSet {
  const sts: StatefulSet = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'ns', uid: 'u1', generation: 1 },
    spec: {
      replicas: 2,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  };
  change(sts);
  return sts;
}

const none = (): Expectations => ({ creates: [], deletes: [], updates: [] });

/** The preview of a pass over `sts` with `pods` and no revisions, as previewStatefulSetPass builds it. */
function preview(
  sts: StatefulSet,
  pods: Pod[] = [],
  pending: Expectations = none(),
  revisions: ControllerRevision[] = [],
): StatefulSetPassPreview {
  const world = { statefulSet: sts, pods, pvcs: [], revisions };
  const observed = { pending, expired: [], changed: false };
  const { plan, effective, waiting } = planPass({ clock: () => NOW }, world, observed);
  return {
    world,
    observed,
    waiting,
    plan,
    effective: withoutFailedValidation(effective, sts),
    resizeWrite: 'resize',
  };
}

/** A Running and Ready pod `web-<ordinal>` of the set at `revision`. */
function readyPod(ordinal: number, revision: string): Pod {
  return {
    metadata: {
      name: `web-${ordinal}`,
      namespace: 'ns',
      uid: `p${ordinal}`,
      resourceVersion: '10',
      labels: {
        app: 'web',
        'controller-revision-hash': revision,
        'statefulset.kubernetes.io/pod-name': `web-${ordinal}`,
        'apps.kubernetes.io/pod-index': String(ordinal),
      },
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'StatefulSet',
          name: 'web',
          uid: 'u1',
          controller: true,
        },
      ],
    },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-12-31T00:00:00Z' }],
    },
  };
}

/** The set's first revision (as its first pass creates it) and `web` with it as update revision in its status. */
function settled(replicas: number): {
  sts: StatefulSet;
  pods: Pod[];
  revision: string;
  p: StatefulSetPassPreview;
} {
  const first = preview(webSet());
  const rev = first.plan.revisions.create;
  if (!rev) throw new Error('no revision');
  const revision = rev.metadata.name ?? '';
  const sts = webSet((s) => {
    s.spec.replicas = replicas;
    s.status = {
      ...first.plan.status,
      replicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      currentReplicas: 2,
      updatedReplicas: 2,
      updatedReadyReplicas: 2,
      updatedAvailableReplicas: 2,
    };
  });
  const pods = [readyPod(0, revision), readyPod(1, revision)];
  const world = { statefulSet: sts, pods, pvcs: [], revisions: [rev] };
  const observed = { pending: none(), expired: [], changed: false };
  const { plan, effective, waiting } = planPass({ clock: () => NOW }, world, observed);
  return {
    sts,
    pods,
    revision,
    p: { world, observed, waiting, plan, effective, resizeWrite: 'resize' as const },
  };
}

describe('Advanced StatefulSet plan report', () => {
  it('a new set: the revision, the first pod (OrderedReady), the status; the whole report', () => {
    const p = preview(webSet());
    const rev = p.plan.revisions.updateRevision;
    expect(rev).toMatch(/^web-[a-z0-9]+$/);
    expect(
      statefulSetPlanReport(
        p,
        'not read (no --table): expectations taken as empty',
        'OpenKruise v1.9.0 defaults',
      ),
    ).toBe(
      [
        'StatefulSet ns/web',
        '  state:            not read (no --table): expectations taken as empty',
        '  feature gates:    OpenKruise v1.9.0 defaults',
        `  update revision:  ${rev} (new)`,
        `  current revision: ${rev}`,
        '  replicas:         2 (OrderedReady)',
        '  update strategy:  RollingUpdate partition 0, podUpdatePolicy ReCreate',
        '  pods:             0 owned (none), 0 pvcs, 0 revisions',
        '  expectations:     none pending',
        '  stops:            pod web-0 created: OrderedReady creates one at a time',
        'Writes, in order:',
        `  1. create controllerrevision ${rev}: the template changed: new update revision`,
        `  2. create pod web-0: ordinal 0 has no pod: created at the update revision ${rev}`,
        '  3. patch pod/status web-0: new pod with the KruisePodReady gate: condition set True',
        `  4. update statefulset/status web: replicas -→0, readyReplicas -→0, availableReplicas -→0, currentReplicas -→0, updatedReplicas -→0, observedGeneration -→1, currentRevision -→${rev}, updateRevision -→${rev}, collisionCount -→0`,
        '',
      ].join('\n'),
    );
  });

  it('a volume claim template: the claim is created before its pod', () => {
    const p = preview(
      webSet((s) => {
        s.spec.volumeClaimTemplates = [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ];
      }),
    );
    expect(plannedStatefulSetWrites(p).slice(1, 3)).toEqual([
      { write: 'create pvc data-web-0', why: 'volume claim of pod web-0, created before it' },
      {
        write: 'create pod web-0',
        why: `ordinal 0 has no pod: created at the update revision ${p.plan.revisions.updateRevision}`,
      },
    ]);
  });

  it('a scale-down deletes the highest ordinal; nothing else changes yet', () => {
    const { p } = settled(1);
    const lines = statefulSetPlanReport(p, 'not read', 'OpenKruise v1.9.0 defaults').split('\n');
    expect(lines.slice(5)).toEqual([
      '  replicas:         1 (OrderedReady)',
      '  update strategy:  RollingUpdate partition 0, podUpdatePolicy ReCreate',
      '  pods:             2 owned (web-0, web-1), 0 pvcs, 1 revisions',
      '  expectations:     none pending',
      '  stops:            pod web-1 deleted: OrderedReady scales down one at a time',
      'Writes, in order:',
      '  1. delete pod web-1: condemned: its ordinal is outside the range the replicas keep (scale down, highest ordinal first)',
      '',
    ]);
  });

  it('a template change under partition 1 recreates only the ordinal at or above the partition', () => {
    const { sts, pods, p: before } = settled(2);
    const changed = webSet((s) => {
      s.spec.template.spec.containers[0].image = 'nginx:2';
      s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 1 } };
      s.status = sts.status;
    });
    const p = preview(changed, pods, none(), before.world.revisions);
    const old = before.plan.revisions.updateRevision;
    const rev = p.plan.revisions.updateRevision;
    expect(rev).not.toBe(old);
    expect(plannedStatefulSetWrites(p)).toEqual([
      { write: `create controllerrevision ${rev}`, why: 'the template changed: new update revision' },
      {
        write: 'delete pod web-1',
        why: 'recreate update: deleted to be created again at the update revision',
      },
      {
        write: 'update statefulset/status web',
        why: `currentReplicas 2→1, updatedReplicas 2→0, updatedReadyReplicas 2→-, updatedAvailableReplicas 2→-, updateRevision ${old}→${rev}`,
      },
    ]);
    expect(statefulSetPlanReport(p, 'not read', 'd')).toContain(
      '\n  update strategy:  RollingUpdate partition 1, podUpdatePolicy ReCreate\n',
    );
  });

  it('pending expectations: no revision or pod write, the status still', () => {
    const p = preview(webSet(), [], { creates: [{ name: 'web-0', at: NOW }], deletes: [], updates: [] });
    const lines = statefulSetPlanReport(p, 'not read', 'd').split('\n');
    expect(lines[3]).toBe(`  update revision:  ${p.plan.revisions.updateRevision}`);
    expect(lines.slice(8, 12)).toEqual([
      '  expectations:     create web-0 not yet seen: pod writes wait',
      '  stops:            pending expectations hold the pod and revision writes back (the status is still written)',
      'Writes, in order:',
      expect.stringMatching(/^ {2}1\. update statefulset\/status web: replicas -→0, /),
    ]);
    expect(lines).toHaveLength(13);
  });

  it('an invalid set: the errors and the FailedValidation status write, once', () => {
    const invalid = webSet((s) => {
      s.spec.replicas = -1;
    });
    const message =
      'StatefulSet is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0';
    const lines = statefulSetPlanReport(preview(invalid), 'not read', 'd').split('\n');
    expect(lines[3]).toMatch(/^ {2}update revision: {2}web-[a-z0-9]+$/);
    expect(lines.slice(10)).toEqual([
      'Invalid StatefulSet (nothing else is changed until it is fixed):',
      '  spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'Writes, in order:',
      `  1. update statefulset/status web: FailedValidation condition: ${message}`,
      '',
    ]);
    const reported = webSet((s) => {
      s.spec.replicas = -1;
      s.status = {
        replicas: 0,
        readyReplicas: 0,
        availableReplicas: 0,
        currentReplicas: 0,
        updatedReplicas: 0,
        conditions: [{ type: 'FailedValidation', status: 'True', reason: 'InvalidSpec', message }],
      };
    });
    expect(plannedStatefulSetWrites(preview(reported))).toEqual([]);
  });

  it('names the changed status fields, or says only conditions or volumeClaims changed', () => {
    const status = {
      replicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      currentReplicas: 1,
      updatedReplicas: 1,
    };
    expect(statefulSetStatusChanges(status, { ...status, readyReplicas: 0, collisionCount: 1 })).toBe(
      'readyReplicas 1→0, collisionCount -→1',
    );
    expect(statefulSetStatusChanges(status, { ...status, volumeClaims: [] })).toBe(
      'conditions or volumeClaims',
    );
  });
});
