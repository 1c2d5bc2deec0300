/**
 * The Advanced StatefulSet status as OpenKruise writes it: the fields its JSON tags keep (`StatefulSetStatus`'s
 * `omitempty`), and `volumeClaims` (`updatePVCStatus`, pkg/util/pvc `IsPVCCompatibleAndReady`).
 */
import type { PersistentVolumeClaim } from '../../../../../lib/api/types.js';
import type { StatefulSetStatus } from '../../../../../lib/controllers/statefulset/api/types.js';
import {
  statusAsWritten,
  volumeClaimStatuses,
} from '../../../../../lib/controllers/statefulset/plan/status.js';
import { EARLIER, NOW, planStatefulSet, pod, revisionOf, statefulSet } from './support.js';

const ZERO: StatefulSetStatus = {
  replicas: 0,
  readyReplicas: 0,
  availableReplicas: 0,
  currentReplicas: 0,
  updatedReplicas: 0,
};

describe('statusAsWritten (StatefulSetStatus JSON tags)', () => {
  test.each<[string, StatefulSetStatus, StatefulSetStatus]>([
    [
      'zero omitempty fields are left out; the five counts and collisionCount 0 stay',
      {
        ...ZERO,
        observedGeneration: 0,
        updatedReadyReplicas: 0,
        updatedAvailableReplicas: 0,
        currentRevision: '',
        updateRevision: '',
        collisionCount: 0,
        conditions: [],
        labelSelector: '',
        volumeClaims: [],
      },
      { ...ZERO, collisionCount: 0 },
    ],
    [
      'set fields are kept',
      {
        ...ZERO,
        replicas: 2,
        observedGeneration: 3,
        updatedReadyReplicas: 1,
        updatedAvailableReplicas: 1,
        currentRevision: 'web-a',
        updateRevision: 'web-b',
        collisionCount: 1,
        conditions: [{ type: 'FailedCreatePod', status: 'True', message: 'm' }],
        labelSelector: 'app=web',
        volumeClaims: [{ volumeClaimName: 'data', compatibleReplicas: 0, compatibleReadyReplicas: 0 }],
      },
      {
        ...ZERO,
        replicas: 2,
        observedGeneration: 3,
        updatedReadyReplicas: 1,
        updatedAvailableReplicas: 1,
        currentRevision: 'web-a',
        updateRevision: 'web-b',
        collisionCount: 1,
        conditions: [{ type: 'FailedCreatePod', status: 'True', message: 'm' }],
        labelSelector: 'app=web',
        volumeClaims: [{ volumeClaimName: 'data', compatibleReplicas: 0, compatibleReadyReplicas: 0 }],
      },
    ],
    ['undefined stays absent', { ...ZERO }, { ...ZERO }],
  ])('%s', (_what, status, expected) => {
    expect(statusAsWritten(status)).toStrictEqual(expected);
  });

  test('a pass over pods that are not Ready writes no updatedReadyReplicas/updatedAvailableReplicas', () => {
    const sts = statefulSet(2, 'nginx:1', (s) => (s.spec.podManagementPolicy = 'Parallel'));
    const rev = revisionOf(sts).metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: [pod(0, rev, { ready: false }), pod(1, rev, { ready: false })],
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(plan.status).toStrictEqual({
      observedGeneration: 1,
      replicas: 2,
      readyReplicas: 0,
      availableReplicas: 0,
      currentReplicas: 2,
      updatedReplicas: 2,
      currentRevision: rev,
      updateRevision: rev,
      collisionCount: 0,
      labelSelector: 'app=web',
    });
  });
});

/** The PVC `<template>-web-<ordinal>` with a request, a capacity, and optionally a class, modes or deletion. */
function claim(
  name: string,
  request: string | undefined,
  capacity: string | undefined,
  opts: { storageClassName?: string; accessModes?: string[]; deleting?: boolean } = {},
): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'ns', ...(opts.deleting ? { deletionTimestamp: EARLIER } : {}) },
    spec: {
      accessModes: opts.accessModes ?? ['ReadWriteOnce'],
      ...(opts.storageClassName ? { storageClassName: opts.storageClassName } : {}),
      ...(request ? { resources: { requests: { storage: request } } } : {}),
    },
    status: capacity ? { phase: 'Bound', capacity: { storage: capacity } } : { phase: 'Pending' },
  };
}

/** A set with templates `data` (1Gi, class `fast` when asked) and `logs` (no request), ReadWriteOnce. */
const withTemplates = (fast = false) =>
  statefulSet(4, 'nginx:1', (s) => {
    s.spec.volumeClaimTemplates = [
      {
        metadata: { name: 'data' },
        spec: {
          accessModes: ['ReadWriteOnce'],
          ...(fast ? { storageClassName: 'fast' } : {}),
          resources: { requests: { storage: '1Gi' } },
        },
      },
      { metadata: { name: 'logs' }, spec: { accessModes: ['ReadWriteOnce'] } },
    ];
  });

describe('volumeClaimStatuses (upstream updatePVCStatus)', () => {
  test('no templates: none', () => {
    expect(volumeClaimStatuses(statefulSet(1), [pod(0, 'r')], [])).toEqual([]);
  });

  test('per template, in template order: compatible claims, and those whose capacity reaches the request', () => {
    const sts = withTemplates();
    const pvcs = [
      claim('data-web-0', '1Gi', '1Gi'), // compatible, ready
      claim('data-web-1', '2Gi', '1024Mi'), // more than the template: compatible; capacity short: not ready
      claim('data-web-2', '512Mi', '512Mi'), // less than the template (it grew): not compatible
      claim('data-web-3', '1Gi', '1Gi', { deleting: true }), // terminating: not counted
      claim('logs-web-0', undefined, undefined), // no request on either side: compatible, 0 ≥ 0 ready
      claim('logs-web-1', '1Gi', undefined), // compatible; no capacity: not ready
      claim('logs-web-2', '1Gi', '1Gi', { accessModes: ['ReadWriteMany'] }), // other access modes
      claim('data-other-0', '1Gi', '1Gi'), // not this set's name
    ];
    const pods = [pod(0, 'r'), pod(1, 'r'), undefined, pod(2, 'r'), pod(3, 'r')];
    expect(volumeClaimStatuses(sts, pods, pvcs)).toEqual([
      { volumeClaimName: 'data', compatibleReplicas: 2, compatibleReadyReplicas: 1 },
      { volumeClaimName: 'logs', compatibleReplicas: 2, compatibleReadyReplicas: 1 },
    ]);
  });

  test('storage class: a template with one matches only that class or none; a template without, any', () => {
    const pvcs = [
      claim('data-web-0', '1Gi', '1Gi', { storageClassName: 'fast' }),
      claim('data-web-1', '1Gi', '1Gi', { storageClassName: 'slow' }),
      claim('data-web-2', '1Gi', '1Gi'),
    ];
    const pods = [pod(0, 'r'), pod(1, 'r'), pod(2, 'r')];
    expect(volumeClaimStatuses(withTemplates(true), pods, pvcs)[0]).toEqual({
      volumeClaimName: 'data',
      compatibleReplicas: 2,
      compatibleReadyReplicas: 2,
    });
    expect(volumeClaimStatuses(withTemplates(false), pods, pvcs)[0]).toEqual({
      volumeClaimName: 'data',
      compatibleReplicas: 3,
      compatibleReadyReplicas: 3,
    });
  });

  test('the plan writes it over the replica slots, a pod not created yet counting when its claim exists', () => {
    const sts = withTemplates();
    sts.spec.replicas = 2;
    const rev = revisionOf(sts).metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: sts,
      // web-1 is missing: its retained claim is there; web-5 is condemned: its claim is not counted
      pods: [pod(0, rev), pod(5, rev)],
      pvcs: [
        claim('data-web-0', '1Gi', '1Gi'),
        claim('data-web-1', '1Gi', '1Gi'),
        claim('data-web-5', '1Gi', '1Gi'),
      ],
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(plan.status.volumeClaims).toEqual([
      { volumeClaimName: 'data', compatibleReplicas: 2, compatibleReadyReplicas: 2 },
      { volumeClaimName: 'logs', compatibleReplicas: 0, compatibleReadyReplicas: 0 },
    ]);
  });
});
