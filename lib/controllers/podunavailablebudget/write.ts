/**
 * The PodUnavailableBudget's writes over the generic client (lib/kube): its status through the status subresource
 * (OpenKruise's `updatePubStatus`, `Status().Update`), and the related-pub annotations on its pods
 * (`patchRelatedPubAnnotationInPod`, a strategic-merge patch).
 */
import { RESOURCES } from '../../kube/resources.js';
import type { KubeClient } from '../../kube/types.js';
import { ANNOTATION_RELATED_PUB, ANNOTATION_RELATED_PUB_DEPRECATED } from './api/keys.js';
import { PUB_RESOURCE } from './api/resource.js';
import type { PodUnavailableBudget, PodUnavailableBudgetStatus } from './api/types.js';

/**
 * Replace `.status`: one PUT of `pub` with `status`, its resourceVersion the precondition.
 * @returns the PUB as stored
 * @throws KubeApiError (Conflict, NotFound, ...)
 */
export function updatePubStatus(
  kube: Pick<KubeClient, 'replace'>,
  pub: PodUnavailableBudget,
  status: PodUnavailableBudgetStatus,
): Promise<PodUnavailableBudget> {
  return kube.replace(PUB_RESOURCE, { ...pub, status }, { subresource: 'status' });
}

/**
 * Mark pod `name` of `namespace` with the PUB's name, in both annotations (the current and the deprecated key).
 * @throws KubeApiError (NotFound when the pod is gone, ...)
 */
export async function markPodRelatedPub(
  kube: Pick<KubeClient, 'patch'>,
  namespace: string,
  name: string,
  pubName: string,
): Promise<void> {
  await kube.patch(
    RESOURCES.pods,
    { namespace, name },
    {
      type: 'strategic-merge',
      body: {
        metadata: {
          annotations: { [ANNOTATION_RELATED_PUB]: pubName, [ANNOTATION_RELATED_PUB_DEPRECATED]: pubName },
        },
      },
    },
  );
}
