/**
 * The owner read again before a pass adopts anything, as upstream's `RecheckDeletionTimestamp` that the controller ref
 * manager's `ClaimPods` calls before its first adoption: the pass read its set before listing the pods, and a
 * `kubectl delete --cascade=orphan` in between leaves orphans that must not get the deleted set's controller reference
 * back (the garbage collector would then delete them). Shared by the Advanced StatefulSet's executor and the Advanced
 * DaemonSet's claim (docs/behaviour/daemonset.md).
 */
import type { KubeObject, Resource } from '../../kube/resource.js';
import type { KubeClient } from '../../kube/types.js';

/**
 * Whether `owner` may still adopt, read once: the first call GETs it (a quorum read) and every call answers from that
 * read — true while it exists with the UID the pass read and is not being deleted.
 * @param resource the owner's resource; `owner` as the pass read it (namespace, name, UID)
 * @returns the question, to be asked before each adoption
 * @throws (from the returned function) KubeApiError when the GET fails
 */
export function ownerRecheck<T extends KubeObject>(
  kube: Pick<KubeClient, 'get'>,
  resource: Resource<T>,
  owner: KubeObject,
): () => Promise<boolean> {
  const { namespace, name, uid } = owner.metadata;
  let answer: Promise<boolean> | undefined;
  return () =>
    (answer ??= kube
      .get(resource, { ...(namespace !== undefined ? { namespace } : {}), name: name ?? '' })
      .then((fresh) => !!fresh && !fresh.metadata.deletionTimestamp && fresh.metadata.uid === uid));
}
