/** `kruiseless why <pod>` formatting for a pod of an Advanced StatefulSet: exact lines. */
import { describe, expect, it } from '@jest/globals';
import type { Pod } from '../../../lib/api/types.js';
import type { StatefulSet } from '../../../lib/controllers/statefulset/api/types.js';
import type { CoreEvent } from '../../../lib/kube/event.js';
import { statefulSetWhyReport } from '../../../lib/cli/whyStatefulSetView.js';

/** `web`: 3 replicas, revisions web-old (current) and web-new (update), with `change` applied. */
function webSet(change: (s: StatefulSet) => void = () => undefined): StatefulSet {
  const sts: StatefulSet = {
    metadata: { name: 'web', namespace: 'ns', uid: 'u1' },
    spec: {
      replicas: 3,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } },
    },
    status: {
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      currentReplicas: 2,
      updatedReplicas: 1,
      currentRevision: 'web-old',
      updateRevision: 'web-new',
    },
  };
  change(sts);
  return sts;
}

/** Pod `web-<ordinal>` at `revision` with `labels` and `annotations` added. */
function pod(ordinal: number, revision: string, labels: Record<string, string> = {}, annotations = {}): Pod {
  return {
    metadata: {
      name: `web-${ordinal}`,
      namespace: 'ns',
      uid: `p${ordinal}`,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { app: 'web', 'controller-revision-hash': revision, ...labels },
      annotations,
    },
    spec: { containers: [] },
  };
}

/** A StatefulSet Event at `at`. */
function event(reason: string, message: string, at: string, type = 'Normal'): CoreEvent {
  return {
    metadata: {},
    type,
    reason,
    message,
    lastTimestamp: at,
    involvedObject: { kind: 'StatefulSet', name: 'web' },
  };
}

describe('Advanced StatefulSet why report', () => {
  it('a pod in the update partition, updated in place: every line', () => {
    const inPlace = JSON.stringify({
      revision: 'web-new',
      updateTimestamp: '2026-01-01T00:02:00Z',
      lastContainerStatuses: { c: { imageID: 'x' } },
    });
    const report = statefulSetWhyReport({
      namespace: 'ns',
      name: 'web-2',
      pod: pod(
        2,
        'web-new',
        { 'lifecycle.apps.kruise.io/state': 'Normal' },
        {
          'apps.kruise.io/inplace-update-state': inPlace,
        },
      ),
      statefulSet: webSet(),
      statefulSetName: 'web',
      expectations: {
        creates: [],
        deletes: [],
        updates: [{ name: 'web-2', at: Date.parse('2026-01-01T00:02:00Z'), resourceVersion: '7' }],
      },
      events: [
        event(
          'SuccessfulUpdatePodInPlace',
          'successfully update pod web-2 in-place(revision web-new)',
          '2026-01-01T00:02:00Z',
        ),
        event('SuccessfulCreate', 'create Pod web-2 in StatefulSet web successful', '2026-01-01T00:00:01Z'),
        event(
          'SuccessfulCreate',
          'create Claim data-web-2 Pod web-2 in StatefulSet web success',
          '2026-01-01T00:00:00Z',
        ),
      ],
      stateNote: 'expectations from table t (cluster c)',
    });
    expect(report).toBe(
      [
        'Pod ns/web-2',
        '  StatefulSet:      web (apps.kruise.io)',
        '  ordinal:          2 (kept by the 3 replicas)',
        '  created:          2026-01-01T00:00:00Z',
        '  revision:         web-new (the update revision)',
        '  partition:        ordinal 2 ≥ partition 2: in the update partition, updated to the update revision',
        '  lifecycle state:  Normal',
        '  specified-delete: no',
        '  in-place update:  to revision web-new at 2026-01-01T00:02:00Z (containers c)',
        '  state:            expectations from table t (cluster c)',
        '  expectations:     update issued at 2026-01-01T00:02:00.000Z not yet seen',
        'History (Events):',
        '  2026-01-01T00:00:00Z  Normal SuccessfulCreate on StatefulSet/web: create Claim data-web-2 Pod web-2 in StatefulSet web success → its volume claim created',
        '  2026-01-01T00:00:01Z  Normal SuccessfulCreate on StatefulSet/web: create Pod web-2 in StatefulSet web successful → created by the StatefulSet',
        '  2026-01-01T00:02:00Z  Normal SuccessfulUpdatePodInPlace on StatefulSet/web: successfully update pod web-2 in-place(revision web-new) → updated in place',
        '',
      ].join('\n'),
    );
  });

  it('a pod below the partition keeps the current revision; specified delete; being deleted', () => {
    const p = pod(1, 'web-old', { 'apps.kruise.io/specified-delete': 'true' });
    p.metadata.deletionTimestamp = '2026-01-01T00:05:00Z';
    const lines = statefulSetWhyReport({
      namespace: 'ns',
      name: 'web-1',
      pod: p,
      statefulSet: webSet(),
      statefulSetName: 'web',
      events: [],
      stateNote: 'not read (no --table): expectations unknown',
    }).split('\n');
    expect(lines.slice(2)).toEqual([
      '  ordinal:          1 (kept by the 3 replicas)',
      '  created:          2026-01-01T00:00:00Z',
      '  revision:         web-old (the current revision; the update revision is web-new)',
      '  partition:        ordinal 1 < partition 2: kept at the current revision by the partition',
      '  lifecycle state:  (none: Normal)',
      '  specified-delete: true: the StatefulSet deletes this pod and creates it again',
      '  in-place update:  none recorded',
      '  deleting:         since 2026-01-01T00:05:00Z',
      '  state:            not read (no --table): expectations unknown',
      '  expectations:     not read',
      'History (Events): none kept',
      '',
    ]);
  });

  it('OnDelete, unorderedUpdate and a paused rollout say so', () => {
    const partitionOf = (sts: StatefulSet): string | undefined =>
      statefulSetWhyReport({
        namespace: 'ns',
        name: 'web-0',
        pod: pod(0, 'web-old'),
        statefulSet: sts,
        statefulSetName: 'web',
        events: [],
        stateNote: 'not read',
      })
        .split('\n')
        .find((l) => l.startsWith('  partition:'));
    expect(partitionOf(webSet((s) => (s.spec.updateStrategy = { type: 'OnDelete' })))).toBe(
      '  partition:        OnDelete: the pod is updated only when it is deleted',
    );
    expect(
      partitionOf(
        webSet((s) => (s.spec.updateStrategy = { rollingUpdate: { partition: 1, unorderedUpdate: {} } })),
      ),
    ).toBe('  partition:        unorderedUpdate: 2 of 3 pods are updated, chosen by priority');
    expect(partitionOf(webSet((s) => (s.spec.updateStrategy = { rollingUpdate: { paused: true } })))).toBe(
      '  partition:        ordinal 0 ≥ partition 0: in the update partition, updated to the update revision (the rollout is paused)',
    );
  });

  it('a pod that is gone, condemned by a scale-down: the ordinal and the Events', () => {
    const report = statefulSetWhyReport({
      namespace: 'ns',
      name: 'web-3',
      statefulSet: webSet(),
      statefulSetName: 'web',
      events: [
        event('SuccessfulDelete', 'delete Pod web-3 in StatefulSet web successful', '2026-01-01T00:03:00Z'),
        event(
          'FailedCreate',
          'create Pod web-3 in StatefulSet web failed error: quota',
          '2026-01-01T00:01:00Z',
          'Warning',
        ),
      ],
      stateNote: 'not read',
    });
    expect(report.split('\n')).toEqual([
      'Pod ns/web-3',
      '  StatefulSet:      web (apps.kruise.io)',
      '  ordinal:          3 (outside the range of 3 replicas: condemned, deleted by scale-down)',
      '  pod:              gone: what is left is the state and the Events',
      '  state:            not read',
      '  expectations:     not read',
      'History (Events):',
      '  2026-01-01T00:01:00Z  Warning FailedCreate on StatefulSet/web: create Pod web-3 in StatefulSet web failed error: quota → create failed',
      '  2026-01-01T00:03:00Z  Normal SuccessfulDelete on StatefulSet/web: delete Pod web-3 in StatefulSet web successful → deleted by the StatefulSet',
      '',
    ]);
  });

  it('a reserved ordinal, and a set that is gone', () => {
    const lines = statefulSetWhyReport({
      namespace: 'ns',
      name: 'web-1',
      pod: pod(1, 'web-old'),
      statefulSet: webSet((s) => (s.spec.reserveOrdinals = [1])),
      statefulSetName: 'web',
      events: [],
      stateNote: 'not read',
    }).split('\n');
    expect(lines[2]).toBe('  ordinal:          1 (reserved by reserveOrdinals: condemned, deleted)');
    const gone = statefulSetWhyReport({
      namespace: 'ns',
      name: 'web-1',
      pod: pod(1, 'web-old'),
      statefulSetName: 'web',
      events: [],
      stateNote: 'not read',
    }).split('\n');
    expect(gone.slice(1, 5)).toEqual([
      '  StatefulSet:      web (apps.kruise.io) (gone)',
      '  ordinal:          1',
      '  created:          2026-01-01T00:00:00Z',
      '  revision:         web-old',
    ]);
  });
});

describe('Advanced StatefulSet why report: ordinals.start (gate StatefulSetStartOrdinal)', () => {
  /** 3 replicas from ordinal 5 (ordinals 5, 6, 7), partition 1: slots 1 and 2 (ordinals 6, 7) are updated. */
  const fromFive = webSet((s) => {
    s.spec.ordinals = { start: 5 };
    s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 1 } };
  });
  const report = (ordinal: number, startOrdinalGate?: boolean) =>
    statefulSetWhyReport({
      namespace: 'ns',
      name: `web-${ordinal}`,
      pod: pod(ordinal, 'web-new'),
      statefulSet: fromFive,
      statefulSetName: 'web',
      events: [],
      stateNote: 'not read',
      ...(startOrdinalGate !== undefined ? { startOrdinalGate } : {}),
    })
      .split('\n')
      .filter((l) => /^ {2}(ordinal|partition):/.test(l));

  it('gate on: ordinals count from spec.ordinals.start, as the planner counts them', () => {
    expect(report(5, true)).toEqual([
      '  ordinal:          5 (kept by the 3 replicas from ordinal 5)',
      '  partition:        ordinal 5 < partition 1: kept at the current revision by the partition',
    ]);
    expect(report(7, true)).toEqual([
      '  ordinal:          7 (kept by the 3 replicas from ordinal 5)',
      '  partition:        ordinal 7 ≥ partition 1: in the update partition, updated to the update revision',
    ]);
    expect(report(8, true)[0]).toBe(
      '  ordinal:          8 (outside the range of 3 replicas from ordinal 5: condemned, deleted by scale-down)',
    );
    expect(report(1, true)[0]).toBe(
      '  ordinal:          1 (below ordinals.start 5: condemned, deleted by scale-down)',
    );
  });

  it('gate off (the default, OpenKruise v1.9.0): from 0, and the ignored start is named', () => {
    expect(report(5)).toEqual([
      '  ordinal:          5 (outside the range of 3 replicas: condemned, deleted by scale-down; ordinals.start 5 ignored: gate StatefulSetStartOrdinal is off (--feature-gates))',
      '  partition:        ordinal 5 ≥ partition 1: in the update partition, updated to the update revision',
    ]);
    expect(report(1, false)).toEqual([
      '  ordinal:          1 (kept by the 3 replicas; ordinals.start 5 ignored: gate StatefulSetStartOrdinal is off (--feature-gates))',
      '  partition:        ordinal 1 ≥ partition 1: in the update partition, updated to the update revision',
    ]);
  });
});
