/**
 * The SidecarSet controller's writes over the generic client (lib/kube): the SidecarSet's status (OpenKruise's
 * `updateSidecarSetStatus`), a pod with new sidecar images (`updatePodSidecarAndHash`'s `Update`) and the pod's
 * `SidecarSetUpgradable` condition (`updatePodSidecarSetUpgradableCondition`'s status patch).
 */
import type { Pod, PodCondition } from '../../api/types.js';
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { SIDECARSET_RESOURCE } from './api/resource.js';
import type { SidecarSet, SidecarSetStatus } from './api/types.js';

/**
 * Replace `.status` through the status subresource, `observedGeneration` the SidecarSet's generation: one PUT with
 * the read resourceVersion as precondition (409 Conflict if the SidecarSet changed since read).
 * @returns the SidecarSet as stored
 * @throws KubeApiError (Conflict, NotFound, ...)
 */
export async function updateSidecarSetStatus(
  kube: Pick<KubeClient, 'replace'>,
  sidecarSet: SidecarSet,
  status: SidecarSetStatus,
): Promise<SidecarSet> {
  const written = await kube.replace(
    SIDECARSET_RESOURCE,
    {
      ...sidecarSet,
      status: { ...status, observedGeneration: sidecarSet.metadata.generation ?? 0 },
    } as never,
    { subresource: 'status' },
  );
  return written as unknown as SidecarSet;
}

/**
 * PUT the pod with its new sidecar images and annotations; `next` carries the resourceVersion read, so a pod changed
 * since is a 409 (upstream re-reads and retries; here the next pass does).
 * @throws KubeApiError (Conflict, NotFound, Invalid, ...)
 */
export function updatePod(kube: Pick<KubeClient, 'replace'>, next: Pod): Promise<Pod> {
  return kube.replace(RESOURCES.pods, next);
}

/**
 * Strategic-merge `{"status":{"conditions":[condition]}}` into pods/status (conditions merge by type).
 * @throws KubeApiError
 */
export async function patchUpgradableCondition(
  kube: Pick<KubeClient, 'patch'>,
  pod: Pod,
  condition: PodCondition,
): Promise<void> {
  await kube.patch(
    RESOURCES.pods,
    { namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '' },
    { type: 'strategic-merge', body: { status: { conditions: [{ ...condition }] } } },
    { subresource: 'status' },
  );
}
