/**
 * The pod readiness concern of the pod registration (lib/controllers/pod.ts `reconcilePod`), one invocation against
 * the recording API server, as OpenKruise v1.9.0's `ReconcilePodReadiness.Reconcile`: a pod with the gate and no
 * condition gets exactly the pods/status strategic-merge patch `KruisePodReady` True at the invocation's time; a pod
 * that has the condition, is terminating, is gone or is a Kruiseless workload's gets nothing; a refused patch is the
 * pass's error (the loop backs off), a pod deleted before the patch ends the invocation as gone.
 */
import { jest } from '@jest/globals';
import type { OwnerReference, Pod } from '../../../../lib/api/types.js';
import { silentLogger } from '../../../../lib/core/logger.js';
import { reconcilePod, type PodReconcileDeps } from '../../../../lib/controllers/pod.js';
import { KubeApiError } from '../../../../lib/kube/errors.js';
import type { ReconcileRequest, RequeueScheduler } from '../../../../lib/requests/index.js';
import { createMemoryStores } from '../../../../lib/state/index.js';
import { barrierEnv } from '../../../../lib/podset/launchPriority.js';
import { RecordingKube, recordingStores, type Journal } from '../cloneset/reconcile/support/recordingKube.js';

const REQUEST: ReconcileRequest = {
  version: 2,
  cluster: 'test',
  kind: 'core/Pod',
  namespace: 'default',
  name: 'bare',
  reason: 'ObjectChanged',
};

const NOW = '2026-12-06T10:00:00Z';

function pod(over: { conditions?: Pod['status']; owner?: OwnerReference; deleting?: boolean } = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'bare',
      namespace: 'default',
      uid: 'pod-uid',
      resourceVersion: '1',
      ...(over.owner ? { ownerReferences: [over.owner] } : {}),
      ...(over.deleting ? { deletionTimestamp: '2026-12-06T09:59:00Z' } : {}),
    },
    spec: {
      containers: [{ name: 'main', image: 'nginx:1.25' }],
      readinessGates: [{ conditionType: 'KruisePodReady' }],
    },
    status: over.conditions ?? {
      phase: 'Running',
      conditions: [
        { type: 'ContainersReady', status: 'True' },
        { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady' },
      ],
    },
  };
}

function setup(p: Pod | undefined) {
  const journal: Journal = [];
  const clock = { now: Date.parse(NOW) };
  const kube = new RecordingKube(journal, () => new Date(clock.now));
  const recorded = recordingStores(createMemoryStores(), journal, {});
  const requeue: RequeueScheduler = {
    async requeueAfter(_r, seconds) {
      journal.push(`requeue after ${seconds}s`);
    },
  };
  if (p) kube.pods.set('bare', p);
  const patch = jest.spyOn(kube, 'patch');
  const deps = (): PodReconcileDeps => ({
    kube,
    ...recorded,
    requeue,
    log: silentLogger,
    holder: 'inv-1',
    clock: () => clock.now,
    sleep: async (ms: number) => {
      clock.now += ms;
    },
    deadlineMs: clock.now + 600_000,
    leaseDurationMs: 120_000,
    maxInlineWaitSeconds: 10,
    maxPasses: 20,
  });
  return { journal, kube, deps, patch };
}

describe('reconcilePod: the pod readiness concern', () => {
  test('a bare pod with the gate: the one pods/status patch adding KruisePodReady True, nothing else', async () => {
    const h = setup(pod());
    const outcome = await reconcilePod(h.deps(), REQUEST);
    expect(h.journal).toEqual(['lease.acquire', 'patch pod status bare', 'lease.release']);
    expect(
      h.patch.mock.calls.map(([resource, ref, body, options]) => [resource.plural, ref, body, options]),
    ).toEqual([
      [
        'pods',
        { namespace: 'default', name: 'bare' },
        {
          type: 'strategic-merge',
          body: {
            status: { conditions: [{ type: 'KruisePodReady', status: 'True', lastTransitionTime: NOW }] },
          },
        },
        { subresource: 'status' },
      ],
    ]);
    expect(outcome).toMatchObject({ result: 'reconciled', writes: 1 });
    expect(h.kube.pods.get('bare')?.status?.conditions).toEqual([
      { type: 'ContainersReady', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady' },
      { type: 'KruisePodReady', status: 'True', lastTransitionTime: NOW },
    ]);
  });

  test('a Deployment’s pod is this concern’s too', async () => {
    const h = setup(
      pod({ owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u', controller: true } }),
    );
    await reconcilePod(h.deps(), REQUEST);
    expect(h.journal).toEqual(['lease.acquire', 'patch pod status bare', 'lease.release']);
  });

  test.each<[string, Pod]>([
    [
      'the condition there already (False)',
      pod({ conditions: { conditions: [{ type: 'KruisePodReady', status: 'False' }] } }),
    ],
    ['terminating', pod({ deleting: true })],
    [
      'a CloneSet’s pod (its own pass writes the condition)',
      pod({
        owner: {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'cs',
          uid: 'u',
          controller: true,
        },
      }),
    ],
  ])('%s: nothing is written', async (_what, p) => {
    const h = setup(p);
    const outcome = await reconcilePod(h.deps(), REQUEST);
    expect(h.journal).toEqual(['lease.acquire', 'lease.release']);
    expect(h.patch).not.toHaveBeenCalled();
    expect(outcome.writes).toBe(0);
  });

  test('a pod waiting on its launch barrier too: both concerns in one invocation, launch priority first', async () => {
    const p = pod();
    p.spec.containers = [
      { name: 'nginx', image: 'nginx:1.25', env: [barrierEnv(0, 'bare')] },
      { name: 'redis', image: 'redis:7', env: [barrierEnv(10, 'bare')] },
    ];
    p.status = { phase: 'Pending', conditions: [{ type: 'ContainersReady', status: 'False' }] };
    const h = setup(p);
    const outcome = await reconcilePod(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'patch configmap bare-barrier',
      'create configmap bare-barrier',
      'patch pod status bare',
      'lease.release',
    ]);
    expect(outcome).toMatchObject({ result: 'reconciled', writes: 2 });
  });

  test('a pod that is gone: nothing is written', async () => {
    const h = setup(undefined);
    const outcome = await reconcilePod(h.deps(), REQUEST);
    expect(h.journal).toEqual(['lease.acquire', 'lease.release']);
    expect(outcome.result).toBe('gone');
  });

  test('a pod deleted before the patch (404): gone, no requeue', async () => {
    const h = setup(pod());
    h.kube.failOn((call) =>
      call === 'patch pod status bare'
        ? new KubeApiError('patch', 404, 'NotFound', 'pods "bare" not found')
        : undefined,
    );
    const outcome = await reconcilePod(h.deps(), REQUEST);
    expect(outcome.result).toBe('gone');
    expect(h.journal).toEqual(['lease.acquire', 'patch pod status bare', 'lease.release']);
  });

  test('a refused patch is the pass’s error, and the loop backs off', async () => {
    const h = setup(pod());
    h.kube.failOn((call) =>
      call === 'patch pod status bare'
        ? new KubeApiError('patch', 403, 'Forbidden', 'pods "bare" is forbidden')
        : undefined,
    );
    const outcome = await reconcilePod(h.deps(), REQUEST);
    expect(outcome.error).toContain('forbidden');
    expect(h.journal).toEqual([
      'lease.acquire',
      'patch pod status bare',
      expect.stringMatching(/^requeue after/) as string,
      'lease.release (failures 1)',
    ]);
  });
});
