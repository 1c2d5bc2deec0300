/**
 * The Advanced StatefulSet status as OpenKruise writes it: the fields its JSON tags keep (`StatefulSetStatus`'s
 * `omitempty`).
 */
import type { StatefulSetStatus } from '../../../../../lib/controllers/statefulset/api/types.js';
import { planStatefulSet } from '../../../../../lib/controllers/statefulset/plan/index.js';
import { statusAsWritten } from '../../../../../lib/controllers/statefulset/plan/status.js';
import { NOW, pod, revisionOf, statefulSet } from './support.js';

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
