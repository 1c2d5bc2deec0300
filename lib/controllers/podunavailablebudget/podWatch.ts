/**
 * OpenKruise: pkg/controller/podunavailablebudget/pub_pod_event_handler.go `enqueueRequestForPod` and `GetPubForPod`
 * (v1.9.0).
 *
 * The PUB controller's pod watch. A pod names the PUB of its related-pub annotation with no read (upstream maps only
 * annotated pods, which its mutating webhook marks at creation; so does Kruiseless's, ./podMutation.ts, where the pod
 * webhooks are registered). A new pod (`ADDED`) without the annotation — created where no pod webhook runs, or
 * before its PUB — names the PUB that covers it (./podPub.ts `pubOfNewPod`): one LIST of its namespace's PUBs (shared
 * by the pump run's new pods until it sees a PUB change there: lib/source/listMemo.ts), and a GET of its controller
 * (two for a ReplicaSet's Deployment) when the namespace has a PUB; that PUB's pass then marks it.
 * An unmarked pod that is modified or relisted names nothing (no read on the cluster's every pod event), as upstream.
 * A deleted pod names nothing (upstream's delete handler is empty; the deletion timestamp's update already named
 * it). Upstream enqueues an update only when readiness or deletion changed; a Map watch sees only the new object, so
 * every other change of a marked pod names its PUB too — a superset, whose extra passes find nothing to write.
 */
import type { JsonObject, Pod } from '../../api/types.js';
import type { ObjectRef } from '../../kube/resource.js';
import type { ChangeType, MapReads } from '../../source/watchSpec.js';
import { relatedPubName } from './plan/podState.js';
import { kubePubMutationReads, pubOfNewPod } from './podPub.js';

/**
 * The PUB a changed pod concerns (see the module doc).
 * @throws what the PUB LIST throws (the pump logs it and leaves the change to the resync)
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
  const pub = await pubOfNewPod(kubePubMutationReads(reads.kube), pod, namespace);
  return pub ? [{ namespace, name: pub.metadata.name ?? '' }] : [];
}
