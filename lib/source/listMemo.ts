/**
 * LIST answers shared by the mapped watches of one pump run (docs/architecture.md#watch-pump).
 *
 * A mapped watch names the objects a change concerns by reading the cluster: the PUB controller's pod watch lists
 * the namespace's PodUnavailableBudgets for every new pod, so a scale-up of 1,000 pods made 1,000 identical LISTs
 * (issue 17's bench: one request per pod, the difference between Kruiseless's and OpenKruise's requests per pod;
 * OpenKruise reads its informer cache). The memo keeps such an answer while the pump itself follows the listed
 * resource, and drops it the moment the pump sees any change of that resource (in the namespace, or anywhere for a
 * list of all namespaces).
 *
 * Why a kept answer is safe: a mapped watch looks for the reconciled objects a change concerns, and each of those
 * objects has its own stream in the same pump. If an object was created or changed after the kept LIST, then either
 * the pump has already seen that change (and dropped the answer, so the read is made again), or it has not yet: the
 * mapped change was seen first, so the object it concerns already exists in the cluster, and the reconciled object's
 * own change, seen later, starts a pass that reads the cluster after it. Either way nothing is missed. Only resources
 * the pump follows in full (a stream with no label selector) are kept; a page of a longer list, an answer that
 * failed or one whose resource changed while it was being read is not kept; every answer is dropped after
 * {@link LIST_MEMO_TTL_MS} at the latest (a stream that is down sees no change).
 */
import type { Clock } from '../core/clock.js';
import type { KubeObject, Resource } from '../kube/resource.js';
import type { Listed, ListOptions } from '../kube/types.js';
import { discoveryReads } from '../kube/discoveryReads.js';
import type { MapReads } from './watchSpec.js';

/** Longest time an answer is kept, ms: the bound of its staleness while the resource's own stream is down. */
export const LIST_MEMO_TTL_MS = 10_000;

/** The LIST answers of one pump run (see the module doc). */
export interface ListMemo {
  /**
   * `kube` with `list` answered from the memo where it may be; `get` and the discovery and scale reads are passed
   * through. Answers are shared between callers: read-only.
   */
  reads(kube: MapReads['kube']): MapReads['kube'];
  /**
   * The pump saw a change of `resource` (an ADDED, MODIFIED, DELETED or listed object) in `namespace` (undefined or
   * `''`: a cluster-scoped object): every kept answer that could contain it is dropped, and no LIST of the resource
   * already under way is kept.
   */
  changed(resource: Resource, namespace: string | undefined): void;
}

/** Identity of a resource's objects across API versions: group and plural. */
const resourceKey = (r: Resource): string => `${r.group}/${r.plural}`;

interface Entry {
  namespace: string | undefined;
  answer: Promise<Listed<KubeObject>>;
  at: number;
}

/**
 * A memo for one pump run.
 * @param followed the resources the pump follows in full (its streams without a label selector)
 * @param clock for {@link LIST_MEMO_TTL_MS}
 */
export function listMemo(followed: readonly Resource[], clock: Clock): ListMemo {
  const kept = new Set(followed.map(resourceKey));
  /** resource key → query key → kept answer */
  const entries = new Map<string, Map<string, Entry>>();
  /** resource key → count of changes seen: a LIST is kept only if none came while it was read */
  const generation = new Map<string, number>();

  const changed = (resource: Resource, namespace: string | undefined): void => {
    const key = resourceKey(resource);
    generation.set(key, (generation.get(key) ?? 0) + 1);
    const byQuery = entries.get(key);
    if (!byQuery) return;
    for (const [query, entry] of byQuery)
      if (!namespace || entry.namespace === undefined || entry.namespace === namespace) byQuery.delete(query);
  };

  const reads = (kube: MapReads['kube']): MapReads['kube'] => ({
    ...discoveryReads(kube),
    get: (resource, ref) => kube.get(resource, ref),
    list: <T extends KubeObject>(resource: Resource<T>, options: ListOptions = {}): Promise<Listed<T>> => {
      const key = resourceKey(resource);
      if (!kept.has(key) || options.continue !== undefined) return kube.list(resource, options);
      const namespace = resource.namespaced ? options.namespace : undefined;
      const query = JSON.stringify([
        namespace ?? null,
        options.labelSelector ?? '',
        options.fieldSelector ?? '',
        options.limit ?? 0,
      ]);
      const byQuery = entries.get(key) ?? new Map<string, Entry>();
      entries.set(key, byQuery);
      const now = clock();
      const hit = byQuery.get(query);
      if (hit && now - hit.at < LIST_MEMO_TTL_MS) return copy(hit.answer as Promise<Listed<T>>);
      const startedAt = generation.get(key) ?? 0;
      const answer = kube.list(resource, options);
      const entry: Entry = { namespace, answer: answer, at: now };
      byQuery.set(query, entry);
      const forget = (): void => {
        if (byQuery.get(query) === entry) byQuery.delete(query);
      };
      answer.then((listed) => {
        if (listed.continue !== undefined || (generation.get(key) ?? 0) !== startedAt) forget();
      }, forget);
      return copy(answer);
    },
  });

  return { reads, changed };
}

/** A caller's own list around the shared items (a caller may sort or filter its array). */
async function copy<T>(answer: Promise<Listed<T>>): Promise<Listed<T>> {
  const listed = await answer;
  return { ...listed, items: [...listed.items] };
}
