/**
 * LISTs without the watch cache's wait (docs/architecture.md#list-floors). A quorum LIST (no resourceVersion) is
 * answered from the API server's watch cache once that cache has seen etcd's current revision, which for a resource
 * the last write was not to takes until the cache's next progress notification, requested every 100 ms while reads
 * wait (k8s.io/apiserver `progressRequestPeriod`): measured 41 ms a LIST of ControllerRevisions and 25 ms of pods in
 * an OrderedReady scale-up (BENCHMARKS.md#asts-ordered-timeline). A LIST with `resourceVersionMatch=NotOlderThan` a
 * resourceVersion the cache has reached is answered at once. So each floored resource has a floor: a resourceVersion
 * every answer must be at least as new as, made of
 * - what the last quorum read answered, and every answer since (nothing seen is un-seen, on any API server);
 * - the resourceVersion of every write through the client (a pass sees its own writes; a write that failed or
 *   whose answer has none, a delete, drops the floor: the next LIST is a quorum read);
 * - the resourceVersion of the change that woke the invocation (lib/reconcile/reconcile.ts `startingFloors`): that
 *   change is in the answer; so is that of a dirty mark of an owned change (lib/reconcile/reconcile.ts `markOf`);
 * - carried from one invocation to the next on the lease item ({@link ListFloors.carried}), only through a release
 *   (a holder that died may have seen more than it stored).
 * A floor lasts {@link LIST_FLOOR_TTL_MS} from its quorum read, then the next LIST is a quorum read: what another
 * writer changed without waking the object (someone else's ControllerRevision) is seen by then.
 *
 * resourceVersions are compared as etcd's one revision counter (lib/core/resourceVersion.ts), so a change of any
 * floored resource raises the floor of every other: a pod's change means the PVC cache must have reached it too.
 * That holds when the workload's resources share one etcd (`--etcd-servers-overrides` is for Events, which are not
 * floored); a floor the server cannot reach answers 504 "Too large resource version" after 3 s, and the LIST is
 * read again by quorum.
 */
import * as z from 'zod';
import { compareResourceVersions, newerResourceVersion } from '../core/resourceVersion.js';
import { isOneOf, resourceId, type KubeObject, type Resource } from './resource.js';
import type { KubeClient, Listed, ListOptions } from './types.js';
import { wrappedWrites } from './wrappedWrites.js';

/** How long after its quorum read a floor answers LISTs, ms; then the next LIST is a quorum read. */
export const LIST_FLOOR_TTL_MS = 10_000;

/** Where the LISTs of one resource stand. */
interface Floor {
  /** Every answer must be at least as new as this. */
  resourceVersion: string;
  /** When the quorum read the floor started from was answered (clock, epoch ms). */
  quorumAtMs: number;
}

/** The carried text: `{ "<plural>.<group>": ["<resourceVersion>", <quorumAtMs>] }`. */
const CarriedText = z.record(z.string(), z.tuple([z.string().regex(/^[0-9]+$/), z.number().int()]));

/** The floors of one invocation, per resource; made by {@link ListFloors.fromCarried} when the invocation starts. */
export class ListFloors {
  readonly #floors = new Map<string, Floor>();
  /** Counts {@link ListFloors.forget} calls: a LIST under way across one must not start a floor again. */
  #forgets = 0;

  /** Where the floors' forgetting stands: a LIST passes it to {@link ListFloors.note}. */
  get generation(): number {
    return this.#forgets;
  }

  /**
   * The floors a release stored ({@link ListFloors.carried}), or none.
   * @param text the lease item's text; absent, empty or not in the carried shape → no floors (every LIST a quorum
   *   read; the text is this module's own, so a bad one is a store fault, not worth more than starting over)
   */
  static fromCarried(text: string | undefined): ListFloors {
    const floors = new ListFloors();
    if (text === undefined) return floors;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return floors;
    }
    const carried = CarriedText.safeParse(parsed);
    if (!carried.success) return floors;
    for (const [id, [resourceVersion, quorumAtMs]] of Object.entries(carried.data))
      floors.#floors.set(id, { resourceVersion, quorumAtMs });
    return floors;
  }

  /** The floor of `resource` at `nowMs`: its resourceVersion while within {@link LIST_FLOOR_TTL_MS} of its quorum read. */
  floorOf(resource: Resource, nowMs: number): string | undefined {
    const floor = this.#floors.get(resourceId(resource));
    if (floor === undefined || nowMs - floor.quorumAtMs >= LIST_FLOOR_TTL_MS) return undefined;
    return floor.resourceVersion;
  }

  /**
   * Note what a LIST answered: a quorum read starts the floor's time at `nowMs`; either raises its resourceVersion,
   * never lowers it (a write that finished while a quorum read was under way may have raised it past the answer).
   * An answer without a resourceVersion is not noted, nor one of a LIST begun before a {@link ListFloors.forget}
   * (`generation` is {@link ListFloors.generation} when it began): the write that failed meanwhile may be missing
   * from it.
   */
  note(
    resource: Resource,
    resourceVersion: string,
    quorum: boolean,
    nowMs: number,
    generation = this.#forgets,
  ): void {
    if (resourceVersion === '' || generation !== this.#forgets) return;
    const floor = this.#floors.get(resourceId(resource));
    if (floor === undefined) {
      this.#floors.set(resourceId(resource), { resourceVersion, quorumAtMs: nowMs });
      return;
    }
    floor.resourceVersion = newerResourceVersion(floor.resourceVersion, resourceVersion) ?? resourceVersion;
    if (quorum) floor.quorumAtMs = nowMs;
  }

  /**
   * Raise every floor to at least `resourceVersion` (a change that must be in the next answers: the one that woke
   * the invocation, one that marked its lease, one it wrote). A resource without a floor stays without (its next
   * LIST is a quorum read, newer anyway). A resourceVersion that is not etcd's decimal revision drops every floor.
   */
  raise(resourceVersion: string, resource?: Resource): void {
    const ids = resource === undefined ? [...this.#floors.keys()] : [resourceId(resource)];
    for (const id of ids) {
      const floor = this.#floors.get(id);
      if (floor === undefined) continue;
      const order = compareResourceVersions(floor.resourceVersion, resourceVersion);
      if (order === undefined) {
        this.#floors.clear();
        return;
      }
      if (order < 0) floor.resourceVersion = resourceVersion;
    }
  }

  /** Drop the floor of `resource`, or of every resource when none is named: the next LIST is a quorum read. */
  forget(resource?: Resource): void {
    this.#forgets++;
    if (resource === undefined) this.#floors.clear();
    else this.#floors.delete(resourceId(resource));
  }

  /**
   * The floors as text for the lease item's release write ({@link ListFloors.fromCarried} reads it back), or
   * `undefined` when there are none.
   */
  carried(): string | undefined {
    if (this.#floors.size === 0) return undefined;
    const text: Record<string, [string, number]> = {};
    for (const [id, floor] of this.#floors) text[id] = [floor.resourceVersion, floor.quorumAtMs];
    return JSON.stringify(text);
  }
}

/** The resourceVersion of a write's answer, when it is an object that has one. */
function writtenVersion(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const metadata = (answer as { metadata?: { resourceVersion?: unknown } }).metadata;
  const rv = metadata?.resourceVersion;
  return typeof rv === 'string' && rv !== '' ? rv : undefined;
}

/**
 * `kube` with the LISTs of `resources` (first pages only: a `continue` page or a read naming its own
 * resourceVersion is read as asked) answered `NotOlderThan` their floor in `floors` ({@link ListFloors}) while there
 * is one, else by quorum; a write to one of them (create, replace, patch, delete) raises its floor to the
 * resourceVersion of the answer, or drops the floor when the write failed or its answer has none (a `Status`).
 * Everything else is passed through unchanged. A floor read that fails is read again by quorum (an API server whose
 * cache is more than its 3 s wait behind answers 504 "Too large resource version").
 * @param clock epoch ms
 * @throws what the underlying client throws (a quorum read's or a write's error as is)
 */
export function flooredKube(
  kube: KubeClient,
  floors: ListFloors,
  resources: readonly Resource[],
  clock: () => number,
): KubeClient {
  const floored = isOneOf(resources);
  async function wrote<T>(resource: Resource, write: () => Promise<T>): Promise<T> {
    if (!floored(resource)) return write();
    let answer: T;
    try {
      answer = await write();
    } catch (e) {
      floors.forget(resource);
      throw e;
    }
    const rv = writtenVersion(answer);
    if (rv === undefined) floors.forget(resource);
    else floors.raise(rv, resource);
    return answer;
  }
  return wrappedWrites(kube, wrote, {
    async list<T extends KubeObject>(resource: Resource<T>, options: ListOptions = {}): Promise<Listed<T>> {
      if (!floored(resource) || options.continue !== undefined || options.resourceVersion !== undefined)
        return kube.list(resource, options);
      const floor = floors.floorOf(resource, clock());
      if (floor !== undefined) {
        const generation = floors.generation;
        try {
          const listed = await kube.list(resource, {
            ...options,
            resourceVersion: floor,
            resourceVersionMatch: 'NotOlderThan',
          });
          floors.note(resource, listed.resourceVersion, false, clock(), generation);
          return listed;
        } catch {
          floors.forget(resource);
        }
      }
      const generation = floors.generation;
      const listed = await kube.list(resource, options);
      floors.note(resource, listed.resourceVersion, true, clock(), generation);
      return listed;
    },
  });
}
