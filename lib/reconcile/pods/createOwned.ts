/**
 * Creating an object a workload owns, where AlreadyExists may be the workload's own earlier attempt: the API-server
 * adapter retries a create whose answer was lost, so its first attempt may have created it. Shared by every
 * pod-set executor (CloneSet's pods and PVCs, Advanced StatefulSet's pods and PVCs).
 */
import { classifyWriteError } from '../../kube/errors.js';
import type { KubeClient, KubeObject, Resource } from '../../kube/types.js';

/**
 * POST `object`; on AlreadyExists, GET the object holding the name and count it as created when `ours(found)` says
 * it is the workload's (then the create expectation stays until the object is listed). Anything else is the
 * create's failure.
 * @param mayBeOurs false when the name was already taken in what the plan saw (then AlreadyExists is a failure
 *   without a GET)
 * @returns `created`, or `existed` when the name was held by an object of the workload
 * @throws the create's error when the object is not ours (also when reading it fails)
 */
export async function createOwned<T extends KubeObject>(
  kube: Pick<KubeClient, 'create' | 'get'>,
  resource: Resource<T>,
  object: T,
  mayBeOurs: boolean,
  ours: (found: T) => boolean,
): Promise<'created' | 'existed'> {
  try {
    await kube.create(resource, object);
    return 'created';
  } catch (e) {
    if (classifyWriteError(e) === 'alreadyExists' && mayBeOurs) {
      const { namespace, name = '' } = object.metadata;
      const found = await kube
        .get(resource, { ...(namespace !== undefined ? { namespace } : {}), name })
        .catch(() => undefined);
      if (found && ours(found)) return 'existed';
    }
    throw e;
  }
}
