/**
 * The relist of a watch stream (docs/architecture.md#watch-pump; review finding 12): when a stream has no stored
 * resourceVersion, or the stored one has expired (410 Gone), read the whole collection with a real LIST, page by page,
 * and watch on from the list's resourceVersion — client-go's reflector `ListAndWatch` (`k8s.io/client-go/tools/cache/
 * reflector.go`). A watch started without a resourceVersion would replay the objects as ADDED events in key order,
 * with no mark of where the replay ends, so a checkpoint taken during it could skip objects not yet replayed; the
 * LIST has one resourceVersion for its whole snapshot, known only when the last page is read.
 */
import type { JsonObject } from '../api/types.js';
import type { KubeClient } from '../kube/types.js';
import type { WatchStream } from './watchSpec.js';

/**
 * Objects per LIST page of a relist: the API server's page size for a client-go reflector's paginated list
 * (`pager.PageSize` 500), so a relist of a large collection holds one page in memory at a time.
 */
export const RELIST_PAGE_SIZE = 500;

/** How a relist ended. */
export interface RelistResult {
  /**
   * The collection's resourceVersion as of the LIST (every page shares it): watch from here. Absent when `signal`
   * ended the relist before its last page was read, which must then leave the stored checkpoint where it was.
   */
  resourceVersion?: string;
  /** Objects handed to `onPage`, over all pages read. */
  objects: number;
  /** LIST requests made (pages). */
  pages: number;
}

/**
 * LIST `stream`'s collection (its label selector, every namespace) in pages of `pageSize`, following `continue`, and
 * hand each page's objects to `onPage` before the next page is read; `signal` is checked before each page.
 * @param onPage e.g. the pump's publish of what the objects concern; awaited
 * @returns the list's resourceVersion once the last page is handed over; none when `signal` cut the relist short
 * @throws KubeApiError of the page that failed (404 when the resource is not served; 410 when a `continue` token
 *   expired mid-way, after about 5 minutes); whatever `onPage` throws
 */
export async function relist(
  kube: Pick<KubeClient, 'list'>,
  stream: Pick<WatchStream, 'watched' | 'labelSelector'>,
  signal: AbortSignal,
  onPage: (objects: JsonObject[]) => Promise<void>,
  pageSize = RELIST_PAGE_SIZE,
): Promise<RelistResult> {
  let objects = 0;
  let pages = 0;
  let token: string | undefined;
  for (;;) {
    if (signal.aborted) return { objects, pages };
    const page = await kube.list(stream.watched, {
      ...(stream.labelSelector ? { labelSelector: stream.labelSelector } : {}),
      limit: pageSize,
      ...(token ? { continue: token } : {}),
    });
    pages++;
    objects += page.items.length;
    await onPage(page.items as unknown as JsonObject[]);
    if (!page.continue) return { resourceVersion: page.resourceVersion, objects, pages };
    token = page.continue;
  }
}
