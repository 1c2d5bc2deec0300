/**
 * The container launch priority concern of the pod registration (lib/controllers/pod.ts), one invocation against the
 * recording API server, as OpenKruise v1.9.0's `ReconcileContainerLaunchPriority`: the barrier created empty and owned by the pod, the highest pending priority
 * released, the next once its container is ready, the pod marked completed; the writes in order, a barrier someone
 * else created meanwhile, a pod that is gone, a failed write reported (not thrown) so the loop backs off.
 */
import type { ConfigMap, Pod } from '../../../../lib/api/types.js';
import { silentLogger } from '../../../../lib/core/logger.js';
import {
  pod as podController,
  reconcilePod,
  type PodReconcileDeps,
} from '../../../../lib/controllers/pod.js';
import { KubeApiError } from '../../../../lib/kube/errors.js';
import { RESOURCES } from '../../../../lib/kube/resources.js';
import { barrierEnv } from '../../../../lib/podset/launchPriority.js';
import type { ReconcileRequest, RequeueScheduler } from '../../../../lib/requests/index.js';
import { createMemoryStores } from '../../../../lib/state/index.js';
import { requestForObject } from '../../../../lib/source/watchSpec.js';
import type { JsonObject } from '../../../../lib/api/types.js';
import { RecordingKube, recordingStores, type Journal } from '../cloneset/reconcile/support/recordingKube.js';

const REQUEST: ReconcileRequest = {
  version: 2,
  cluster: 'test',
  kind: 'core/Pod',
  namespace: 'default',
  name: 'web-0',
  reason: 'ObjectChanged',
};

function pod(ready: string[] = []): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-0', namespace: 'default', uid: 'pod-uid', resourceVersion: '1' },
    spec: {
      containers: [
        { name: 'nginx', image: 'nginx:1.25', env: [barrierEnv(0, 'web-0')] },
        { name: 'redis', image: 'redis:7', env: [barrierEnv(10, 'web-0')] },
      ],
    },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'ContainersReady', status: 'False' }],
      containerStatuses: ['nginx', 'redis'].map((name) => ({
        name,
        image: '',
        imageID: '',
        ready: ready.includes(name),
        restartCount: 0,
      })),
    },
  };
}

function setup(p: Pod | undefined) {
  const journal: Journal = [];
  const clock = { now: Date.parse('2026-12-05T21:00:00Z') };
  const kube = new RecordingKube(journal, () => new Date(clock.now));
  const recorded = recordingStores(createMemoryStores(), journal, {});
  const requeue: RequeueScheduler = {
    async requeueAfter(_r, seconds) {
      journal.push(`requeue after ${seconds}s`);
    },
  };
  if (p) kube.pods.set('web-0', p);
  const deps = (): PodReconcileDeps => ({
    kube,
    ...recorded,
    requeue,
    log: silentLogger,
    holder: 'inv-1',
    clock: () => clock.now,
    sleep: async (ms) => {
      clock.now += ms;
    },
    deadlineMs: clock.now + 600_000,
    leaseDurationMs: 120_000,
    maxInlineWaitSeconds: 10,
    maxPasses: 20,
  });
  const barrier = () => kube.objects(RESOURCES.configmaps).get('web-0-barrier');
  return { journal, kube, deps, barrier };
}

describe('reconcilePod: the container launch priority concern', () => {
  test('a new pod: the barrier created owned by the pod, p_10 released; then p_0 and the mark', async () => {
    const h = setup(pod());
    await reconcilePod(h.deps(), REQUEST);
    // no barrier yet: the patch answers 404, then the create with the key
    expect(h.journal).toEqual([
      'lease.acquire',
      'patch configmap web-0-barrier',
      'create configmap web-0-barrier',
      'lease.release',
    ]);
    expect(h.barrier()).toMatchObject({
      metadata: {
        name: 'web-0-barrier',
        namespace: 'default',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web-0', uid: 'pod-uid' }],
      },
      data: { p_10: 'true' },
    });
    // redis ready: the next (and last) priority, and the pod completed
    h.kube.pods.set('web-0', pod(['redis']));
    h.journal.length = 0;
    await reconcilePod(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'patch configmap web-0-barrier',
      'patch pod web-0',
      'lease.release',
    ]);
    expect(h.barrier()?.data).toEqual({ p_10: 'true', p_0: 'true' });
    expect(h.kube.pods.get('web-0')?.metadata.annotations).toEqual({
      'apps.kruise.io/container-launch-priority-completed': 'true',
    });
  });

  test('a barrier created by someone else meanwhile (AlreadyExists) is patched after all', async () => {
    const h = setup(pod());
    const theirs: ConfigMap = {
      metadata: { name: 'web-0-barrier', namespace: 'default', resourceVersion: '7' },
      data: { p_10: 'true' },
    };
    h.kube.failOn((call) => {
      if (call !== 'create configmap web-0-barrier') return undefined;
      h.kube.objects(RESOURCES.configmaps).set('web-0-barrier', theirs);
      return new KubeApiError('create', 409, 'AlreadyExists', 'configmaps "web-0-barrier" already exists');
    });
    await reconcilePod(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'patch configmap web-0-barrier',
      'create configmap web-0-barrier',
      'patch configmap web-0-barrier',
      'lease.release',
    ]);
    expect(h.barrier()?.data).toEqual({ p_10: 'true' });
    expect(h.kube.pods.get('web-0')?.metadata.annotations).toBeUndefined();
  });

  test('the lowest pending key there already (a mark that failed): the key again, and the mark', async () => {
    const h = setup(pod(['redis']));
    h.kube.objects(RESOURCES.configmaps).set('web-0-barrier', {
      metadata: { name: 'web-0-barrier', namespace: 'default', resourceVersion: '7' },
      data: { p_10: 'true', p_0: 'true' },
    });
    await reconcilePod(h.deps(), REQUEST);
    expect(h.journal).toEqual([
      'lease.acquire',
      'patch configmap web-0-barrier',
      'patch pod web-0',
      'lease.release',
    ]);
  });

  test('a pod that is gone: nothing is written', async () => {
    const h = setup(undefined);
    await reconcilePod(h.deps(), REQUEST);
    expect(h.journal).toEqual(['lease.acquire', 'lease.release']);
  });

  test('a refused barrier patch is the pass’s error, and the loop backs off', async () => {
    const h = setup(pod());
    h.kube.failOn((call) =>
      call === 'patch configmap web-0-barrier'
        ? new KubeApiError('patch', 403, 'Forbidden', 'configmaps "web-0-barrier" is forbidden')
        : undefined,
    );
    const outcome = await reconcilePod(h.deps(), REQUEST);
    expect(outcome.error).toContain('forbidden');
    expect(h.journal).toEqual([
      'lease.acquire',
      'patch configmap web-0-barrier',
      expect.stringMatching(/^requeue after/) as string,
      'lease.release (failures 1)',
    ]);
    expect(h.kube.pods.get('web-0')?.metadata.annotations).toBeUndefined();
  });

  test('the For watch and the resync take only pods still waiting on their barrier', () => {
    const reqOf = (p: Pod) =>
      requestForObject('test', podController, { type: 'For' }, p as unknown as JsonObject);
    expect(reqOf(pod())).toMatchObject({ kind: 'core/Pod', namespace: 'default', name: 'web-0' });
    expect(reqOf(pod(['nginx', 'redis']))).toBeUndefined();
    const done = pod();
    done.metadata.annotations = { 'apps.kruise.io/container-launch-priority-completed': 'true' };
    expect(reqOf(done)).toBeUndefined();
    const plain: Pod = {
      metadata: { name: 'x', namespace: 'default' },
      spec: { containers: [{ name: 'a' }] },
    };
    expect(reqOf(plain)).toBeUndefined();
  });
});
