/**
 * LISTs answered from a watch the invocation keeps (docs/architecture.md#watched-lists). An invocation that holds a
 * lease through many passes (an OrderedReady scale-up: one pass a pod, each woken by a dirty mark) listed every pod
 * of the namespace in every pass: at 1,000 pods that is 1,000 passes of up to 1,000 pods each, the whole set
 * serialized by the API server and parsed here again and again for one pod's change. OpenKruise lists once and keeps
 * an informer. Here, within one invocation, the answer of a full LIST of a watched resource (every page) seeds a view
 * of the collection — from the {@link WATCHED_FROM_ANSWER}rd such answer on: an invocation of one or two passes (an
 * action and the pass that sees it done) opens no watch, which would be one more request for nothing — and a watch
 * from that answer's resourceVersion keeps it current; a later LIST of the same query
 * that asks for `resourceVersionMatch=NotOlderThan` a floor (./listFloors.ts) is answered from the view once the
 * watch has reached that floor (it waits up to {@link WATCHED_LIST_WAIT_MS}), as the view's own deep-frozen objects
 * ordered by name, as the API server orders them (a pass reads listed pods and never changes them; ./frozenLists.ts
 * holds every LIST of a watched resource to that, whoever answers). Everything else goes to the API server:
 * - a quorum LIST (no floor: the first of an invocation, a resync, a mark that asks for one, a floor past its 10 s),
 *   whose answer seeds the view afresh;
 * - a LIST whose floor the watch has not reached in time (the floor came from another resource's change, say a
 *   PVC's; or the watch's API server is behind), whose answer seeds the view afresh too;
 * - any LIST while the view's watch has ended (its server-side timeout, 410 Gone) until the next answer seeds it
 *   again, and every LIST of a query whose watch failed (an error: it is not watched again in the invocation); a
 *   LIST with a field selector; a resource or client without watches.
 * A collection of more than {@link WATCHED_LIST_MAX_ITEMS} objects is not kept (the Lambda's memory). The watches end
 * when the invocation does ({@link WatchedLists.close}), and by themselves after
 * {@link WATCHED_LIST_TIMEOUT_SECONDS}. Floors carry the guarantees: what the view answers is at least as new as the
 * floor, so it holds every change that woke the pass and every write the pass's client made.
 */
import { deepFreeze } from '../core/deepFreeze.js';
import { compareResourceVersions } from '../core/resourceVersion.js';
import { listQueryId } from './list.js';
import { isOneOf, resourceId, type KubeObject, type Resource } from './resource.js';
import type { KubeClient, Listed, ListOptions } from './types.js';
import type { WatchEventType } from './watch.js';

/** How long a floored LIST waits for the view's watch to reach its floor before it asks the API server, ms. */
export const WATCHED_LIST_WAIT_MS = 100;
/** A collection larger than this is not kept in a view: every LIST of it goes to the API server. */
export const WATCHED_LIST_MAX_ITEMS = 5_000;
/** The full answer of a query, counted in one invocation, that first seeds a view (the 3rd: from the 4th pass on). */
export const WATCHED_FROM_ANSWER = 3;
/** Server-side bound of a view's watch, seconds: a view lives no longer without a new quorum answer. */
export const WATCHED_LIST_TIMEOUT_SECONDS = 60;

/** Identity of a query: its resource and ./list.ts `listQueryId`. */
const queryOf = (resource: Resource, options: ListOptions): string =>
  `${resourceId(resource)} ${listQueryId(options)}`;

/**
 * The collection as one watch keeps it: each object deep-frozen (lib/core/deepFreeze.ts), so an answer shares the
 * objects themselves with the view and with every other answer — no parse or copy a pass (at 1,000 pods a
 * `JSON.parse` of their text took 9 ms here, a `structuredClone` 25–30 ms) — and a reader that changes one throws.
 * Only the array is new per answer.
 */
class View {
  readonly #objects = new Map<string, KubeObject>();
  /** The names in order, until an object comes or goes. */
  #sorted: string[] | undefined;
  /** The objects in name order, until any object changes. */
  #answer: KubeObject[] | undefined;
  #resourceVersion: string;
  #live = true;
  readonly #abort = new AbortController();
  readonly #waiters = new Set<() => void>();

  constructor(items: readonly KubeObject[], resourceVersion: string) {
    for (const item of items) this.#objects.set(item.metadata.name ?? '', deepFreeze(item));
    this.#resourceVersion = resourceVersion;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Apply one watch event (objects arrive parsed and owned by the view, which freezes them). */
  apply(type: WatchEventType, object: KubeObject): void {
    const name = object.metadata.name ?? '';
    if (type === 'ADDED' || type === 'MODIFIED') {
      if (!this.#objects.has(name)) this.#sorted = undefined;
      this.#objects.set(name, deepFreeze(object));
      this.#answer = undefined;
    } else if (type === 'DELETED' && this.#objects.delete(name)) {
      this.#sorted = undefined;
      this.#answer = undefined;
    }
    const rv = object.metadata.resourceVersion;
    if (rv !== undefined && (compareResourceVersions(rv, this.#resourceVersion) ?? 0) > 0)
      this.#resourceVersion = rv;
    this.#wake();
  }

  /** The watch ended (or the view was replaced): no more answers. */
  end(): void {
    this.#live = false;
    this.#abort.abort();
    this.#wake();
  }

  /** Whether the view holds every change up to `floor`. */
  #reached(floor: string): boolean {
    return (compareResourceVersions(this.#resourceVersion, floor) ?? -1) >= 0;
  }

  /**
   * The collection at least as new as `floor`, waiting up to `waitMs` for the watch to get there.
   * @returns a new array of the view's frozen objects ordered by name, or undefined when the view ended or the watch
   *   did not get there in time
   */
  async answer<T extends KubeObject>(floor: string, waitMs: number): Promise<Listed<T> | undefined> {
    if (this.#live && !this.#reached(floor)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.#waiters.delete(check);
          resolve();
        };
        const check = (): void => {
          if (!this.#live || this.#reached(floor)) done();
        };
        const timer = setTimeout(done, waitMs);
        this.#waiters.add(check);
      });
    }
    if (!this.#live || !this.#reached(floor)) return undefined;
    this.#sorted ??= [...this.#objects.keys()].sort();
    const objects = this.#objects;
    this.#answer ??= this.#sorted.flatMap((name) => {
      const object = objects.get(name);
      return object === undefined ? [] : [object];
    });
    return { items: [...this.#answer] as T[], resourceVersion: this.#resourceVersion };
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}

/** The pages of one LIST read so far, while its `continue` token is followed. */
interface Seeding {
  query: string;
  items: KubeObject[];
}

/** The views of one invocation, by query; made when the invocation starts, closed when it ends. */
export class WatchedLists {
  readonly #views = new Map<string, View>();
  /** LISTs being paged through, by the `continue` token of their next page. */
  readonly #seeding = new Map<string, Seeding>();
  /** Full LISTs answered by the API server so far, by query. */
  readonly #answered = new Map<string, number>();
  #closed = false;
  /** Queries whose watch failed (an error, not the server's timeout): not watched again in this invocation. */
  readonly #failed = new Set<string>();

  /** End every watch; later LISTs go to the API server and seed nothing. */
  close(): void {
    this.#closed = true;
    for (const view of this.#views.values()) view.end();
    this.#views.clear();
    this.#seeding.clear();
  }

  /** The live view of a query, if any. */
  viewOf(query: string): View | undefined {
    return this.#views.get(query);
  }

  /**
   * Note one page of a LIST of `query` the API server answered (`after`: the `continue` token it was asked with).
   * The last page of the query's {@link WATCHED_FROM_ANSWER}rd full LIST in the invocation, or of any later one,
   * seeds the query's view and starts the view's watch through `start`; the ones before seed nothing.
   */
  notePage(
    query: string,
    page: Listed<KubeObject>,
    after: string | undefined,
    start: (view: View) => void,
  ): void {
    if (this.#closed || this.#failed.has(query)) return;
    let seeding: Seeding | undefined;
    if (after === undefined) {
      seeding = { query, items: [] };
      this.#drop(query);
    } else {
      seeding = this.#seeding.get(after);
      this.#seeding.delete(after);
    }
    if (seeding === undefined || seeding.query !== query) return;
    seeding.items.push(...page.items);
    if (seeding.items.length > WATCHED_LIST_MAX_ITEMS || page.resourceVersion === '') return;
    if (page.continue !== undefined) {
      this.#seeding.set(page.continue, seeding);
      return;
    }
    // the first answers of a query seed nothing: most invocations make one or two passes
    const answered = (this.#answered.get(query) ?? 0) + 1;
    this.#answered.set(query, answered);
    if (answered < WATCHED_FROM_ANSWER) return;
    const view = new View(seeding.items, page.resourceVersion);
    this.#views.set(query, view);
    start(view);
  }

  /**
   * End the view of `query`: its watch ended, by the server's timeout, or `failed` (an error: refused, a connection
   * lost, 410 aside), after which the query is not watched again in this invocation — a watch the API server refuses
   * (say, RBAC without `watch`) would otherwise cost a refused request a pass.
   */
  endView(query: string, view: View, failed = false): void {
    view.end();
    if (failed) this.#failed.add(query);
    if (this.#views.get(query) === view) this.#views.delete(query);
  }

  #drop(query: string): void {
    const old = this.#views.get(query);
    if (old !== undefined) this.endView(query, old);
  }
}

/**
 * `kube` with the LISTs of `resources` answered from `lists`' views ({@link WatchedLists}) when floored and the view
 * has reached the floor, else read through `kube` (and seeding the view). Writes and everything else pass through
 * unchanged; so does every LIST when `kube` cannot watch.
 * @param onWatchError told why a view's watch failed (it ended, and its query is not watched again in the invocation)
 * @throws what the underlying client throws
 */
export function watchingKube(
  kube: KubeClient,
  lists: WatchedLists,
  resources: readonly Resource[],
  onWatchError: (error: unknown) => void = () => undefined,
): KubeClient {
  const watch = kube.watch?.bind(kube);
  if (watch === undefined || resources.length === 0) return kube;
  const watched = isOneOf(resources);
  return {
    ...kube,
    async list<T extends KubeObject>(resource: Resource<T>, options: ListOptions = {}): Promise<Listed<T>> {
      if (!watched(resource) || options.fieldSelector !== undefined) return kube.list(resource, options);
      const query = queryOf(resource, options);
      const floored =
        options.resourceVersionMatch === 'NotOlderThan' && options.resourceVersion !== undefined;
      if (floored && options.continue === undefined) {
        const answer = await lists
          .viewOf(query)
          ?.answer<T>(options.resourceVersion ?? '', WATCHED_LIST_WAIT_MS);
        if (answer !== undefined) return answer;
      } else if (options.resourceVersion !== undefined && !floored) {
        // an exact resourceVersion is read as asked and seeds nothing
        return kube.list(resource, options);
      }
      const page = await kube.list(resource, options);
      lists.notePage(query, page, options.continue, (view) => {
        watch(
          resource,
          {
            ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
            ...(options.labelSelector !== undefined ? { labelSelector: options.labelSelector } : {}),
            resourceVersion: page.resourceVersion,
            timeoutSeconds: WATCHED_LIST_TIMEOUT_SECONDS,
            signal: view.signal,
          },
          (type, object) => view.apply(type, object),
        ).then(
          () => lists.endView(query, view),
          (e: unknown) => {
            lists.endView(query, view, true);
            onWatchError(e);
          },
        );
      });
      return page;
    },
  };
}
