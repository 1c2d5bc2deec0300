/**
 * LIST answers whose objects are read-only (docs/architecture.md#watched-lists): the pods a watched view answers are
 * shared between the view and every pass it answers, so every LIST of those resources — from the view or from the
 * API server — hands its readers deep-frozen objects. The same contract in every pass means a reader that changes a
 * listed object throws `TypeError` in its first test, whichever source answered.
 */
import { deepFreeze } from '../core/deepFreeze.js';
import { isOneOf, type KubeObject, type Resource } from './resource.js';
import type { KubeClient, Listed, ListOptions } from './types.js';

/**
 * `kube` whose LISTs of `resources` answer deep-frozen items (lib/core/deepFreeze.ts; already-frozen items cost
 * nothing). Everything else passes through unchanged.
 * @throws what the underlying client throws
 */
export function frozenListsKube(kube: KubeClient, resources: readonly Resource[]): KubeClient {
  if (resources.length === 0) return kube;
  const frozen = isOneOf(resources);
  return {
    ...kube,
    async list<T extends KubeObject>(resource: Resource<T>, options: ListOptions = {}): Promise<Listed<T>> {
      const listed = await kube.list(resource, options);
      if (frozen(resource)) for (const item of listed.items) deepFreeze(item);
      return listed;
    },
  };
}
