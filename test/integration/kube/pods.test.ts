/**
 * The generic KubeClient on pods, on a real API server (kwok nodes): create, strategic-merge patches of the pod and
 * of pods/status, resourceVersion and UID preconditions, list with a label selector and in pages.
 */
import type { Pod } from '../../../lib/api/types.js';
import { createKubeClient } from '../../../lib/kube/client.js';
import { listAll } from '../../../lib/kube/list.js';
import { RESOURCES } from '../../../lib/kube/resources.js';
import { isConflict, isNotFound } from '../../../lib/kube/errors.js';
import type { JsonObject } from '../../../lib/api/types.js';
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

const ref = (name: string) => ({ namespace: t.namespace, name });
const listPods = (labelSelector?: string) =>
  kube.list(RESOURCES.pods, { namespace: t.namespace, ...(labelSelector ? { labelSelector } : {}) });
/** A strategic-merge patch of pod `name` (or its `subresource`), under a resourceVersion precondition if given. */
const patchPod = (name: string, body: JsonObject, resourceVersion?: string, subresource?: string) =>
  kube.patch(
    RESOURCES.pods,
    ref(name),
    { type: 'strategic-merge', body },
    {
      ...(subresource ? { subresource } : {}),
      ...(resourceVersion ? { preconditions: { resourceVersion } } : {}),
    },
  );

/**
 * Waits until the fake kubelet has nothing left to report for `name` (Ready, every container status showing its
 * spec image), so that the pod's resourceVersion stays put while a test uses it as a precondition.
 */
function settled(name: string): Promise<Pod> {
  return waitFor(`${name} settled`, 30000, async () => {
    const p = (await listPods()).items.find((x) => x.metadata.name === name);
    const ready = p?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    const images = p?.spec.containers.every((c) =>
      p.status?.containerStatuses?.some((s) => s.name === c.name && s.image === c.image),
    );
    return p && ready && images ? p : undefined;
  });
}

describe('KubeClient on pods', () => {
  test('create returns the stored pod as plain JSON with string timestamps', async () => {
    const pod = await kube.create(RESOURCES.pods, samplePod(t.namespace, 'p1', { tier: 'web' }));
    expect(pod.metadata.uid).toBeTruthy();
    expect(pod.kind).toBe('Pod');
    expect(typeof pod.metadata.creationTimestamp).toBe('string');
    expect(pod.metadata.creationTimestamp).toMatch(RFC3339);
  });

  test('a strategic-merge patch merges labels and one container image, keeping other labels and containers', async () => {
    const patched = await patchPod('p1', {
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

  test('a patch with a stale resourceVersion fails with 409 Conflict and changes nothing', async () => {
    const before = await settled('p1');
    await patchPod('p1', { metadata: { annotations: { touched: '1' } } });
    const err = await kubeError(
      patchPod('p1', { metadata: { labels: { tier: 'db' } } }, before.metadata.resourceVersion),
    );
    expect(err.statusCode).toBe(409);
    expect(err.reason).toBe('Conflict');
    expect(isConflict(err)).toBe(true);
    expect(err.operation).toBe(`patch pod ${t.namespace}/p1`);
    const after = (await listPods('tier=web')).items;
    expect(after.map((p) => p.metadata.name)).toEqual(['p1']);
  });

  test('a patch with the current resourceVersion succeeds', async () => {
    const cur = await settled('p1');
    const patched = await patchPod(
      'p1',
      { metadata: { labels: { 'apps.kruise.io/specified-delete': 'true' } } },
      cur.metadata.resourceVersion,
    );
    expect(patched.metadata.labels?.['apps.kruise.io/specified-delete']).toBe('true');
  });

  test('a patch of pods/status adds a condition by type without dropping the others', async () => {
    const running = await settled('p1');
    expect(running.status?.conditions?.length).toBeGreaterThanOrEqual(2);
    const before = (running.status?.conditions ?? []).map((c) => c.type).sort();
    const patched = await patchPod(
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
      'status',
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

  test('a patch of pods/status with a stale resourceVersion fails with Conflict', async () => {
    const cur = await settled('p1');
    await patchPod('p1', { metadata: { annotations: { touched: '2' } } });
    const err = await kubeError(
      patchPod(
        'p1',
        { status: { conditions: [{ type: 'KruisePodReady', status: 'True' }] } },
        cur.metadata.resourceVersion,
        'status',
      ),
    );
    expect(err.reason).toBe('Conflict');
    expect(err.operation).toBe(`patch pod status ${t.namespace}/p1`);
  });

  test('list filters by label selector and returns a resourceVersion and string timestamps', async () => {
    await kube.create(RESOURCES.pods, samplePod(t.namespace, 'p2', { tier: 'db' }));
    const web = await listPods('tier=web');
    expect(web.items.map((p) => p.metadata.name)).toEqual(['p1']);
    expect(web.resourceVersion).toMatch(/^\d+$/);
    const all = await listPods();
    expect(all.items.map((p) => p.metadata.name).sort()).toEqual(['p1', 'p2']);
    for (const p of all.items) {
      expect(p.apiVersion).toBe('v1');
      expect(typeof p.metadata.creationTimestamp).toBe('string');
    }
  });

  test('a limited list pages with continue tokens; listAll follows them to every item', async () => {
    const first = await kube.list(RESOURCES.pods, { namespace: t.namespace, limit: 1 });
    expect(first.items).toHaveLength(1);
    expect(first.continue).toBeTruthy();
    const second = await kube.list(RESOURCES.pods, {
      namespace: t.namespace,
      limit: 1,
      continue: first.continue,
    });
    expect(second.items).toHaveLength(1);
    expect(second.continue).toBeUndefined();
    expect([...first.items, ...second.items].map((p) => p.metadata.name).sort()).toEqual(['p1', 'p2']);
    const all = await listAll(kube, RESOURCES.pods, { namespace: t.namespace, limit: 1 });
    expect(all.items.map((p) => p.metadata.name).sort()).toEqual(['p1', 'p2']);
    expect(all.resourceVersion).toMatch(/^\d+$/);
  });

  test('delete with a wrong uid precondition fails with Conflict and keeps the pod', async () => {
    const err = await kubeError(
      kube.delete(RESOURCES.pods, ref('p2'), { uid: '00000000-0000-0000-0000-000000000000' }),
    );
    expect(err.statusCode).toBe(409);
    expect(err.reason).toBe('Conflict');
    expect(err.apiMessage).toMatch(/UID in the precondition/);
    expect((await listPods('tier=db')).items).toHaveLength(1);
  });

  test('delete with a stale resourceVersion precondition fails with Conflict and keeps the pod', async () => {
    const [p2] = (await listPods('tier=db')).items;
    await patchPod('p2', { metadata: { annotations: { touched: '3' } } });
    const err = await kubeError(
      kube.delete(RESOURCES.pods, ref('p2'), { resourceVersion: p2.metadata.resourceVersion }),
    );
    expect(err.reason).toBe('Conflict');
    expect((await listPods('tier=db')).items).toHaveLength(1);
  });

  test('delete with the right uid deletes the pod (graceful deletion completes)', async () => {
    const [p2] = (await listPods('tier=db')).items;
    await kube.delete(RESOURCES.pods, ref('p2'), { uid: p2.metadata.uid as string });
    await waitFor('p2 gone', 30000, async () =>
      (await listPods('tier=db')).items.length === 0 ? true : undefined,
    );
    const err = await kubeError(kube.delete(RESOURCES.pods, ref('p2'), { uid: p2.metadata.uid as string }));
    expect(isNotFound(err)).toBe(true);
  });
});
