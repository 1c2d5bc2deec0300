/**
 * The API writes of one planned pod patch, shared by every pod-set executor (CloneSet's, Advanced StatefulSet's):
 * a condition patch through `pods/status`; any other patch through the pod itself, preceded, for an in-place update
 * that changes cpu/memory, by the `pods/resize` subresource patch (OpenKruise's `updatePodInPlace`,
 * `finishGracePeriod` and `updateNextBatch` in pkg/util/inplaceupdate/inplace_update.go send `PatchPodResource`
 * before `UpdatePod`).
 */
import type { Pod } from '../../api/types.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import type { PodPatch } from './statusPatches.js';

/** What {@link writePodPatch} did. */
export interface PodPatchWritten {
  /** The pod as the last write returned it. */
  pod: Pod;
  /** API writes made (2 with a resize). */
  writes: number;
}

/**
 * Sends `a`: with `a.resize`, first `PATCH pods/<name>/resize` (strategic merge, with `resourceVersion` as
 * precondition when given), then the pod patch with the resourceVersion the resize returned as precondition (the
 * resize changes the pod's resourceVersion; the pod patch applies on top of it). Without a resize, the one patch,
 * through `pods/status` for a `PatchPodStatus`. OpenKruise: `AdapterRuntimeClient.PatchPodResource`
 * (pkg/util/podadapter/adapter.go), then `UpdatePod`.
 * @param resourceVersion the precondition of the first write, if the action needs one
 * @throws the API error of the failed write (the resize's error when it fails: the pod patch is then not sent)
 */
export async function writePodPatch(
  kube: Pick<KubeClient, 'patch'>,
  namespace: string,
  a: PodPatch,
  resourceVersion: string | undefined,
): Promise<PodPatchWritten> {
  const ref = { namespace, name: a.pod.name };
  let rv = resourceVersion;
  let writes = 0;
  if (a.type === 'PatchPod' && a.resize) {
    const resized = await kube.patch(
      RESOURCES.pods,
      ref,
      { type: 'strategic-merge', body: a.resize },
      { subresource: 'resize', ...(rv !== undefined ? { preconditions: { resourceVersion: rv } } : {}) },
    );
    writes++;
    if (rv !== undefined) rv = resized.metadata.resourceVersion ?? rv;
  }
  const pod = await kube.patch(
    RESOURCES.pods,
    ref,
    { type: 'strategic-merge', body: a.patch },
    {
      ...(a.type === 'PatchPodStatus' ? { subresource: 'status' } : {}),
      ...(rv !== undefined ? { preconditions: { resourceVersion: rv } } : {}),
    },
  );
  return { pod, writes: writes + 1 };
}
