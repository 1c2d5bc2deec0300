/**
 * The API writes of one planned pod patch, shared by every pod-set executor (CloneSet's, Advanced StatefulSet's):
 * a condition patch through `pods/status`; any other patch through the pod itself. An in-place update that changes
 * cpu/memory is written as the API server's release allows (lib/kube/version.ts `servesPodResize`, OpenKruise's
 * `ShouldUpdateResourceByResize`): from Kubernetes 1.32 the `pods/resize` subresource patch first, then the pod
 * patch (OpenKruise's `updatePodInPlace`, `finishGracePeriod` and `updateNextBatch` in
 * pkg/util/inplaceupdate/inplace_update.go send `PatchPodResource` before `UpdatePod`); before 1.32 the resources
 * inside the pod patch.
 */
import type { Pod } from '../../api/types.js';
import { isNotFound } from '../../kube/errors.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { servesPodResize, type ServerVersionInfo } from '../../kube/version.js';
import { withResourcesInPodPatch } from '../../podset/inplace/apply.js';
import type { PodPatch } from './statusPatches.js';

/** What {@link writePodPatch} did. */
export interface PodPatchWritten {
  /** The pod as the last write returned it. */
  pod: Pod;
  /** API writes that succeeded (2 with a `pods/resize`). */
  writes: number;
}

/**
 * How an in-place cpu/memory change is written to a server (see {@link writePodPatch}):
 * - `resize`: Kubernetes ≥ 1.32 — `pods/resize` first, then the pod patch without resources;
 * - `podPatch`: older — the resources inside the pod patch (`pods/resize` answers 404 there);
 * - `resizeThenPodPatch`: the version is unknown (`GET /version` failed, or names no release) — `pods/resize` first
 *   and, only if it answers 404, the resources inside the pod patch. Kruiseless's own safe fallback, where OpenKruise
 *   assumes an older server (v1.9.0 does not start without the version; HEAD takes the old path for one it cannot
 *   parse): guessing "older" would fail every update on a current server (a pod patch changing resources is 422
 *   there), while a resize refused with 404 wrote nothing, so either kind of server is updated.
 */
export type ResizeWrite = 'resize' | 'podPatch' | 'resizeThenPodPatch';

/** The {@link ResizeWrite} for a server that answered `info` to `GET /version` (undefined: not read). */
export function resizeWriteFor(info: ServerVersionInfo | undefined): ResizeWrite {
  const served = servesPodResize(info);
  return served === undefined ? 'resizeThenPodPatch' : served ? 'resize' : 'podPatch';
}

/**
 * Sends `a`. Without a resize, the one patch, through `pods/status` for a `PatchPodStatus`. With `a.resize`, by the
 * server's version (`kube.serverVersion()`, {@link resizeWriteFor}):
 * - Kubernetes ≥ 1.32: first `PATCH pods/<name>/resize` (strategic merge, with `resourceVersion` as precondition
 *   when given), then the pod patch with the resourceVersion the resize returned as precondition (the resize
 *   changes the pod's resourceVersion; the pod patch applies on top of it). OpenKruise:
 *   `AdapterRuntimeClient.PatchPodResource` (pkg/util/podadapter/adapter.go), then `UpdatePod`;
 * - older: one pod patch carrying the resources as well (podset `withResourcesInPodPatch`), as OpenKruise's
 *   `UpdatePod` of a pod whose spec `UpdateResource` changed;
 * - version unknown: the resize as for ≥ 1.32, and when it answers 404 (no `pods/resize`: an older server; or the
 *   pod is gone, which the pod patch then reports in turn) the pod patch with the resources, as for older.
 * @param resourceVersion the precondition of the first write, if the action needs one
 * @throws the API error of the failed write (the resize's error when it fails, other than the 404 above: the pod
 *   patch is then not sent)
 */
export async function writePodPatch(
  kube: Pick<KubeClient, 'patch' | 'serverVersion'>,
  namespace: string,
  a: PodPatch,
  resourceVersion: string | undefined,
): Promise<PodPatchWritten> {
  const ref = { namespace, name: a.pod.name };
  let rv = resourceVersion;
  let writes = 0;
  let body = a.patch;
  if (a.type === 'PatchPod' && a.resize) {
    const how = resizeWriteFor(await kube.serverVersion());
    let resized: Pod | undefined;
    if (how !== 'podPatch') {
      try {
        resized = await kube.patch(
          RESOURCES.pods,
          ref,
          { type: 'strategic-merge', body: a.resize },
          { subresource: 'resize', ...(rv !== undefined ? { preconditions: { resourceVersion: rv } } : {}) },
        );
      } catch (e) {
        if (how === 'resize' || !isNotFound(e)) throw e;
      }
    }
    if (resized) {
      writes++;
      if (rv !== undefined) rv = resized.metadata.resourceVersion ?? rv;
    } else body = withResourcesInPodPatch(a.patch, a.resize);
  }
  const pod = await kube.patch(
    RESOURCES.pods,
    ref,
    { type: 'strategic-merge', body },
    {
      ...(a.type === 'PatchPodStatus' ? { subresource: 'status' } : {}),
      ...(rv !== undefined ? { preconditions: { resourceVersion: rv } } : {}),
    },
  );
  return { pod, writes: writes + 1 };
}
