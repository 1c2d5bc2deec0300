/**
 * KubeClient pod access on a real API server (kwok nodes): create, strategic-merge patches of the pod and of
 * pods/status, resourceVersion and UID preconditions, list with a label selector.
 */
import type { Pod } from '../../../lib/api/types.js';
import { createKubeClient } from '../../../lib/kube/client.js';
import { isConflict, isNotFound } from '../../../lib/kube/errors.js';
import type { KubeClient } from '../../../lib/kube/types.js';
import { useTestNamespace } from '../support/cluster.js';
import { waitFor } from '../support/wait.js';
import { kubeError, samplePod } from './fixtures.js';

const t = useTestNamespace('kube-pods');
let kube: KubeClient;

beforeAll(() => {
  kube = createKubeClient(t.kc, { retry: { retries: 1, minTimeoutMs: 50 } });
});

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/**
 * Waits until the fake kubelet has nothing left to report for `name` (Ready, every container status showing its
 * spec image), so that the pod's resourceVersion stays put while a test uses it as a precondition.
 */
function settled(name: string): Promise<Pod> {
  return waitFor(`${name} settled`, 30000, async () => {
    const p = (await kube.listPods(t.namespace)).items.find((x) => x.metadata.name === name);
    const ready = p?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    const images = p?.spec.containers.every((c) =>
      p.status?.containerStatuses?.some((s) => s.name === c.name && s.image === c.image),
    );
    return p && ready && images ? p : undefined;
  });
}

describe('KubeClient pods', () => {
  test('createPod returns the stored pod as plain JSON with string timestamps', async () => {
    const pod = await kube.createPod(samplePod(t.namespace, 'p1', { tier: 'web' }));
    expect(pod.metadata.uid).toBeTruthy();
    expect(pod.kind).toBe('Pod');
    expect(typeof pod.metadata.creationTimestamp).toBe('string');
    expect(pod.metadata.creationTimestamp).toMatch(RFC3339);
  });

  test('patchPod strategic-merges labels and one container image, keeping other labels and containers', async () => {
    const patched = await kube.patchPod(t.namespace, 'p1', {
      metadata: { labels: { 'controller-revision-hash': 'cs-v2' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.19-alpine' }] },
    });
    expect(patched.metadata.labels).toEqual({
      app: 'cs-no-pvc-sample',
      tier: 'web',
      'controller-revision-hash': 'cs-v2',
    });
    expect(patched.spec.containers.map((c) => [c.name, c.image])).toEqual([
      ['nginx', 'nginx:1.19-alpine'],
      ['sidecar', 'busybox:1.36'],
    ]);
  });

  test('patchPod with a stale resourceVersion fails with 409 Conflict and changes nothing', async () => {
    const before = await settled('p1');
    await kube.patchPod(t.namespace, 'p1', { metadata: { annotations: { touched: '1' } } });
    const err = await kubeError(
      kube.patchPod(
        t.namespace,
        'p1',
        { metadata: { labels: { tier: 'db' } } },
        before.metadata.resourceVersion,
      ),
    );
    expect(err.statusCode).toBe(409);
    expect(err.reason).toBe('Conflict');
    expect(isConflict(err)).toBe(true);
    expect(err.operation).toBe(`patch pod ${t.namespace}/p1`);
    const after = (await kube.listPods(t.namespace, 'tier=web')).items;
    expect(after.map((p) => p.metadata.name)).toEqual(['p1']);
  });

  test('patchPod with the current resourceVersion succeeds', async () => {
    const cur = await settled('p1');
    const patched = await kube.patchPod(
      t.namespace,
      'p1',
      { metadata: { labels: { 'apps.kruise.io/specified-delete': 'true' } } },
      cur.metadata.resourceVersion,
    );
    expect(patched.metadata.labels?.['apps.kruise.io/specified-delete']).toBe('true');
  });

  test('patchPodStatus adds a condition by type without dropping the others', async () => {
    const running = await settled('p1');
    expect(running.status?.conditions?.length).toBeGreaterThanOrEqual(2);
    const before = (running.status?.conditions ?? []).map((c) => c.type).sort();
    const patched = await kube.patchPodStatus(
      t.namespace,
      'p1',
      {
        status: {
          conditions: [
            {
              type: 'InPlaceUpdateReady',
              status: 'False',
              reason: 'StartInPlaceUpdate',
              lastTransitionTime: '2026-11-30T12:00:00Z',
            },
          ],
        },
      },
      running.metadata.resourceVersion,
    );
    const conditions = patched.status?.conditions ?? [];
    expect(conditions.map((c) => c.type).sort()).toEqual([...before, 'InPlaceUpdateReady'].sort());
    expect(conditions.find((c) => c.type === 'InPlaceUpdateReady')).toMatchObject({
      status: 'False',
      reason: 'StartInPlaceUpdate',
      lastTransitionTime: '2026-11-30T12:00:00Z',
    });
    for (const c of conditions) {
      if (c.lastTransitionTime != null) expect(typeof c.lastTransitionTime).toBe('string');
    }
  });

  test('patchPodStatus with a stale resourceVersion fails with Conflict', async () => {
    const cur = await settled('p1');
    await kube.patchPod(t.namespace, 'p1', { metadata: { annotations: { touched: '2' } } });
    const err = await kubeError(
      kube.patchPodStatus(
        t.namespace,
        'p1',
        { status: { conditions: [{ type: 'KruisePodReady', status: 'True' }] } },
        cur.metadata.resourceVersion,
      ),
    );
    expect(err.reason).toBe('Conflict');
  });

  test('listPods filters by label selector and returns a resourceVersion and string timestamps', async () => {
    await kube.createPod(samplePod(t.namespace, 'p2', { tier: 'db' }));
    const web = await kube.listPods(t.namespace, 'tier=web');
    expect(web.items.map((p) => p.metadata.name)).toEqual(['p1']);
    expect(web.resourceVersion).toMatch(/^\d+$/);
    const all = await kube.listPods(t.namespace);
    expect(all.items.map((p) => p.metadata.name).sort()).toEqual(['p1', 'p2']);
    for (const p of all.items) {
      expect(p.apiVersion).toBe('v1');
      expect(typeof p.metadata.creationTimestamp).toBe('string');
    }
  });

  test('deletePod with a wrong uid precondition fails with Conflict and keeps the pod', async () => {
    const err = await kubeError(kube.deletePod(t.namespace, 'p2', '00000000-0000-0000-0000-000000000000'));
    expect(err.statusCode).toBe(409);
    expect(err.reason).toBe('Conflict');
    expect(err.apiMessage).toMatch(/UID in the precondition/);
    expect((await kube.listPods(t.namespace, 'tier=db')).items).toHaveLength(1);
  });

  test('deletePod with the right uid deletes the pod (graceful deletion completes)', async () => {
    const [p2] = (await kube.listPods(t.namespace, 'tier=db')).items as Pod[];
    await kube.deletePod(t.namespace, 'p2', p2.metadata.uid as string);
    await waitFor('p2 gone', 30000, async () =>
      (await kube.listPods(t.namespace, 'tier=db')).items.length === 0 ? true : undefined,
    );
    const err = await kubeError(kube.deletePod(t.namespace, 'p2', p2.metadata.uid as string));
    expect(isNotFound(err)).toBe(true);
  });
});
