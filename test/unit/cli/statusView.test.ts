/** The rollout-status lines of kubectl / kubectl-kruise, one case per branch, exact text. */
import { describe, expect, it } from '@jest/globals';
import type { CloneSet, CloneSetStatus } from '../../../lib/api/types.js';
import { CliError } from '../../../lib/cli/io.js';
import { rolloutStatus, statefulSetRolloutStatus } from '../../../lib/cli/statusView.js';
import type { StatefulSet, StatefulSetStatus } from '../../../lib/controllers/statefulset/api/types.js';

function cs(
  status: Partial<CloneSetStatus> | undefined,
  spec: Partial<CloneSet['spec']> = {},
  generation = 2,
): CloneSet {
  return {
    metadata: { name: 'web', generation },
    spec: { replicas: 3, selector: {}, template: { spec: { containers: [] } }, ...spec },
    ...(status
      ? {
          status: {
            observedGeneration: 2,
            replicas: 3,
            readyReplicas: 3,
            availableReplicas: 3,
            updatedReplicas: 3,
            updatedReadyReplicas: 3,
            updatedAvailableReplicas: 3,
            ...status,
          },
        }
      : {}),
  };
}

describe('rolloutStatus', () => {
  it.each<[string, CloneSet, string, boolean]>([
    ['no status yet', cs(undefined), 'Waiting for CloneSet spec update to be observed...', false],
    [
      'spec not observed',
      cs({ observedGeneration: 1 }),
      'Waiting for CloneSet spec update to be observed...',
      false,
    ],
    [
      'updating',
      cs({ updatedReplicas: 1 }),
      'Waiting for rollout to finish: 1 out of 3 new replicas have been updated...',
      false,
    ],
    [
      'old replicas left',
      cs({ replicas: 4 }),
      'Waiting for rollout to finish: 1 old replicas are pending termination...',
      false,
    ],
    [
      'not available',
      cs({ updatedAvailableReplicas: 2 }),
      'Waiting for rollout to finish: 2 of 3 updated replicas are available...',
      false,
    ],
    ['complete', cs({}), 'cloneset "web" successfully rolled out', true],
    [
      'partition pending',
      cs({ updatedReplicas: 1 }, { updateStrategy: { partition: 1 } }),
      'Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...',
      false,
    ],
    [
      'partition (percent, rounded up) not ready',
      cs({ updatedReplicas: 2, updatedReadyReplicas: 1 }, { updateStrategy: { partition: '10%' } }),
      'Waiting for partitioned roll out to finish: 1 of 2 updated pods are ready...',
      false,
    ],
    [
      'partition reached',
      cs({ updatedReplicas: 2, updatedReadyReplicas: 2 }, { updateStrategy: { partition: 1 } }),
      'partitioned roll out complete: 2 new pods have been updated...',
      true,
    ],
  ])('%s', (_name, input, message, done) => {
    expect(rolloutStatus(input)).toEqual({ message, done });
  });

  it('fails when the progress deadline is exceeded', () => {
    const input = cs({
      conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }],
    });
    expect(() => rolloutStatus(input)).toThrow(new CliError('cloneset "web" exceeded its progress deadline'));
  });
});

function sts(
  status: Partial<StatefulSetStatus> | undefined,
  spec: Partial<StatefulSet['spec']> = {},
  generation = 2,
): StatefulSet {
  return {
    metadata: { name: 'db', generation },
    spec: { replicas: 3, selector: {}, template: { spec: { containers: [] } }, ...spec },
    ...(status
      ? {
          status: {
            observedGeneration: 2,
            replicas: 3,
            readyReplicas: 3,
            availableReplicas: 3,
            currentReplicas: 3,
            updatedReplicas: 3,
            updateRevision: 'db-7b9c5d',
            ...status,
          },
        }
      : {}),
  };
}

describe('statefulSetRolloutStatus (kubectl-kruise AdvancedStatefulSetStatusViewer)', () => {
  const partition = (p: number): Partial<StatefulSet['spec']> => ({
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: p } },
  });
  it.each<[string, StatefulSet, string, boolean]>([
    [
      'no status yet: the update count comes first',
      sts(undefined),
      'Waiting for partitioned roll out to finish:0 out of 3 new pods has been updated...',
      false,
    ],
    [
      'updating, no partition (unset counts as 0)',
      sts({ updatedReplicas: 1 }),
      'Waiting for partitioned roll out to finish:1 out of 3 new pods has been updated...',
      false,
    ],
    [
      'partition 2 of 3: one updated pod is enough',
      sts({ updatedReplicas: 1 }, partition(2)),
      'Advanced StatefulSet rolling update complete 3 pods at revision db-7b9c5d...',
      true,
    ],
    [
      'OnDelete: no update count',
      sts({ updatedReplicas: 0, readyReplicas: 2 }, { updateStrategy: { type: 'OnDelete' } }),
      'Waiting for 1 pods to be ready...',
      false,
    ],
    [
      'spec not observed',
      sts({ observedGeneration: 1 }),
      'Waiting for Advanced StatefulSet spec update to be observed...',
      false,
    ],
    ['pods not ready', sts({ readyReplicas: 1 }), 'Waiting for 2 pods to be ready...', false],
    [
      'complete: available pods and the update revision',
      sts({ availableReplicas: 2 }),
      'Advanced StatefulSet rolling update complete 2 pods at revision db-7b9c5d...',
      true,
    ],
  ])('%s', (_name, set, message, done) => {
    expect(statefulSetRolloutStatus(set)).toEqual({ message, done });
  });
});
