/**
 * OpenKruise: pkg/controller/podunavailablebudget/pub_pod_event_handler.go `enqueueRequestForPod` and `GetPubForPod`
 * (v1.9.0).
 *
 * The PUB controller's pod watch. A pod names the PUB of its related-pub annotation with no read (upstream maps only
 * annotated pods, which its mutating webhook marks at creation). Kruiseless has no PUB step in a pod webhook yet, so
 * a new pod (`ADDED`) without the annotation names the PUB that covers it: one LIST of its namespace's PUBs (shared by
 * the pump run's new pods until it sees a PUB change there: lib/source/listMemo.ts), and for a pod of a ReplicaSet one
 * GET to find its Deployment (./plan/targets.ts `pubForPod`); that PUB's pass then marks it.
 * An unmarked pod that is modified or relisted names nothing (no read on the cluster's every pod event), as upstream.
 * A deleted pod names nothing (upstream's delete handler is empty; the deletion timestamp's update already named
 * it). Upstream enqueues an update only when readiness or deletion changed; a Map watch sees only the new object, so
 * every other change of a marked pod names its PUB too — a superset, whose extra passes find nothing to write.
 */
import type { JsonObject, Pod } from '../../api/types.js';
import type { ObjectRef } from '../../kube/resource.js';
import { listAll, LIST_PAGE_SIZE } from '../../kube/list.js';
import { isNotFound } from '../../kube/errors.js';
import type { KubeClient } from '../../kube/types.js';
import { controllerRef } from '../../podset/ownership.js';
import type { ChangeType, MapReads } from '../../source/watchSpec.js';
import { PUB_RESOURCE } from './api/resource.js';
import type { PodUnavailableBudget, PubTargetReference } from './api/types.js';
import { relatedPubName } from './plan/podState.js';
import { pubForPod } from './plan/targets.js';
import { findWorkload } from './targets.js';

/**
 * The namespace's PUBs, in list order; none when the resource is not served.
 * @throws KubeApiError other than NotFound
 */
async function namespacePubs(
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

/**
 * The PUB a changed pod concerns (see the module doc).
 * @throws what a LIST or GET throws (the pump logs it and leaves the change to the resync)
 */
export async function pubsForPod(
  obj: JsonObject,
  reads?: MapReads,
  change: ChangeType = 'LISTED',
): Promise<ObjectRef[]> {
  const pod = obj as unknown as Pod;
  const namespace = pod.metadata?.namespace ?? '';
  if (change === 'DELETED' || !namespace) return [];
  const named = relatedPubName(pod);
  if (named) return [{ namespace, name: named }];
  if (change !== 'ADDED' || !reads) return [];
  const pubs = await namespacePubs(reads.kube, namespace);
  if (pubs.length === 0) return [];
  const ref = controllerRef(pod.metadata.ownerReferences);
  let workload: PubTargetReference | undefined;
  if (ref) {
    const found = await findWorkload(reads.kube, namespace, ref);
    workload = found
      ? {
          apiVersion: found.object.apiVersion ?? ref.apiVersion,
          kind: found.object.kind ?? ref.kind,
          name: found.object.metadata.name ?? '',
        }
      : undefined;
  }
  const pub = pubForPod(pubs, pod, workload);
  return pub ? [{ namespace, name: pub.metadata.name ?? '' }] : [];
}
