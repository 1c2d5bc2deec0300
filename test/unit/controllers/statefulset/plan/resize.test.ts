/**
 * `volumeClaimUpdateStrategy` OnPodRollingUpdate with gate `StatefulSetAutoResizePVCGate` (upstream
 * statefulset_resize_pvc.go and `rollingUpdateStatefulsetPods`): each pod's PVCs are grown as the rolling update
 * reaches it, and the pod is updated once they have.
 */
import type { PersistentVolumeClaim } from '../../../../../lib/api/types.js';
import type { Action } from '../../../../../lib/podset/actions.js';
import type { StatefulSet } from '../../../../../lib/controllers/statefulset/api/types.js';
import type { StatefulSetPlanInput } from '../../../../../lib/controllers/statefulset/plan/types.js';
import { NOW, planStatefulSet, pod, revisionOf, statefulSet } from './support.js';

const GATE = { statefulSetAutoResizePVCGate: true };
const EXPANDABLE = [{ name: 'expandable', allowVolumeExpansion: true }, { name: 'fixed' }];

function summary(actions: readonly Action[]): string[] {
  return actions.map((a) =>
    a.type === 'DeletePod'
      ? `DeletePod ${a.pod.name} ${a.reason}`
      : a.type === 'ResizePVC'
        ? `ResizePVC ${a.name} for ${a.pod.name}`
        : a.type === 'PatchPod' || a.type === 'PatchPodStatus'
          ? `${a.type} ${a.pod.name} ${a.reason}`
          : a.type,
  );
}

/** The set `web` with template `data` of `size` in class `expandable` (or `className`), image `image`. */
function withClaims(image: string, size: string, className = 'expandable', strategy = true): StatefulSet {
  return statefulSet(2, image, (s) => {
    s.spec.volumeClaimTemplates = [
      {
        metadata: { name: 'data' },
        spec: {
          accessModes: ['ReadWriteOnce'],
          storageClassName: className,
          resources: { requests: { storage: size } },
        },
      },
    ];
    if (strategy) s.spec.volumeClaimUpdateStrategy = { type: 'OnPodRollingUpdate' };
  });
}

/** The bound claim `data-web-<ordinal>`: `request`, `capacity`, class and extra status conditions. */
function claim(
  ordinal: number,
  request: string,
  capacity: string,
  opts: { className?: string; accessModes?: string[]; resizePending?: boolean } = {},
): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: `data-web-${ordinal}`,
      namespace: 'ns',
      uid: `pvc-${ordinal}`,
      resourceVersion: '7',
      // a claim grown past 1Gi was resized by the set
      ...(request !== '1Gi' ? { annotations: { 'apps.kruise.io/owned-by-asts': 'web' } } : {}),
    },
    spec: {
      accessModes: opts.accessModes ?? ['ReadWriteOnce'],
      storageClassName: opts.className ?? 'expandable',
      resources: { requests: { storage: request } },
      volumeName: `pv-${ordinal}`,
    },
    status: {
      phase: 'Bound',
      capacity: { storage: capacity },
      ...(opts.resizePending ? { conditions: [{ type: 'FileSystemResizePending', status: 'True' }] } : {}),
    },
  };
}

/** Both pods at the 1Gi/nginx:1 revision, the set moved to nginx:2 and 2Gi; both revisions listed. */
function grown(
  pvcs: PersistentVolumeClaim[],
  opts: Partial<StatefulSetPlanInput> = {},
  className?: string,
): ReturnType<typeof planStatefulSet> {
  const old = withClaims('nginx:1', '1Gi', className);
  const oldRev = revisionOf(old, 1);
  const next = withClaims('nginx:2', '2Gi', className);
  const newRev = revisionOf(next, 2);
  const rev = oldRev.metadata.name ?? '';
  next.status = {
    replicas: 2,
    readyReplicas: 2,
    availableReplicas: 2,
    currentReplicas: 2,
    updatedReplicas: 0,
    currentRevision: rev,
    updateRevision: newRev.metadata.name,
  };
  return planStatefulSet({
    statefulSet: next,
    pods: [pod(0, rev), pod(1, rev)],
    revisions: [oldRev, newRev],
    pvcs,
    storageClasses: EXPANDABLE,
    now: NOW,
    options: GATE,
    ...opts,
  });
}

describe('PVC resize with the rolling update (volumeClaimUpdateStrategy OnPodRollingUpdate)', () => {
  test('the highest ordinal’s claim is grown first, the pod kept until it has; the next pod waits', () => {
    const plan = grown([claim(0, '1Gi', '1Gi'), claim(1, '1Gi', '1Gi')]);
    expect(plan.actions).toEqual([
      {
        type: 'ResizePVC',
        name: 'data-web-1',
        uid: 'pvc-1',
        resourceVersion: '7',
        pod: { name: 'web-1', uid: 'uid-1', resourceVersion: '1' },
        patch: {
          metadata: { annotations: { 'apps.kruise.io/owned-by-asts': 'web' } },
          spec: { resources: { requests: { storage: '2Gi' } } },
        },
      },
    ]);
    expect(plan.halt).toBe('waiting for unavailable pods (web-1) before updating web-0');
    expect(plan.requeueAfterSeconds).toBe(2);
    expect(plan.error).toBeUndefined();
  });

  test('while the claim is growing (request 2Gi, capacity 1Gi) nothing is written; the pod is not updated', () => {
    const plan = grown([claim(0, '1Gi', '1Gi'), claim(1, '2Gi', '1Gi')]);
    expect(summary(plan.actions)).toEqual([]);
    expect(plan.halt).toBe('waiting for unavailable pods (web-1) before updating web-0');
    expect(plan.requeueAfterSeconds).toBe(2);
  });

  test('once grown (or waiting only for the file system) the pod is updated', () => {
    for (const grownClaim of [claim(1, '2Gi', '2Gi'), claim(1, '2Gi', '1Gi', { resizePending: true })]) {
      const plan = grown([claim(0, '1Gi', '1Gi'), grownClaim]);
      expect(summary(plan.actions)).toEqual(['DeletePod web-1 RecreateUpdate']);
    }
  });

  test('a pod already at the update revision whose claim is smaller than its template is not skipped', () => {
    const next = withClaims('nginx:2', '2Gi');
    const rev = revisionOf(next, 1);
    const name = rev.metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: next,
      pods: [pod(0, name), pod(1, name)],
      revisions: [rev],
      pvcs: [claim(0, '2Gi', '2Gi'), claim(1, '1Gi', '1Gi')],
      storageClasses: EXPANDABLE,
      now: NOW,
      options: GATE,
    });
    expect(summary(plan.actions)).toEqual(['ResizePVC data-web-1 for web-1']);
    // and the ready web-1 with a claim short of its capacity counts as unavailable in the next pass
    const after = planStatefulSet({
      statefulSet: next,
      pods: [pod(0, name), pod(1, name)],
      revisions: [rev],
      pvcs: [claim(0, '2Gi', '2Gi'), claim(1, '2Gi', '1Gi')],
      storageClasses: EXPANDABLE,
      now: NOW,
      options: GATE,
    });
    expect(summary(after.actions)).toEqual([]);
    // the resized claim is still growing: look again, as OpenKruise's PVC watch would bring a pass
    expect(after.requeueAfterSeconds).toBe(2);
  });

  test('a class that does not allow expansion stops the update with upstream’s error, nothing written', () => {
    const plan = grown(
      [claim(0, '1Gi', '1Gi', { className: 'fixed' }), claim(1, '1Gi', '1Gi', { className: 'fixed' })],
      {},
      'fixed',
    );
    expect(plan.actions).toEqual([]);
    expect(plan.error).toBe('storage class fixed for web-1 does not support volume expansion');
  });

  test('an unknown class: upstream’s lister error', () => {
    const plan = grown([claim(0, '1Gi', '1Gi'), claim(1, '1Gi', '1Gi')], { storageClasses: [] });
    expect(plan.error).toBe(
      'could not get sc expandable for web-1 when checking PVC spec: storageclass.storage.k8s.io "expandable" not found',
    );
  });

  test('a claim that differs in more than its size: FailedUpdatePVC Warning and the update stops', () => {
    const plan = grown([claim(0, '1Gi', '1Gi'), claim(1, '1Gi', '1Gi', { accessModes: ['ReadWriteMany'] })]);
    expect(plan.actions).toEqual([]);
    expect(plan.events).toEqual([
      {
        type: 'Warning',
        reason: 'FailedUpdatePVC',
        message:
          'failed to update pvc data-web-1: contains diff other than spec resource, wait pvc to be deleted',
      },
    ]);
    expect(plan.error).toBe(
      'can not patch pvc data-web-1: contains diff other than spec resource, wait pvc to be deleted',
    );
  });

  test('without the gate, or without the strategy, claims are not looked at: the pod is recreated at once', () => {
    expect(summary(grown([claim(0, '1Gi', '1Gi'), claim(1, '1Gi', '1Gi')], { options: {} }).actions)).toEqual(
      ['DeletePod web-1 RecreateUpdate'],
    );
    const old = withClaims('nginx:1', '1Gi', 'expandable', false);
    const next = withClaims('nginx:2', '2Gi', 'expandable', false);
    const oldRev = revisionOf(old, 1);
    const rev = oldRev.metadata.name ?? '';
    const plan = planStatefulSet({
      statefulSet: next,
      pods: [pod(0, rev), pod(1, rev)],
      revisions: [oldRev],
      pvcs: [claim(0, '1Gi', '1Gi'), claim(1, '1Gi', '1Gi')],
      storageClasses: EXPANDABLE,
      now: NOW,
      options: GATE,
    });
    expect(summary(plan.actions)).toEqual(['DeletePod web-1 RecreateUpdate']);
  });
});
