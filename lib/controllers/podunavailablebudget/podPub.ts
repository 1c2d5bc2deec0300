/**
 * The PUB that covers a pod when it is created (OpenKruise v1.9.0's pkg/controller/podunavailablebudget/
 * pub_pod_event_handler.go `GetPubForPod`), read for the pod webhook's PUB step (./podMutation.ts) and for the pod
 * watch of a new pod without the related-pub annotation (./podWatch.ts).
 */
import type { Pod } from '../../api/types.js';
import { isNotFound } from '../../kube/errors.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import {
  findScaledWorkload,
  findWorkloadObject,
  SCALED_NOT_FOUND,
  WORKLOAD_FORBIDDEN,
} from '../../kube/scaleFinder.js';
import type { KubeClient } from '../../kube/types.js';
import { controllerRef } from '../../podset/ownership.js';
import { PUB_RESOURCE } from './api/resource.js';
import type { PodUnavailableBudget, PubTargetReference } from './api/types.js';
import { pubForPod, workloadKindOf } from './plan/targets.js';
import { findWorkload, type TargetReads } from './targets.js';

/**
 * The namespace's PUBs, in list order; none when the resource is not served.
 * @throws KubeApiError other than NotFound
 */
export async function namespacePubs(
  kube: Pick<KubeClient, 'list'>,
  namespace: string,
): Promise<PodUnavailableBudget[]> {
  try {
    return (await listAll(kube, PUB_RESOURCE, { namespace, limit: LIST_PAGE_SIZE })).items;
  } catch (e) {
    if (isNotFound(e)) return [];
    throw e;
  }
}

/** What the step reads. */
export interface PubMutationReads {
  /** The PUBs of `namespace`, in list order (none when the resource is not served). */
  pubs(namespace: string): Promise<PodUnavailableBudget[]>;
  /**
   * The workload a controller reference names, followed from a ReplicaSet to its Deployment, or of another kind
   * through its scale subresource, or else as the object itself (upstream's `getRefUID`); undefined when it does not
   * exist or cannot be read.
   */
  workload(
    namespace: string,
    ref: { apiVersion?: string; kind?: string; name?: string },
  ): Promise<PubTargetReference | undefined>;
}

/** {@link PubMutationReads} over the API server (quorum reads; upstream reads its informer cache). */
export function kubePubMutationReads(kube: TargetReads): PubMutationReads {
  return {
    pubs: (namespace) => namespacePubs(kube, namespace),
    workload: async (namespace, ref) => {
      if (!workloadKindOf(ref.apiVersion, ref.kind)) {
        const scaled =
          (await findScaledWorkload(kube, namespace, ref)) ??
          (await findWorkloadObject(kube, namespace, ref));
        if (!scaled || scaled === SCALED_NOT_FOUND || scaled === WORKLOAD_FORBIDDEN) return undefined;
        return { apiVersion: scaled.ref.apiVersion, kind: scaled.ref.kind, name: scaled.ref.name };
      }
      // by name, not UID: upstream's GetScaleAndSelectorForRef is given none
      const found = await findWorkload(kube, namespace, {
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        name: ref.name,
      });
      if (!found) return undefined;
      return {
        apiVersion: found.object.apiVersion ?? ref.apiVersion ?? '',
        kind: found.object.kind ?? ref.kind ?? '',
        name: found.object.metadata.name ?? '',
      };
    },
  };
}

/**
 * The PUB that covers a pod being created, as upstream's `GetPubForPod`.
 * @returns undefined when none does
 * @throws what the PUB LIST throws (a workload read that fails leaves `targetRef` unmatched instead)
 */
export async function pubOfNewPod(
  reads: PubMutationReads,
  pod: Pod,
  namespace: string,
): Promise<PodUnavailableBudget | undefined> {
  const pubs = await reads.pubs(namespace);
  if (pubs.length === 0) return undefined;
  const ref = controllerRef(pod.metadata.ownerReferences);
  const workload = ref ? await reads.workload(namespace, ref).catch(() => undefined) : undefined;
  return pubForPod(pubs, pod, workload);
}
