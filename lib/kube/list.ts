/**
 * LIST helpers over {@link KubeClient.list}: every page, a resource that may not be served (its CRD not installed:
 * a missing CRD makes the feature that needs it idle, not an error), and "is there any".
 */
import { isNotFound } from './errors.js';
import type { KubeObject, Resource } from './resource.js';
import type { KubeClient, Listed, ListOptions } from './types.js';

/**
 * Page size of a LIST that may return many objects, e.g. every pod of a namespace: kubectl's default chunk size
 * (`--chunk-size=500`), so no single response of the API server, and no single page in a Lambda's memory, grows
 * with the collection.
 */
export const LIST_PAGE_SIZE = 500;

/**
 * Identity of a LIST query of one resource: namespace, label and field selectors, page size (not the page, not the
 * resourceVersion asked for) — how an invocation's kept answers (./reusedLists.ts) and views (./watchedLists.ts) tell
 * one query from another.
 */
export const listQueryId = (options: ListOptions): string =>
  JSON.stringify([
    options.namespace ?? null,
    options.labelSelector ?? null,
    options.fieldSelector ?? null,
    options.limit ?? null,
  ]);

/**
 * Every item of a collection, following `continue` from page to page (one LIST per page; `options.limit` is the
 * page size, none: one LIST for everything). The resourceVersion is the last page's.
 * @param keep when given, only the items it accepts are kept, page by page: with a `limit`, what is held at any
 *   time is the kept items plus one page (e.g. a CloneSet's own pods out of a namespace of others)
 * @throws KubeApiError of the first page that fails (410 Expired when a `continue` token expired mid-way)
 */
export async function listAll<T extends KubeObject>(
  kube: Pick<KubeClient, 'list'>,
  resource: Resource<T>,
  options: Omit<ListOptions, 'continue'> = {},
  keep?: (item: T) => boolean,
): Promise<Listed<T>> {
  const items: T[] = [];
  const take = (page: Listed<T>) => items.push(...(keep ? page.items.filter(keep) : page.items));
  let page = await kube.list(resource, options);
  take(page);
  while (page.continue) {
    page = await kube.list(resource, { ...options, continue: page.continue });
    take(page);
  }
  return { items, resourceVersion: page.resourceVersion };
}

/**
 * One LIST of a resource that may not be served: undefined when the API server answers 404 (no CRD for it, e.g.
 * OpenKruise's ImagePullJobs where only Kruiseless's CloneSet CRD is installed).
 * @throws KubeApiError for other failures
 */
export async function listIfServed<T extends KubeObject>(
  kube: Pick<KubeClient, 'list'>,
  resource: Resource<T>,
  options: ListOptions = {},
): Promise<Listed<T> | undefined> {
  try {
    return await kube.list(resource, options);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/**
 * Whether any object of `resource` exists (one LIST with `limit=1`); false when the resource is not served. E.g.
 * NodeImages: kruise-daemon keeps one per node it runs on, so none means no node agent acts on ImagePullJobs.
 * @throws KubeApiError for failures other than 404
 */
export async function anyExists(
  kube: Pick<KubeClient, 'list'>,
  resource: Resource,
  options: Omit<ListOptions, 'limit' | 'continue'> = {},
): Promise<boolean> {
  const listed = await listIfServed(kube, resource, { ...options, limit: 1 });
  return (listed?.items.length ?? 0) > 0;
}
