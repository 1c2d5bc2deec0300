/**
 * The writes of one in-place pod patch with a cpu/memory change, by the API server's release (OpenKruise's
 * `ShouldUpdateResourceByResize`): `pods/resize` then the pod patch from 1.32, the resources inside the pod patch
 * before, and both when `GET /version` failed. Each request is recorded as sent.
 */
import { describe, expect, it } from '@jest/globals';
import type { JsonObject, Pod } from '../../../../lib/api/types.js';
import { CONFLICT_RETRY, writePodPatch } from '../../../../lib/reconcile/pods/patchPod.js';
import type { PodPatch } from '../../../../lib/reconcile/pods/statusPatches.js';
import { conflict, RecordingKube } from '../../controllers/cloneset/reconcile/support/recordingKube.js';

const NS = 'default';

/** A server of release `gitVersion` (`readable: false`: its GET /version fails) holding pod `web-0`. */
function server(gitVersion: string, readable = true) {
  const kube = new RecordingKube([], () => new Date('2024-05-01T08:00:00Z')).asRelease(gitVersion, readable);
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-0', namespace: NS, uid: 'uid-web-0', resourceVersion: '7' },
    spec: {
      containers: [
        { name: 'nginx', image: 'nginx:1', resources: { requests: { cpu: '100m', memory: '64Mi' } } },
        { name: 'sidecar', image: 'busybox:1', resources: { requests: { cpu: '10m' } } },
      ],
    },
  };
  kube.pods.set('web-0', pod);
  const sent: { subresource?: string; body: JsonObject; resourceVersion?: string }[] = [];
  const patch = kube.patch.bind(kube);
  kube.patch = (resource, ref, change, options = {}) => {
    sent.push({
      ...(options.subresource ? { subresource: options.subresource } : {}),
      body: change.body as JsonObject,
      ...(options.preconditions?.resourceVersion
        ? { resourceVersion: options.preconditions.resourceVersion }
        : {}),
    });
    return patch(resource, ref, change, options);
  };
  return { kube, sent };
}

const RESIZE = {
  spec: { containers: [{ name: 'nginx', resources: { requests: { cpu: '150m' } } }] },
};
/** The in-place patch of the revision: labels, and an image change of the sidecar. */
const PATCH = {
  metadata: { labels: { 'controller-revision-hash': 'web-2' } },
  spec: { containers: [{ name: 'sidecar', image: 'busybox:2' }] },
};
const ACTION: PodPatch = {
  type: 'PatchPod',
  pod: { name: 'web-0', uid: 'uid-web-0', resourceVersion: '7' },
  reason: 'InPlaceUpdate',
  patch: PATCH,
  resize: RESIZE,
};
/** The one pod patch of an older server: the patch with the resize's resources merged in by container name. */
const PATCH_WITH_RESOURCES = {
  metadata: { labels: { 'controller-revision-hash': 'web-2' } },
  spec: {
    containers: [
      { name: 'sidecar', image: 'busybox:2' },
      { name: 'nginx', resources: { requests: { cpu: '150m' } } },
    ],
  },
};

describe('writePodPatch: an in-place cpu/memory change by server release', () => {
  it('Kubernetes 1.34: PATCH pods/resize, then the pod patch without resources on the version it returned', async () => {
    const { kube, sent } = server('v1.34.4');
    const out = await writePodPatch(kube, NS, ACTION, { resourceVersion: '7' });
    const resized = String(Number(out.pod.metadata.resourceVersion) - 1);
    expect(sent).toEqual([
      { subresource: 'resize', body: RESIZE, resourceVersion: '7' },
      { body: PATCH, resourceVersion: resized },
    ]);
    expect(out.writes).toBe(2);
    expect(out.pod.spec.containers.map((c) => [c.image, c.resources])).toEqual([
      ['nginx:1', { requests: { cpu: '150m', memory: '64Mi' } }],
      ['busybox:2', { requests: { cpu: '10m' } }],
    ]);
  });

  it('EKS 1.32 (v1.32.0-eks-…) is new enough for pods/resize', async () => {
    const { kube, sent } = server('v1.32.0-eks-5ca49cb');
    await writePodPatch(kube, NS, ACTION, { resourceVersion: '7' });
    expect(sent.map((r) => r.subresource ?? 'pod')).toEqual(['resize', 'pod']);
  });

  it.each(['v1.31.4-eks-2d98532', 'v1.30.5-gke.1014001', 'v1.28+gke.1'])(
    '%s: one pod patch carrying the resources (no pods/resize request)',
    async (gitVersion) => {
      const { kube, sent } = server(gitVersion);
      const out = await writePodPatch(kube, NS, ACTION, { resourceVersion: '7' });
      expect(sent).toEqual([{ body: PATCH_WITH_RESOURCES, resourceVersion: '7' }]);
      expect(out.writes).toBe(1);
      expect(out.pod.spec.containers.map((c) => [c.image, c.resources])).toEqual([
        ['nginx:1', { requests: { cpu: '150m', memory: '64Mi' } }],
        ['busybox:2', { requests: { cpu: '10m' } }],
      ]);
      // the action is not changed for a retry
      expect(ACTION.patch).toEqual(PATCH);
    },
  );

  it('GET /version failed on a 1.31 server: pods/resize answers 404, then one pod patch with the resources', async () => {
    const { kube, sent } = server('v1.31.4-eks-2d98532', false);
    const out = await writePodPatch(kube, NS, ACTION, { resourceVersion: '7' });
    expect(sent).toEqual([
      { subresource: 'resize', body: RESIZE, resourceVersion: '7' },
      { body: PATCH_WITH_RESOURCES, resourceVersion: '7' },
    ]);
    expect(out.writes).toBe(1);
    expect(out.pod.spec.containers[0].resources).toEqual({ requests: { cpu: '150m', memory: '64Mi' } });
  });

  it('GET /version failed on a 1.34 server: pods/resize, then the pod patch, as when the version is known', async () => {
    const { kube, sent } = server('v1.34.4', false);
    const out = await writePodPatch(kube, NS, ACTION, { resourceVersion: '7' });
    expect(sent.map((r) => [r.subresource ?? 'pod', r.body])).toEqual([
      ['resize', RESIZE],
      ['pod', PATCH],
    ]);
    expect(out.writes).toBe(2);
  });

  it('a pod gone meanwhile: the 404 of the pod patch that follows the 404 of the resize is thrown', async () => {
    const { kube } = server('v1.34.4', false);
    kube.pods.delete('web-0');
    await expect(writePodPatch(kube, NS, ACTION, { resourceVersion: '7' })).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('a known 1.34 server: a 404 of the resize is the action failure, no pod patch follows', async () => {
    const { kube, sent } = server('v1.34.4');
    kube.pods.delete('web-0');
    await expect(writePodPatch(kube, NS, ACTION, { resourceVersion: '7' })).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(sent.map((r) => r.subresource ?? 'pod')).toEqual(['resize']);
  });

  it('a patch without a resize does not ask for the version', async () => {
    const { kube, sent } = server('v1.31.4-eks-2d98532');
    await writePodPatch(
      kube,
      NS,
      { type: 'PatchPod', pod: ACTION.pod, reason: 'InPlaceUpdate', patch: PATCH },
      { resourceVersion: '7' },
    );
    expect(kube.versionReads).toBe(0);
    expect(sent).toEqual([{ body: PATCH, resourceVersion: '7' }]);
  });
});

describe('writePodPatch: a 409 Conflict of a resize action, as OpenKruise RetryOnConflict(DefaultBackoff)', () => {
  /** web-0 as listed (the plan's basis), then a status write by the kubelet behind the client. */
  function raced() {
    const { kube, sent } = server('v1.34.4');
    const planned = structuredClone(kube.pods.get('web-0')!);
    const stored = kube.pods.get('web-0')!;
    stored.status = { phase: 'Running' };
    stored.metadata.resourceVersion = kube.advanceResourceVersion();
    const sleeps: number[] = [];
    const sleep = async (ms: number) => void sleeps.push(ms);
    return { kube, sent, planned, sleeps, sleep, fresh: stored.metadata.resourceVersion };
  }

  it('re-read after the backoff, the resize retried on the fresh resourceVersion, then the pod patch', async () => {
    const { kube, sent, planned, sleeps, sleep, fresh } = raced();
    const out = await writePodPatch(kube, NS, ACTION, { resourceVersion: '7', planned, sleep });
    expect(sent.map((r) => [r.subresource ?? 'pod', r.resourceVersion])).toEqual([
      ['resize', '7'],
      ['resize', fresh],
      ['pod', String(Number(out.pod.metadata.resourceVersion) - 1)],
    ]);
    expect(out.writes).toBe(2);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(10);
    expect(sleeps[0]).toBeLessThanOrEqual(11);
  });

  it('at most 4 attempts in all, 10/50/250 ms apart (jitter ≤ 10 %), then the 409 is thrown', async () => {
    const { kube, sent, planned, sleeps, sleep } = raced();
    kube.failOn((call) => (call === 'patch pod resize web-0' ? conflict(call) : undefined));
    await expect(
      writePodPatch(kube, NS, ACTION, { resourceVersion: '7', planned, sleep }),
    ).rejects.toMatchObject({
      statusCode: 409,
    });
    expect(sent).toHaveLength(CONFLICT_RETRY.attempts);
    expect(sleeps).toHaveLength(3);
    sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(10 * 5 ** i);
      expect(ms).toBeLessThanOrEqual(Math.round(11 * 5 ** i));
    });
  });

  it('without the planned pod (or without a precondition) the 409 is thrown at once, nothing re-read', async () => {
    const { kube, sent, sleeps, sleep } = raced();
    await expect(writePodPatch(kube, NS, ACTION, { resourceVersion: '7', sleep })).rejects.toMatchObject({
      statusCode: 409,
    });
    expect(sent).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('a pod changed in more than its status (an annotation) is not retried', async () => {
    const { kube, sent, planned, sleep } = raced();
    kube.pods.get('web-0')!.metadata.annotations = { note: 'x' };
    await expect(
      writePodPatch(kube, NS, ACTION, { resourceVersion: '7', planned, sleep }),
    ).rejects.toMatchObject({
      statusCode: 409,
    });
    expect(sent.map((r) => r.subresource ?? 'pod')).toEqual(['resize']);
  });
});
