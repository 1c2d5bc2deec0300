/**
 * The rollout-status lines of an Advanced DaemonSet (kubectl's DaemonSet words, plus partition, node selector and
 * paused), exact text.
 */
import { describe, expect, it } from '@jest/globals';
import type { Node } from '../../../lib/api/node.js';
import type { Pod } from '../../../lib/api/types.js';
import { CliError } from '../../../lib/cli/io.js';
import {
  daemonSetRolloutStatus,
  needsNodeScope,
  type DaemonSetNodeScope,
} from '../../../lib/cli/statusDaemonSetView.js';
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

describe('daemonSetRolloutStatus under rollingUpdate.selector', () => {
  // four nodes, n0 and n1 in the canary pool; the update revision is `new`
  const node = (name: string, pool: string): Node => ({ metadata: { name, labels: { pool } } });
  const nodes = [node('n0', 'canary'), node('n1', 'canary'), node('n2', 'main'), node('n3', 'main')];
  const pod = (nodeName: string, hash: string): Pod => ({
    metadata: { name: `agent-${nodeName}`, labels: { 'controller-revision-hash': hash } },
    spec: { nodeName, containers: [] },
  });
  const scope = (...hashes: string[]): DaemonSetNodeScope => ({
    nodes,
    pods: hashes.map((h, i) => pod(`n${i}`, h)),
  });
  const canary = (
    status: Partial<DaemonSetStatus>,
    extra: Partial<RollingUpdateDaemonSet> = {},
    pool = 'canary',
  ): DaemonSet => ds({ updateRevision: 'new', ...status }, { selector: { matchLabels: { pool } }, ...extra });

  it.each<[string, DaemonSet, DaemonSetNodeScope, string, boolean]>([
    [
      'only the selected nodes are waited for',
      canary({ updatedNumberScheduled: 1 }),
      scope('new', 'old', 'old', 'old'),
      'Waiting for daemon set "agent" partitioned roll out to finish: 1 out of 2 new pods have been updated...',
      false,
    ],
    [
      'every selected node updated: complete, the others kept old',
      canary({ updatedNumberScheduled: 2 }),
      scope('new', 'new', 'old', 'old'),
      'daemon set "agent" partitioned roll out complete: 2 new pods have been updated...',
      true,
    ],
    [
      'a node labelled out of the selector after its update still counts, as the controller keeps it updated',
      canary({ updatedNumberScheduled: 2 }),
      scope('new', 'old', 'new', 'old'),
      'Waiting for daemon set "agent" partitioned roll out to finish: 2 out of 3 new pods have been updated...',
      false,
    ],
    [
      'a node without a pod counts: its new pod comes at the update revision',
      canary({ updatedNumberScheduled: 1 }),
      scope('new', 'new', 'old'),
      'Waiting for daemon set "agent" partitioned roll out to finish: 1 out of 3 new pods have been updated...',
      false,
    ],
    [
      'a selector with a partition: the smaller of the two',
      canary({ updatedNumberScheduled: 1 }, { partition: 3 }),
      scope('new', 'old', 'old', 'old'),
      'daemon set "agent" partitioned roll out complete: 1 new pods have been updated...',
      true,
    ],
    [
      'a selector matching every node is a whole rollout',
      ds(
        { updateRevision: 'new', updatedNumberScheduled: 1 },
        { selector: { matchExpressions: [{ key: 'pool', operator: 'Exists' }] } },
      ),
      scope('new', 'old', 'old', 'old'),
      'Waiting for daemon set "agent" rollout to finish: 1 out of 4 new pods have been updated...',
      false,
    ],
    [
      'a selector matching no node, nothing updated yet: complete with none',
      canary({ updatedNumberScheduled: 0 }, {}, 'none'),
      scope('old', 'old', 'old', 'old'),
      'daemon set "agent" partitioned roll out complete: 0 new pods have been updated...',
      true,
    ],
    [
      'selected pods not all available yet',
      canary({ updatedNumberScheduled: 2, numberAvailable: 3 }),
      scope('new', 'new', 'old', 'old'),
      'Waiting for daemon set "agent" partitioned roll out to finish: 3 of 4 updated pods are available...',
      false,
    ],
  ])('%s', (_case, daemonSet, nodeScope, message, done) => {
    expect(needsNodeScope(daemonSet)).toBe(true);
    expect(daemonSetRolloutStatus(daemonSet, nodeScope)).toEqual({ message, done });
  });

  it('needs no nodes without a selector', () => {
    expect(needsNodeScope(ds({}, { partition: 1 }))).toBe(false);
  });
});
