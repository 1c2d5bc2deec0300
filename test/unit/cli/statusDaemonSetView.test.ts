/** The rollout-status lines of an Advanced DaemonSet (kubectl's DaemonSet words, plus partition and paused), exact text. */
import { describe, expect, it } from '@jest/globals';
import { CliError } from '../../../lib/cli/io.js';
import { daemonSetRolloutStatus } from '../../../lib/cli/statusDaemonSetView.js';
import type {
  DaemonSet,
  DaemonSetStatus,
  RollingUpdateDaemonSet,
} from '../../../lib/controllers/daemonset/api/types.js';

function ds(
  status: Partial<DaemonSetStatus> | undefined,
  rollingUpdate?: RollingUpdateDaemonSet,
  generation = 2,
): DaemonSet {
  return {
    metadata: { name: 'agent', generation },
    spec: {
      template: { spec: { containers: [] } },
      ...(rollingUpdate ? { updateStrategy: { type: 'RollingUpdate', rollingUpdate } } : {}),
    },
    ...(status
      ? {
          status: {
            observedGeneration: 2,
            desiredNumberScheduled: 4,
            currentNumberScheduled: 4,
            numberMisscheduled: 0,
            numberReady: 4,
            updatedNumberScheduled: 4,
            numberAvailable: 4,
            ...status,
          },
        }
      : {}),
  };
}

describe('daemonSetRolloutStatus', () => {
  it.each<[string, DaemonSet, string, boolean]>([
    ['no status yet', ds(undefined), 'Waiting for daemon set spec update to be observed...', false],
    [
      'generation not observed',
      ds({ observedGeneration: 1 }),
      'Waiting for daemon set spec update to be observed...',
      false,
    ],
    [
      'updating',
      ds({ updatedNumberScheduled: 1 }),
      'Waiting for daemon set "agent" rollout to finish: 1 out of 4 new pods have been updated...',
      false,
    ],
    [
      'updating, paused',
      ds({ updatedNumberScheduled: 1 }, { paused: true }),
      'Waiting for daemon set "agent" rollout to finish: 1 out of 4 new pods have been updated (paused)...',
      false,
    ],
    [
      'availability',
      ds({ numberAvailable: 3 }),
      'Waiting for daemon set "agent" rollout to finish: 3 of 4 updated pods are available...',
      false,
    ],
    [
      'availability while paused: paused holds updates only',
      ds({ numberAvailable: 3 }, { paused: true }),
      'Waiting for daemon set "agent" rollout to finish: 3 of 4 updated pods are available...',
      false,
    ],
    ['done', ds({}), 'daemon set "agent" successfully rolled out', true],
    [
      'done, paused after the rollout',
      ds({}, { paused: true }),
      'daemon set "agent" successfully rolled out',
      true,
    ],
    [
      'partition: fewer than desired − partition updated',
      ds({ updatedNumberScheduled: 1 }, { partition: 1 }),
      'Waiting for daemon set "agent" partitioned roll out to finish: 1 out of 3 new pods have been updated...',
      false,
    ],
    [
      'partition, paused',
      ds({ updatedNumberScheduled: 0 }, { partition: 2, paused: true }),
      'Waiting for daemon set "agent" partitioned roll out to finish: 0 out of 2 new pods have been updated (paused)...',
      false,
    ],
    [
      'partition reached, pods not all available',
      ds({ updatedNumberScheduled: 3, numberAvailable: 2 }, { partition: 1 }),
      'Waiting for daemon set "agent" partitioned roll out to finish: 2 of 4 updated pods are available...',
      false,
    ],
    [
      'partition reached',
      ds({ updatedNumberScheduled: 3 }, { partition: 1 }),
      'daemon set "agent" partitioned roll out complete: 3 new pods have been updated...',
      true,
    ],
    [
      'partition as a percentage of desired, rounded down (50% of 3 is 1)',
      ds({ desiredNumberScheduled: 3, updatedNumberScheduled: 1, numberAvailable: 3 }, { partition: '50%' }),
      'Waiting for daemon set "agent" partitioned roll out to finish: 1 out of 2 new pods have been updated...',
      false,
    ],
    [
      'partition at or above desired: complete with none updated',
      ds({ updatedNumberScheduled: 0 }, { partition: 9 }),
      'daemon set "agent" partitioned roll out complete: 0 new pods have been updated...',
      true,
    ],
    [
      'an unreadable partition counts as none',
      ds({ updatedNumberScheduled: 3 }, { partition: 'two' }),
      'Waiting for daemon set "agent" rollout to finish: 3 out of 4 new pods have been updated...',
      false,
    ],
  ])('%s', (_case, daemonSet, message, done) => {
    expect(daemonSetRolloutStatus(daemonSet)).toEqual({ message, done });
  });

  it("refuses an OnDelete DaemonSet with kubectl's words", () => {
    const onDelete = ds({});
    onDelete.spec.updateStrategy = { type: 'OnDelete' };
    expect(() => daemonSetRolloutStatus(onDelete)).toThrow(
      new CliError('rollout status is only available for RollingUpdate strategy type'),
    );
  });
});
