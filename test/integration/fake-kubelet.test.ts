/**
 * The kwok fake kubelet (infra/local/kwok-stages.yaml) on a real control plane: scheduling, Running/Ready,
 * in-place image update reporting, readiness gates, graceful deletion.
 */
import { ApiException, PatchStrategy, setHeaderOptions, type V1Pod } from '@kubernetes/client-node';
import { useTestNamespace } from './support/cluster.js';
import { waitFor } from './support/wait.js';

const t = useTestNamespace('kubelet');

function pod(name: string, extra: Partial<NonNullable<V1Pod['spec']>> = {}): V1Pod {
  return {
    metadata: { name },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.18-alpine' }], ...extra },
  };
}

const read = (name: string): Promise<V1Pod> => t.core.readNamespacedPod({ name, namespace: t.namespace });
/** Changes one container's image, as an in-place update does (strategic merge by container name). */
const setImage = (name: string, container: string, image: string): Promise<V1Pod> =>
  t.core.patchNamespacedPod(
    { name, namespace: t.namespace, body: { spec: { containers: [{ name: container, image }] } } },
    setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
  );
const condition = (p: V1Pod, type: string): string | undefined =>
  p.status?.conditions?.find((c) => c.type === type)?.status;

describe('kwok fake kubelet', () => {
  test('a bare pod is scheduled to a kwok node and becomes Running and Ready', async () => {
    await t.core.createNamespacedPod({ namespace: t.namespace, body: pod('bare') });
    const p = await waitFor('pod bare Ready', 30000, async () => {
      const cur = await read('bare');
      return condition(cur, 'Ready') === 'True' ? cur : undefined;
    });
    expect(p.spec?.nodeName).toMatch(/^kwok-node-\d$/);
    expect(p.status?.phase).toBe('Running');
    expect(condition(p, 'ContainersReady')).toBe('True');
    const [cs] = p.status?.containerStatuses ?? [];
    expect(cs.name).toBe('nginx');
    expect(cs.image).toBe('nginx:1.18-alpine');
    expect(cs.imageID).toMatch(/^sim\.local\/nginx:1\.18-alpine@sha256:[0-9a-f]{64}$/);
    expect(cs.containerID).toMatch(/^sim:\/\/[0-9a-f]{64}$/);
    expect(cs.restartCount).toBe(0);
    expect(cs.ready).toBe(true);
    expect(cs.state?.running?.startedAt).toBeDefined();
  });

  test('patching the image reports the new image and imageID with restartCount 1', async () => {
    const before = await read('bare');
    const oldStatus = before.status?.containerStatuses?.[0];
    await setImage('bare', 'nginx', 'nginx:1.19-alpine');
    const p = await waitFor('in-place update reported', 30000, async () => {
      const cur = await read('bare');
      return cur.status?.containerStatuses?.[0]?.image === 'nginx:1.19-alpine' ? cur : undefined;
    });
    const cs = p.status?.containerStatuses?.[0];
    expect(cs?.restartCount).toBe(1);
    expect(cs?.imageID).toMatch(/^sim\.local\/nginx:1\.19-alpine@sha256:[0-9a-f]{64}$/);
    expect(cs?.imageID).not.toBe(oldStatus?.imageID);
    expect(cs?.containerID).not.toBe(oldStatus?.containerID);
    expect(cs?.lastState?.terminated?.containerID).toBe(oldStatus?.containerID);
    expect(p.status?.phase).toBe('Running');
    expect(condition(p, 'Ready')).toBe('True');
  });

  test('two tags of one image (nginx:alpine, nginx:mainline-alpine) share the imageID; the container still restarts', async () => {
    await t.core.createNamespacedPod({
      namespace: t.namespace,
      body: {
        metadata: { name: 'alias' },
        spec: { containers: [{ name: 'nginx', image: 'docker.io/library/nginx:alpine' }] },
      },
    });
    const before = await waitFor('pod alias Running', 30000, async () => {
      const cur = await read('alias');
      return cur.status?.phase === 'Running' ? cur : undefined;
    });
    const oldStatus = before.status?.containerStatuses?.[0];
    expect(oldStatus?.imageID).toMatch(/^sim\.local\/docker\.io\/library\/nginx:alpine@sha256:[0-9a-f]{64}$/);
    await setImage('alias', 'nginx', 'docker.io/library/nginx:mainline-alpine');
    const p = await waitFor('in-place update reported', 30000, async () => {
      const cur = await read('alias');
      return cur.status?.containerStatuses?.[0]?.image === 'docker.io/library/nginx:mainline-alpine'
        ? cur
        : undefined;
    });
    const cs = p.status?.containerStatuses?.[0];
    expect(cs?.imageID).toBe(oldStatus?.imageID);
    expect(cs?.containerID).not.toBe(oldStatus?.containerID);
    expect(cs?.restartCount).toBe(1);
  });

  test('a pod with an unmet readiness gate stays not Ready until the condition is set', async () => {
    const gate = 'InPlaceUpdateReady';
    await t.core.createNamespacedPod({
      namespace: t.namespace,
      body: pod('gated', { readinessGates: [{ conditionType: gate }] }),
    });
    const running = await waitFor('pod gated Running', 30000, async () => {
      const cur = await read('gated');
      return cur.status?.phase === 'Running' ? cur : undefined;
    });
    expect(condition(running, 'ContainersReady')).toBe('True');
    expect(condition(running, 'Ready')).toBe('False');
    // Give kwok time to (wrongly) flip it; it must not.
    await new Promise((r) => setTimeout(r, 1500));
    expect(condition(await read('gated'), 'Ready')).toBe('False');

    await t.core.patchNamespacedPodStatus(
      {
        name: 'gated',
        namespace: t.namespace,
        body: { status: { conditions: [{ type: gate, status: 'True', lastTransitionTime: new Date() }] } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    const ready = await waitFor('pod gated Ready', 30000, async () => {
      const cur = await read('gated');
      return condition(cur, 'Ready') === 'True' ? cur : undefined;
    });
    expect(condition(ready, gate)).toBe('True');
  });

  test('a container restarted in place with a postStart `sleep N` hook is ready N s (+1 s) after its start, the pod not Ready meanwhile', async () => {
    const spec = (redisImage: string): NonNullable<V1Pod['spec']> => ({
      containers: [
        { name: 'nginx', image: 'nginx:1.18-alpine' },
        {
          name: 'redis',
          image: redisImage,
          command: ['sleep', '999'],
          lifecycle: { postStart: { exec: { command: ['sleep', '3'] } } },
        },
      ],
    });
    await t.core.createNamespacedPod({
      namespace: t.namespace,
      body: { metadata: { name: 'hook' }, spec: spec('redis:6') },
    });
    await waitFor(
      'pod hook Ready',
      30000,
      async () => condition(await read('hook'), 'Ready') === 'True' || undefined,
    );
    await setImage('hook', 'redis', 'redis:7');
    const during = await waitFor('redis restarted', 30000, async () => {
      const cur = await read('hook');
      return cur.status?.containerStatuses?.find((c) => c.name === 'redis')?.image === 'redis:7'
        ? cur
        : undefined;
    });
    const redis = during.status?.containerStatuses?.find((c) => c.name === 'redis');
    expect(redis?.ready).toBe(false);
    expect(redis?.restartCount).toBe(1);
    expect(redis?.state?.running?.startedAt).toBeDefined();
    expect(during.status?.containerStatuses?.find((c) => c.name === 'nginx')?.ready).toBe(true);
    expect(condition(during, 'ContainersReady')).toBe('False');
    expect(condition(during, 'Ready')).toBe('False');
    const after = await waitFor('redis ready after its hook', 30000, async () => {
      const cur = await read('hook');
      return condition(cur, 'Ready') === 'True' ? cur : undefined;
    });
    const readyAt = Date.now();
    const started = new Date(redis?.state?.running?.startedAt ?? 0).getTime();
    expect(readyAt - started).toBeGreaterThanOrEqual(3000);
    expect(after.status?.containerStatuses?.every((c) => c.ready && c.started)).toBe(true);
    expect(condition(after, 'ContainersReady')).toBe('True');
  });

  test('a container restarted in place into busybox with no command exits and waits in CrashLoopBackOff', async () => {
    await t.core.createNamespacedPod({ namespace: t.namespace, body: pod('crash') });
    await waitFor(
      'pod crash Ready',
      30000,
      async () => condition(await read('crash'), 'Ready') === 'True' || undefined,
    );
    await setImage('crash', 'nginx', 'registry.k8s.io/e2e-test-images/busybox:1.36.1-1');
    const p = await waitFor('busybox exited', 30000, async () => {
      const cur = await read('crash');
      return cur.status?.containerStatuses?.[0]?.state?.waiting ? cur : undefined;
    });
    const cs = p.status?.containerStatuses?.[0];
    expect(cs?.state?.waiting?.reason).toBe('CrashLoopBackOff');
    expect(cs?.lastState?.terminated?.exitCode).toBe(0);
    expect(cs?.ready).toBe(false);
    expect(cs?.restartCount).toBe(1);
    expect(condition(p, 'ContainersReady')).toBe('False');
    expect(condition(p, 'Ready')).toBe('False');
    // stays so: no stage makes it ready again
    await new Promise((r) => setTimeout(r, 1500));
    expect(condition(await read('crash'), 'Ready')).toBe('False');
  });

  test('graceful deletion completes', async () => {
    await t.core.deleteNamespacedPod({ name: 'gated', namespace: t.namespace });
    const gone = await waitFor('pod gated deleted', 30000, async () => {
      try {
        await read('gated');
        return undefined;
      } catch (e) {
        return e instanceof ApiException && e.code === 404;
      }
    });
    expect(gone).toBe(true);
  });
});
