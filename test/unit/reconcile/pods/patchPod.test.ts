/**
 * The writes of one in-place pod patch with a cpu/memory change, by the API server's release (OpenKruise's
 * `ShouldUpdateResourceByResize`): `pods/resize` then the pod patch from 1.32, the resources inside the pod patch
 * before, and both when `GET /version` failed. Each request is recorded as sent.
 */
import { describe, expect, it } from '@jest/globals';
import type { JsonObject, Pod } from '../../../../lib/api/types.js';
import { writePodPatch } from '../../../../lib/reconcile/pods/patchPod.js';
import type { PodPatch } from '../../../../lib/reconcile/pods/statusPatches.js';
import { RecordingKube } from '../../controllers/cloneset/reconcile/support/recordingKube.js';

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
    const out = await writePodPatch(kube, NS, ACTION, '7');
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
    await writePodPatch(kube, NS, ACTION, '7');
    expect(sent.map((r) => r.subresource ?? 'pod')).toEqual(['resize', 'pod']);
  });

  it.each(['v1.31.4-eks-2d98532', 'v1.30.5-gke.1014001', 'v1.28+gke.1'])(
    '%s: one pod patch carrying the resources (no pods/resize request)',
    async (gitVersion) => {
      const { kube, sent } = server(gitVersion);
      const out = await writePodPatch(kube, NS, ACTION, '7');
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
    const out = await writePodPatch(kube, NS, ACTION, '7');
    expect(sent).toEqual([
      { subresource: 'resize', body: RESIZE, resourceVersion: '7' },
      { body: PATCH_WITH_RESOURCES, resourceVersion: '7' },
    ]);
    expect(out.writes).toBe(1);
    expect(out.pod.spec.containers[0].resources).toEqual({ requests: { cpu: '150m', memory: '64Mi' } });
  });

  it('GET /version failed on a 1.34 server: pods/resize, then the pod patch, as when the version is known', async () => {
    const { kube, sent } = server('v1.34.4', false);
    const out = await writePodPatch(kube, NS, ACTION, '7');
    expect(sent.map((r) => [r.subresource ?? 'pod', r.body])).toEqual([
      ['resize', RESIZE],
      ['pod', PATCH],
    ]);
    expect(out.writes).toBe(2);
  });

  it('a pod gone meanwhile: the 404 of the pod patch that follows the 404 of the resize is thrown', async () => {
    const { kube } = server('v1.34.4', false);
    kube.pods.delete('web-0');
    await expect(writePodPatch(kube, NS, ACTION, '7')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('a known 1.34 server: a 404 of the resize is the action failure, no pod patch follows', async () => {
    const { kube, sent } = server('v1.34.4');
    kube.pods.delete('web-0');
    await expect(writePodPatch(kube, NS, ACTION, '7')).rejects.toMatchObject({ statusCode: 404 });
    expect(sent.map((r) => r.subresource ?? 'pod')).toEqual(['resize']);
  });

  it('a patch without a resize does not ask for the version', async () => {
    const { kube, sent } = server('v1.31.4-eks-2d98532');
    await writePodPatch(
      kube,
      NS,
      { type: 'PatchPod', pod: ACTION.pod, reason: 'InPlaceUpdate', patch: PATCH },
      '7',
    );
    expect(kube.versionReads).toBe(0);
    expect(sent).toEqual([{ body: PATCH, resourceVersion: '7' }]);
  });
});
