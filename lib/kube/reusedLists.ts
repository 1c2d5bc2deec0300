/**
 * LISTs of what only the reconciled object's controller writes, answered from the invocation's last answer
 * (docs/architecture.md#reused-lists). A workload's ControllerRevisions change when its own controller writes them;
 * no watch forwards their changes (lib/source), so no event and no dirty mark ever says that one changed. An
 * invocation that holds the lease through many passes (an OrderedReady scale-up: one pass a pod, each woken by a dirty
 * mark) listed them again in every pass for the same answer — one request of the three a pass reads. So within one
 * invocation the answer of a LIST of such a resource is reused by the next LIST with the same query while
 * - no write to that resource went through the client since (a create, replace, patch or delete drops every answer
 *   of its resource before it is sent, whether it succeeds or not), and
 * - it was answered less than {@link REUSED_LIST_TTL_MS} ago: what another writer changes (someone deleting a
 *   revision by hand) is seen within that time, as a floor's quorum read sees it (./listFloors.ts), and at once by
 *   the next invocation (answers are never carried across invocations).
 * An informer-fed controller (OpenKruise) reads them from its cache, for no request at all, as fresh as its watch.
 * Each reuse answers a deep copy, so a pass that changes what it read changes nothing of the next pass's answer. An
 * object read by GET under a name it had with another uid (the reconciled object deleted and created again under its
 * name) drops every answer: its successor's revisions are others.
 */
import { listQueryId as queryId } from './list.js';
import { LIST_FLOOR_TTL_MS } from './listFloors.js';
import { isOneOf, resourceId, type KubeObject, type Resource } from './resource.js';
import type { KubeClient, Listed, ListOptions } from './types.js';
import { wrappedWrites } from './wrappedWrites.js';

/** How long after its answer a LIST is reused, ms: as long as a floor lasts before its next quorum read. */
export const REUSED_LIST_TTL_MS = LIST_FLOOR_TTL_MS;

/** One answer kept: the LIST's answer and when it came (clock, epoch ms). */
interface Kept {
  listed: Listed<KubeObject>;
  atMs: number;
}

/** The answers of one invocation, by resource and query; made when the invocation starts, dropped with it. */
export class ReusedLists {
  readonly #answers = new Map<string, Map<string, Kept>>();
  /** Counts drops of any answer: an answer to a LIST begun before a drop is not kept. */
  #drops = 0;
  /** The uid each object read by GET had, by `<resource> <namespace>/<name>` (absent: not found). */
  readonly #uids = new Map<string, string | undefined>();

  /** Drops counted so far (a LIST passes it to {@link ReusedLists.keep}). */
  get drops(): number {
    return this.#drops;
  }

  /**
   * The kept answer of `options` for `resource` at `nowMs`, as a deep copy, while within {@link REUSED_LIST_TTL_MS}.
   * @returns undefined when none is kept, or it is too old
   */
  reuse<T extends KubeObject>(
    resource: Resource<T>,
    options: ListOptions,
    nowMs: number,
  ): Listed<T> | undefined {
    const kept = this.#answers.get(resourceId(resource))?.get(queryId(options));
    if (kept === undefined || nowMs - kept.atMs >= REUSED_LIST_TTL_MS) return undefined;
    return structuredClone(kept.listed) as Listed<T>;
  }

  /**
   * Keep `listed`, the answer to a LIST of `options` for `resource`, answered at `nowMs`; not when anything was dropped
   * since the LIST began (`drops` was {@link ReusedLists.drops} then: a write began, or the object was replaced), nor
   * a partial page.
   */
  keep(
    resource: Resource,
    options: ListOptions,
    listed: Listed<KubeObject>,
    nowMs: number,
    drops: number,
  ): void {
    if (listed.continue !== undefined || drops !== this.#drops) return;
    const id = resourceId(resource);
    const byQuery = this.#answers.get(id) ?? new Map<string, Kept>();
    byQuery.set(queryId(options), { listed: structuredClone(listed), atMs: nowMs });
    this.#answers.set(id, byQuery);
  }

  /** Drop every answer of `resource`: a write of it is about to be sent. */
  drop(resource: Resource): void {
    this.#answers.delete(resourceId(resource));
    this.#drops++;
  }

  /**
   * Note what a GET of `resource` `<namespace>/<name>` answered: when the object had another uid before (or was
   * there and is gone, or the other way round), drop every answer of every resource.
   */
  sawObject(resource: Resource, namespace: string | undefined, name: string, uid: string | undefined): void {
    const key = `${resourceId(resource)} ${namespace ?? ''}/${name}`;
    if (this.#uids.has(key) && this.#uids.get(key) !== uid) {
      this.#answers.clear();
      this.#drops++;
    }
    this.#uids.set(key, uid);
  }
}

/**
 * `kube` with the LISTs of `resources` answered from `lists` ({@link ReusedLists}) when it holds an answer to the same
 * query, else read (through `kube`) and kept; a `continue` page or a read that names its own resourceVersion is read
 * as asked and not kept. A write of one of `resources` drops its answers before it is sent. Everything else is passed
 * through unchanged.
 * @param clock epoch ms
 * @throws what the underlying client throws
 */
export function reusingKube(
  kube: KubeClient,
  lists: ReusedLists,
  resources: readonly Resource[],
  clock: () => number,
): KubeClient {
  const reused = isOneOf(resources);
  function wrote<T>(resource: Resource, write: () => Promise<T>): Promise<T> {
    if (reused(resource)) lists.drop(resource);
    return write();
  }
  return wrappedWrites(kube, wrote, {
    async get(resource, ref) {
      const got = await kube.get(resource, ref);
      lists.sawObject(resource, ref.namespace, ref.name, got?.metadata.uid);
      return got;
    },
    async list<T extends KubeObject>(resource: Resource<T>, options: ListOptions = {}): Promise<Listed<T>> {
      if (!reused(resource) || options.continue !== undefined || options.resourceVersion !== undefined)
        return kube.list(resource, options);
      const kept = lists.reuse(resource, options, clock());
      if (kept !== undefined) return kept;
      const drops = lists.drops;
      const listed = await kube.list(resource, options);
      lists.keep(resource, options, listed, clock(), drops);
      return listed;
    },
  });
}
