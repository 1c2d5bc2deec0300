import type { Pod } from '../../../../../lib/api/types.js';
import type { Action } from '../../../../../lib/podset/actions.js';
import { revisionData } from '../../../../../lib/controllers/cloneset/plan/revision/revision.js';
import type { StatefulSet } from '../../../../../lib/controllers/statefulset/api/types.js';
import { podsToUpdate } from '../../../../../lib/controllers/statefulset/plan/update.js';
import { NOW, planStatefulSet, pod, revisionOf, statefulSet } from './support.js';

function summary(actions: readonly Action[]): string[] {
  return actions.map((a) =>
    a.type === 'DeletePod'
      ? `DeletePod ${a.pod.name} ${a.reason}`
      : a.type === 'PatchPod' || a.type === 'PatchPodStatus'
        ? `${a.type} ${a.pod.name} ${a.reason}`
        : a.type === 'CreatePod'
          ? `CreatePod ${a.pod.metadata.name ?? ''}`
          : a.type,
  );
}

/** `n` ready pods of v1, the set moved to image nginx:2 with `edit`, and both revisions listed. */
function rollout(
  n: number,
  edit: (s: StatefulSet) => void = () => {},
  podsAt: (i: number, old: string) => Pod = pod,
) {
  const old = statefulSet(n, 'nginx:1', edit);
  const oldRev = revisionOf(old, 1);
  const next = statefulSet(n, 'nginx:2', edit);
  next.status = {
    replicas: n,
    readyReplicas: n,
    availableReplicas: n,
    currentReplicas: n,
    updatedReplicas: n,
    currentRevision: oldRev.metadata.name,
    updateRevision: oldRev.metadata.name,
  };
  const newRev = revisionOf(next, 2);
  const pods = Array.from({ length: n }, (_, i) => podsAt(i, oldRev.metadata.name ?? ''));
  return { next, oldRev, newRev, pods };
}

describe('rolling update (upstream TestStatefulSetControlRollingUpdate*)', () => {
  test('a new template creates revision 2; the highest ordinal is deleted first; maxUnavailable 1 stops there', () => {
    const { next, oldRev, newRev, pods } = rollout(3);
    const plan = planStatefulSet({ statefulSet: next, pods, revisions: [oldRev], now: NOW });
    expect(plan.revisions).toMatchObject({
      currentRevision: oldRev.metadata.name,
      updateRevision: newRev.metadata.name,
      create: newRev,
    });
    expect(summary(plan.actions)).toEqual(['DeletePod web-2 RecreateUpdate']);
    expect(plan.halt).toBe('waiting for unavailable pods (web-2) before updating web-1');
    expect(plan.status).toMatchObject({ currentReplicas: 2, updatedReplicas: 0, replicas: 3 });
  });

  test('the recreated pod comes at the update revision; then the next one waits for it to be ready', () => {
    const { next, oldRev, newRev, pods } = rollout(3);
    const newName = newRev.metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: next,
      pods: [pods[0], pods[1], pod(2, newName, { ready: false })],
      revisions: [oldRev, newRev],
      now: NOW,
    });
    expect(summary(plan.actions)).toEqual([]);
    expect(plan.halt).toBe('waiting for pod web-2 to be running and available');
  });

  test('partition 2 of 3 updates only web-2; web-0 and web-1 stay on the current revision', () => {
    const { next, oldRev, newRev, pods } = rollout(3, (s) => {
      s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 2 } };
    });
    const plan = planStatefulSet({ statefulSet: next, pods, revisions: [oldRev], now: NOW });
    expect(summary(plan.actions)).toEqual(['DeletePod web-2 RecreateUpdate']);
    const after = planStatefulSet({
      statefulSet: next,
      pods: [pods[0], pods[1], pod(2, newRev.metadata.name ?? '')],
      revisions: [oldRev, newRev],
      now: NOW,
    });
    expect(summary(after.actions)).toEqual([]);
    expect(after.status).toMatchObject({ currentReplicas: 2, updatedReplicas: 1, updatedReadyReplicas: 1 });
  });

  test('with reserved ordinals the partition counts pods: replicas 4, reserve [1], partition 2 → web-4 and web-3', () => {
    const edit = (s: StatefulSet) => {
      s.spec.podManagementPolicy = 'Parallel';
      s.spec.reserveOrdinals = [1];
      s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 2, maxUnavailable: 4 } };
    };
    const { next, oldRev } = rollout(4, edit);
    const old = oldRev.metadata.name ?? '';
    const pods = [0, 2, 3, 4].map((o) => pod(o, old));
    const plan = planStatefulSet({ statefulSet: next, pods, revisions: [oldRev], now: NOW });
    expect(summary(plan.actions)).toEqual([
      'DeletePod web-4 RecreateUpdate',
      'DeletePod web-3 RecreateUpdate',
    ]);
  });

  test('a new pod inside the partition is created at the current revision', () => {
    const { next, oldRev, newRev, pods } = rollout(3, (s) => {
      s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 2 } };
    });
    const plan = planStatefulSet({
      statefulSet: next,
      pods: [pods[1], pods[2]],
      revisions: [oldRev, newRev],
      now: NOW,
    });
    const create = plan.actions[0] as Extract<Action, { type: 'CreatePod' }>;
    expect(create.pod.metadata.name).toBe('web-0');
    expect(create.revision).toBe(oldRev.metadata.name);
    expect(create.pod.spec.containers[0].image).toBe('nginx:1');
  });

  test('Parallel with maxUnavailable 2 deletes two pods at once', () => {
    const { next, oldRev, pods } = rollout(3, (s) => {
      s.spec.podManagementPolicy = 'Parallel';
      s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } };
    });
    const plan = planStatefulSet({ statefulSet: next, pods, revisions: [oldRev], now: NOW });
    expect(summary(plan.actions)).toEqual([
      'DeletePod web-2 RecreateUpdate',
      'DeletePod web-1 RecreateUpdate',
    ]);
  });

  test('paused: nothing is updated', () => {
    const { next, oldRev, pods } = rollout(3, (s) => {
      s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { paused: true } };
    });
    const plan = planStatefulSet({ statefulSet: next, pods, revisions: [oldRev], now: NOW });
    expect(summary(plan.actions)).toEqual([]);
    expect(plan.halt).toBe('paused');
  });

  test('OnDelete: nothing is updated, a deleted pod comes back at the update revision', () => {
    const { next, oldRev, newRev, pods } = rollout(3, (s) => (s.spec.updateStrategy = { type: 'OnDelete' }));
    const plan = planStatefulSet({ statefulSet: next, pods, revisions: [oldRev], now: NOW });
    expect(summary(plan.actions)).toEqual([]);
    const recreated = planStatefulSet({
      statefulSet: next,
      pods: [pods[0], pods[2]],
      revisions: [oldRev, newRev],
      now: NOW,
    });
    const create = recreated.actions[0] as Extract<Action, { type: 'CreatePod' }>;
    expect(create.revision).toBe(newRev.metadata.name);
  });

  test('specified delete ignores the partition and goes first, highest ordinal first', () => {
    const { next, oldRev, pods } = rollout(
      3,
      (s) => (s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 3 } }),
      (i, old) => pod(i, old, i === 0 ? { labels: { 'apps.kruise.io/specified-delete': 'true' } } : {}),
    );
    const plan = planStatefulSet({ statefulSet: next, pods, revisions: [oldRev], now: NOW });
    expect(summary(plan.actions)).toEqual(['DeletePod web-0 SpecifiedDelete']);
    expect(plan.status.currentReplicas).toBe(2);
  });

  test('InPlaceIfPossible: an image change is made in place, highest ordinal first', () => {
    const edit = (s: StatefulSet) => {
      s.spec.updateStrategy = {
        type: 'RollingUpdate',
        rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' },
      };
      s.spec.template.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
    };
    const { next, oldRev, newRev, pods } = rollout(3, edit, (i, old) => {
      const p = pod(i, old);
      p.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
      p.status!.conditions!.push({
        type: 'InPlaceUpdateReady',
        status: 'True',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      });
      return p;
    });
    const plan = planStatefulSet({ statefulSet: next, pods, revisions: [oldRev], now: NOW });
    expect(summary(plan.actions)).toEqual([
      'PatchPodStatus web-2 StartInPlaceUpdate',
      'PatchPod web-2 InPlaceUpdate',
    ]);
    const patch = (plan.actions[1] as Extract<Action, { type: 'PatchPod' }>).patch as {
      metadata: { labels: Record<string, string> };
      spec: unknown;
    };
    expect(patch.metadata.labels).toEqual({
      'controller-revision-hash': newRev.metadata.name,
      'lifecycle.apps.kruise.io/state': 'Updating',
    });
    expect(patch.spec).toEqual({ containers: [{ name: 'c', image: 'nginx:2' }] });
    expect(plan.status.currentReplicas).toBe(2);
  });

  test('InPlaceOnly with a change that cannot be made in place is an error', () => {
    const edit = (s: StatefulSet) => {
      s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceOnly' } };
      s.spec.template.spec.readinessGates = [{ conditionType: 'InPlaceUpdateReady' }];
    };
    const { next, oldRev, pods } = rollout(2, edit);
    next.spec.template.spec.containers[0].env = [{ name: 'A', value: '1' }];
    const plan = planStatefulSet({ statefulSet: next, pods, revisions: [oldRev], now: NOW });
    expect(plan.error).toBe('find strategy is InPlaceOnly but Pod web-1 can not update in-place');
    expect(summary(plan.actions)).toEqual([]);
  });

  test('unorderedUpdate with a priority: the heaviest pod first', () => {
    const replicas: Pod[] = [0, 1, 2].map((i) => pod(i, 'old', i === 0 ? { labels: { tier: 'first' } } : {}));
    const sts = statefulSet(3, 'nginx:1', (s) => {
      s.spec.podManagementPolicy = 'Parallel';
      s.spec.updateStrategy = {
        type: 'RollingUpdate',
        rollingUpdate: {
          unorderedUpdate: {
            priorityStrategy: {
              weightPriority: [{ weight: 50, matchSelector: { matchLabels: { tier: 'first' } } }],
            },
          },
        },
      };
    });
    expect(podsToUpdate(sts, 'new', replicas)).toEqual([0, 2, 1]);
  });
});

describe('revisions', () => {
  test('the revision data is CloneSet’s template data, so the names agree for one template', () => {
    const sts = statefulSet(1);
    const rev = revisionOf(sts);
    expect(rev.data).toEqual(
      revisionData(rev.data ? (rev.data as { spec: { template: never } }).spec.template : ({} as never)),
    );
    expect(rev.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(rev.metadata.labels?.['controller.kubernetes.io/hash']).toBe(rev.metadata.name?.slice(4));
  });

  test('rolling back to an older template bumps that revision instead of creating one', () => {
    const { next, oldRev, newRev } = rollout(1);
    const back = statefulSet(1, 'nginx:1');
    back.status = {
      ...next.status!,
      currentRevision: newRev.metadata.name,
      updateRevision: newRev.metadata.name,
    };
    const plan = planStatefulSet({ statefulSet: back, pods: [], revisions: [oldRev, newRev], now: NOW });
    expect(plan.revisions.create).toBeUndefined();
    expect(plan.revisions.bump).toEqual({ name: oldRev.metadata.name, revision: 3 });
    expect(plan.revisions.updateRevision).toBe(oldRev.metadata.name);
  });

  test('history beyond revisionHistoryLimit is deleted oldest first, never a live one', () => {
    const revs = [1, 2, 3, 4].map((n) => revisionOf(statefulSet(1, `nginx:${n}`), n));
    const sts = statefulSet(1, 'nginx:4', (s) => (s.spec.revisionHistoryLimit = 1));
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: [pod(0, revs[1].metadata.name ?? '')],
      revisions: revs,
      now: NOW,
    });
    expect(plan.revisions.deleteNames).toEqual([revs[0].metadata.name]);
  });
});

describe('validation and status', () => {
  test('an invalid spec plans nothing but its errors', () => {
    const sts = statefulSet(1, 'nginx:1', (s) => (s.spec.selector = { matchLabels: { app: 'other' } }));
    const plan = planStatefulSet({ statefulSet: sts, pods: [], revisions: [], now: NOW });
    expect(plan.errors.map((e) => e.path)).toEqual(['spec.template.metadata.labels']);
    expect(plan.actions).toEqual([]);
    expect(plan.statusChanged).toBe(false);
  });

  test('a settled set writes no status; its status records every count', () => {
    const sts = statefulSet(2);
    const rev = revisionOf(sts);
    const name = rev.metadata.name ?? '';
    sts.status = {
      observedGeneration: 1,
      replicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      currentReplicas: 2,
      updatedReplicas: 2,
      updatedReadyReplicas: 2,
      updatedAvailableReplicas: 2,
      currentRevision: name,
      updateRevision: name,
      collisionCount: 0,
      labelSelector: 'app=web',
    };
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: [pod(0, name), pod(1, name)],
      revisions: [rev],
      now: NOW,
    });
    expect(plan.actions).toEqual([]);
    expect(plan.status).toEqual(sts.status);
    expect(plan.statusChanged).toBe(false);
  });
});
