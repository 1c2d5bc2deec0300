import type { Pod } from '../../../../../lib/api/types.js';
import type { Action } from '../../../../../lib/podset/actions.js';
import { NOW, planStatefulSet, pod, revisionOf, statefulSet } from './support.js';

/** `<type> <pod name>` of each action, e.g. `CreatePod web-0`. */
function summary(actions: readonly Action[]): string[] {
  return actions.map((a) => {
    switch (a.type) {
      case 'CreatePod':
        return `CreatePod ${a.pod.metadata.name ?? ''}#${a.batch}`;
      case 'DeletePod':
        return `DeletePod ${a.pod.name} ${a.reason}`;
      case 'PatchPod':
      case 'PatchPodStatus':
        return `${a.type} ${a.pod.name} ${a.reason}`;
      default:
        return a.type;
    }
  });
}

describe('scale up (upstream TestStatefulSetControlScaleUp, OrderedReady vs Parallel)', () => {
  test('OrderedReady 0 → 3 creates web-0 only, at the update revision, and stops', () => {
    const sts = statefulSet(3, 'nginx:1', (s) => {
      s.spec.volumeClaimTemplates = [
        { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } },
      ];
    });
    const rev = revisionOf(sts);
    const plan = planStatefulSet({ statefulSet: sts, pods: [], revisions: [], now: NOW });
    expect(plan.errors).toEqual([]);
    expect(plan.revisions.create?.metadata.name).toBe(rev.metadata.name);
    // the new pod's KruisePodReady condition in the same pass (plan/pass.ts `refreshCreated`)
    expect(summary(plan.actions)).toEqual(['CreatePod web-0#0', 'PatchPodStatus web-0 InitKruisePodReady']);
    expect(plan.halt).toBe('pod web-0 created: OrderedReady creates one at a time');
    const create = plan.actions[0] as Extract<Action, { type: 'CreatePod' }>;
    expect(create.revision).toBe(rev.metadata.name);
    expect(create.pod.metadata).toEqual({
      name: 'web-0',
      generateName: 'web-',
      namespace: 'ns',
      labels: {
        app: 'web',
        'statefulset.kubernetes.io/pod-name': 'web-0',
        'apps.kubernetes.io/pod-index': '0',
        'controller-revision-hash': rev.metadata.name,
        'lifecycle.apps.kruise.io/state': 'Normal',
      },
      annotations: { 'lifecycle.apps.kruise.io/timestamp': '2026-01-01T00:10:00Z' },
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'StatefulSet',
          name: 'web',
          uid: 'sts-uid',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
    expect(create.pod.spec.hostname).toBe('web-0');
    expect(create.pod.spec.subdomain).toBe('web');
    expect(create.pod.spec.volumes).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } },
    ]);
    expect(create.pvcs).toEqual([
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data-web-0', namespace: 'ns', labels: { app: 'web' } },
        spec: { accessModes: ['ReadWriteOnce'] },
      },
    ]);
    expect(plan.status).toMatchObject({
      replicas: 0,
      updateRevision: rev.metadata.name,
      labelSelector: 'app=web',
    });
  });

  test('OrderedReady waits while web-0 is not ready (halt on unhealthy)', () => {
    const sts = statefulSet(3);
    const rev = revisionOf(sts).metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: [pod(0, rev, { ready: false })],
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(summary(plan.actions)).toEqual([]);
    expect(plan.halt).toBe('waiting for pod web-0 to be running and available');
  });

  test('OrderedReady creates web-1 once web-0 is ready', () => {
    const sts = statefulSet(3);
    const rev = revisionOf(sts).metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: [pod(0, rev)],
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(summary(plan.actions)).toEqual(['CreatePod web-1#0', 'PatchPodStatus web-1 InitKruisePodReady']);
  });

  test('OrderedReady with minReadySeconds waits for web-0 and requeues for the rest', () => {
    const sts = statefulSet(2, 'nginx:1', (s) => {
      s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { minReadySeconds: 300 } };
    });
    const rev = revisionOf(sts).metadata.name ?? '';
    const web0 = pod(0, rev);
    web0.status!.conditions![0].lastTransitionTime = '2026-01-01T00:08:00Z';
    const plan = planStatefulSet({ statefulSet: sts, pods: [web0], revisions: [revisionOf(sts)], now: NOW });
    expect(plan.errors).toEqual([]);
    expect(summary(plan.actions)).toEqual([]);
    expect(plan.requeueAfterSeconds).toBe(180);
  });

  test('Parallel 0 → 3 creates every pod in one pass (burst), a failure stopping the later ones', () => {
    const sts = statefulSet(3, 'nginx:1', (s) => (s.spec.podManagementPolicy = 'Parallel'));
    const plan = planStatefulSet({ statefulSet: sts, pods: [], revisions: [], now: NOW });
    expect(summary(plan.actions)).toEqual([
      'CreatePod web-0#0',
      'CreatePod web-1#1',
      'CreatePod web-2#2',
      'PatchPodStatus web-0 InitKruisePodReady',
      'PatchPodStatus web-1 InitKruisePodReady',
      'PatchPodStatus web-2 InitKruisePodReady',
    ]);
    expect(plan.halt).toBeUndefined();
  });

  test('Parallel with scaleStrategy.maxUnavailable 2 creates two pods per pass', () => {
    const sts = statefulSet(4, 'nginx:1', (s) => {
      s.spec.podManagementPolicy = 'Parallel';
      s.spec.scaleStrategy = { maxUnavailable: 2 };
    });
    const plan = planStatefulSet({ statefulSet: sts, pods: [], revisions: [], now: NOW });
    expect(summary(plan.actions)).toEqual([
      'CreatePod web-0#0',
      'CreatePod web-1#1',
      'PatchPodStatus web-0 InitKruisePodReady',
      'PatchPodStatus web-1 InitKruisePodReady',
    ]);
  });

  test('Parallel with scaleStrategy.maxUnavailable 50% counts an unready pod against the budget', () => {
    const sts = statefulSet(4, 'nginx:1', (s) => {
      s.spec.podManagementPolicy = 'Parallel';
      s.spec.scaleStrategy = { maxUnavailable: '50%' };
    });
    const rev = revisionOf(sts).metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: [pod(0, rev, { ready: false })],
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(summary(plan.actions)).toEqual(['CreatePod web-1#0', 'PatchPodStatus web-1 InitKruisePodReady']);
  });

  test('reserveOrdinals [1, "3-4"] skips those ordinals: replicas 3 are web-0, web-2, web-5', () => {
    const sts = statefulSet(3, 'nginx:1', (s) => {
      s.spec.podManagementPolicy = 'Parallel';
      s.spec.reserveOrdinals = [1, '3-4'];
    });
    const plan = planStatefulSet({ statefulSet: sts, pods: [], revisions: [], now: NOW });
    expect(summary(plan.actions)).toEqual([
      'CreatePod web-0#0',
      'CreatePod web-2#1',
      'CreatePod web-5#2',
      'PatchPodStatus web-0 InitKruisePodReady',
      'PatchPodStatus web-2 InitKruisePodReady',
      'PatchPodStatus web-5 InitKruisePodReady',
    ]);
  });

  test('ordinals.start counts only with gate StatefulSetStartOrdinal', () => {
    const sts = statefulSet(2, 'nginx:1', (s) => {
      s.spec.podManagementPolicy = 'Parallel';
      s.spec.ordinals = { start: 5 };
    });
    const off = planStatefulSet({ statefulSet: sts, pods: [], revisions: [], now: NOW });
    expect(summary(off.actions)).toEqual([
      'CreatePod web-0#0',
      'CreatePod web-1#1',
      'PatchPodStatus web-0 InitKruisePodReady',
      'PatchPodStatus web-1 InitKruisePodReady',
    ]);
    const on = planStatefulSet({
      statefulSet: sts,
      pods: [],
      revisions: [],
      now: NOW,
      options: { statefulSetStartOrdinal: true },
    });
    expect(summary(on.actions)).toEqual([
      'CreatePod web-5#0',
      'CreatePod web-6#1',
      'PatchPodStatus web-5 InitKruisePodReady',
      'PatchPodStatus web-6 InitKruisePodReady',
    ]);
  });

  test('a Failed pod is deleted to be recreated, and OrderedReady stops there', () => {
    const sts = statefulSet(2);
    const rev = revisionOf(sts).metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: [pod(0, rev, { phase: 'Failed', ready: false }), pod(1, rev)],
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(summary(plan.actions)).toEqual(['DeletePod web-0 PodFailed']);
  });
});

describe('scale down (upstream TestStatefulSetControlScaleDown)', () => {
  const pods = (rev: string, n: number): Pod[] => Array.from({ length: n }, (_, i) => pod(i, rev));

  test('OrderedReady 3 → 1 deletes the highest ordinal only', () => {
    const sts = statefulSet(1);
    const rev = revisionOf(sts).metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: pods(rev, 3),
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(summary(plan.actions)).toEqual(['DeletePod web-2 ScaleDown']);
    expect(plan.halt).toBe('pod web-2 deleted: OrderedReady scales down one at a time');
    expect(plan.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
    });
  });

  test('OrderedReady waits for a terminating condemned pod', () => {
    const sts = statefulSet(1);
    const rev = revisionOf(sts).metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: [pod(0, rev), pod(1, rev), pod(2, rev, { deleting: true })],
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(summary(plan.actions)).toEqual([]);
    expect(plan.halt).toBe('waiting for pod web-2 to terminate before scaling down');
  });

  test('Parallel 3 → 1 deletes web-2 and web-1 together', () => {
    const sts = statefulSet(1, 'nginx:1', (s) => (s.spec.podManagementPolicy = 'Parallel'));
    const rev = revisionOf(sts).metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: pods(rev, 3),
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(summary(plan.actions)).toEqual(['DeletePod web-2 ScaleDown', 'DeletePod web-1 ScaleDown']);
  });

  test('a newly reserved ordinal condemns its pod', () => {
    const sts = statefulSet(3, 'nginx:1', (s) => {
      s.spec.podManagementPolicy = 'Parallel';
      s.spec.reserveOrdinals = [1];
    });
    const rev = revisionOf(sts).metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: pods(rev, 3),
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(summary(plan.actions)).toEqual([
      'CreatePod web-3#0',
      'DeletePod web-1 ScaleDown',
      'PatchPodStatus web-3 InitKruisePodReady',
    ]);
  });

  test('a preDelete hook moves the pod to PreparingDelete instead of deleting it', () => {
    const sts = statefulSet(1, 'nginx:1', (s) => {
      s.spec.lifecycle = { preDelete: { labelsHandler: { hold: 'true' } } };
    });
    const rev = revisionOf(sts).metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: sts,
      pods: [pod(0, rev), pod(1, rev, { labels: { hold: 'true' } })],
      revisions: [revisionOf(sts)],
      now: NOW,
    });
    expect(summary(plan.actions)).toEqual(['PatchPod web-1 LifecycleTransition']);
    expect((plan.actions[0] as Extract<Action, { type: 'PatchPod' }>).patch).toEqual({
      metadata: {
        labels: { 'lifecycle.apps.kruise.io/state': 'PreparingDelete' },
        annotations: { 'lifecycle.apps.kruise.io/timestamp': '2026-01-01T00:10:00Z' },
      },
    });
  });
});
