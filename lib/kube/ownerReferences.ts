/**
 * Replacing an object's owner references (adopting or releasing it, e.g. a CloneSet's PVCs), for any resource.
 */
import type { JsonObject, OwnerReference } from '../api/types.js';
import type { KubeObject, ObjectRef, Resource } from './resource.js';
import type { KubeClient } from './types.js';

/**
 * Merge PATCH replacing the owner references of the object `ref` names. `uid` goes into the patch: an object with
 * another UID (a same-named successor) rejects it with 422 Invalid (`metadata.uid: field is immutable`), not 409 —
 * PATCH has no UID precondition of its own.
 * @returns the object as stored after the write
 * @throws KubeApiError (Invalid for another UID, NotFound, ...)
 */
export function patchOwnerReferences<T extends KubeObject>(
  kube: Pick<KubeClient, 'patch'>,
  resource: Resource<T>,
  ref: ObjectRef,
  uid: string,
  ownerReferences: OwnerReference[],
): Promise<T> {
  const body = { metadata: { ownerReferences } } as unknown as JsonObject;
  return kube.patch(resource, ref, { type: 'merge', body }, { preconditions: { uid } });
}
