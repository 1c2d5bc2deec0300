/**
 * LISTs of a rarely written resource without the watch cache's wait, within one invocation
 * (docs/architecture.md#reads). A quorum LIST (no resourceVersion) is answered from the API server's watch cache once
 * that cache has seen etcd's current revision; a resource nobody is writing (a set's ControllerRevisions) only gets
 * there at the cache's next progress notification, which k8s.io/apiserver requests every 100 ms while reads wait
 * (`progressRequestPeriod`): measured 41 ms a LIST of ControllerRevisions in an OrderedReady scale-up
 * (BENCHMARKS.md#asts-ordered-timeline). So an invocation reads such a resource once by quorum, and its later passes
 * ask for an answer not older than what that read returned (`resourceVersionMatch=NotOlderThan`), which the cache
 * gives at once: never older than what the invocation has seen, and never older than its own writes, because a
 * write to the resource through the client makes the next LIST a quorum read again. What another writer changed
 * meanwhile is seen at the latest {@link LIST_FLOOR_TTL_MS} after the quorum read, or by the next invocation.
 */
import type { KubeObject, Resource } from './resource.js';
import type { KubeClient, Listed, ListOptions } from './types.js';

/** How long after its quorum read a LIST is answered from the floor, ms; then it is a quorum read again. */
export const LIST_FLOOR_TTL_MS = 10_000;

/** Where one LIST (resource, namespace, selectors) stands in an invocation. */
interface Floor {
  /** The newest resourceVersion a LIST of it answered with. */
  resourceVersion: string;
  /** When its last quorum read was answered (clock, epoch ms). */
  quorumAtMs: number;
}

const resourceId = (r: Resource): string => `${r.plural}.${r.group}`;

/**
 * The floors of one invocation, per LIST (resource, namespace, label and field selector): made fresh for each
 * invocation, so nothing outlives it.
 */
export class ListFloors {
  readonly #floors = new Map<string, Floor>();

  /** Key of a LIST; page options (`limit`, `continue`) are not part of it. */
  static keyOf(resource: Resource, options: ListOptions): string {
    return [
      resourceId(resource),
      options.namespace ?? '',
      options.labelSelector ?? '',
      options.fieldSelector ?? '',
    ].join('\u0000');
  }

  /** The floor to list from at `nowMs`, if there is one still within {@link LIST_FLOOR_TTL_MS} of its quorum read. */
  floorOf(key: string, nowMs: number): string | undefined {
    const floor = this.#floors.get(key);
    if (floor === undefined || nowMs - floor.quorumAtMs >= LIST_FLOOR_TTL_MS) return undefined;
    return floor.resourceVersion;
  }

  /**
   * Note what a LIST answered: a quorum read starts a floor at `nowMs`; a floor read moves the floor's
   * resourceVersion on (its quorum time stays). An answer without a resourceVersion is not noted.
   */
  note(key: string, resourceVersion: string, quorum: boolean, nowMs: number): void {
    if (resourceVersion === '') return;
    const floor = this.#floors.get(key);
    if (quorum || floor === undefined) this.#floors.set(key, { resourceVersion, quorumAtMs: nowMs });
    else floor.resourceVersion = resourceVersion;
  }

  /** Drop every floor of `resource`: it was written, so its next LIST is a quorum read. */
  forget(resource: Resource): void {
    const prefix = `${resourceId(resource)}\u0000`;
    for (const key of [...this.#floors.keys()]) if (key.startsWith(prefix)) this.#floors.delete(key);
  }
}

/**
 * `kube` with the LISTs of `resources` (first pages only: a `continue` page is read as asked) answered from
 * `floors` ({@link ListFloors}) and every write to one of them (create, replace, patch, delete, attempted or not)
 * dropping its floors; everything else is passed through unchanged. A floor read that fails is read again as a
 * quorum read (an API server whose cache is more than its 3 s wait behind answers 504 "Too large resource
 * version").
 * @param clock epoch ms
 * @throws what the underlying client throws (a quorum read's error as is)
 */
export function flooredKube(
  kube: KubeClient,
  floors: ListFloors,
  resources: readonly Resource[],
  clock: () => number,
): KubeClient {
  const ids = new Set(resources.map(resourceId));
  const floored = (r: Resource): boolean => ids.has(resourceId(r));
  const wrote = (r: Resource): void => {
    if (floored(r)) floors.forget(r);
  };
  return {
    get: (resource, ref) => kube.get(resource, ref),
    async list<T extends KubeObject>(resource: Resource<T>, options: ListOptions = {}): Promise<Listed<T>> {
      if (!floored(resource) || options.continue !== undefined || options.resourceVersion !== undefined)
        return kube.list(resource, options);
      const key = ListFloors.keyOf(resource, options);
      const floor = floors.floorOf(key, clock());
      if (floor !== undefined) {
        try {
          const listed = await kube.list(resource, {
            ...options,
            resourceVersion: floor,
            resourceVersionMatch: 'NotOlderThan',
          });
          floors.note(key, listed.resourceVersion, false, clock());
          return listed;
        } catch {
          floors.forget(resource);
        }
      }
      const listed = await kube.list(resource, options);
      floors.note(key, listed.resourceVersion, true, clock());
      return listed;
    },
    create(resource, object) {
      wrote(resource);
      return kube.create(resource, object);
    },
    replace(resource, object, options) {
      wrote(resource);
      return kube.replace(resource, object, options);
    },
    patch(resource, ref, patch, options) {
      wrote(resource);
      return kube.patch(resource, ref, patch, options);
    },
    delete(resource, ref, preconditions, options) {
      wrote(resource);
      return kube.delete(resource, ref, preconditions, options);
    },
    recordEvent: (resource, object, event, options) => kube.recordEvent(resource, object, event, options),
    serverVersion: () => kube.serverVersion(),
  };
}
