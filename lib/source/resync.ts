/**
 * The resync source (docs/architecture.md#resync): one reconcile request for every CloneSet of a cluster, so the system
 * converges even if every other event were lost.
 */
import {
  EVENT_VERSION,
  withCorrelationIds,
  type EventPublisher,
  type PublishResult,
  type ReconcileRequest,
} from '../requests/index.js';
import { CLONESET_KIND } from '../api/kinds.js';
import { RESOURCES } from '../kube/resources.js';
import type { KubeClient } from '../kube/types.js';

/**
 * List every CloneSet of `cluster` and publish a `Resync` request for each.
 * @returns the number of CloneSets and the publisher's result
 * @throws KubeApiError when the list fails; PublishError when entries could not be published
 */
export async function resyncCluster(
  cluster: string,
  kube: KubeClient,
  publisher: EventPublisher,
): Promise<{ cloneSets: number; result: PublishResult }> {
  const listed = await kube.list(RESOURCES.clonesets);
  const requests: ReconcileRequest[] = listed.items
    .filter((cs) => cs.metadata.namespace && cs.metadata.name)
    .map((cs) => ({
      version: EVENT_VERSION,
      cluster,
      kind: CLONESET_KIND,
      namespace: cs.metadata.namespace ?? '',
      name: cs.metadata.name ?? '',
      reason: 'Resync',
      ...(cs.metadata.resourceVersion ? { resourceVersion: cs.metadata.resourceVersion } : {}),
    }));
  const result = await publisher.publish(withCorrelationIds(requests));
  return { cloneSets: requests.length, result };
}
