/**
 * The relist of a watch stream (docs/architecture.md#watch-pump; review finding 12): when a stream has no stored
 * resourceVersion, or the stored one has expired (410 Gone), read the whole collection with a real LIST, page by page,
 * and watch on from the list's resourceVersion — client-go's reflector `ListAndWatch` (`k8s.io/client-go/tools/cache/
 * reflector.go`). A watch started without a resourceVersion would replay the objects as ADDED events in key order,
 * with no mark of where the replay ends, so a checkpoint taken during it could skip objects not yet replayed; the
 * LIST has one resourceVersion for its whole snapshot, known only when the last page is read.
 */
import type { JsonObject } from '../api/types.js';
import { isNotFound } from '../kube/errors.js';
import type { KubeClient } from '../kube/types.js';
import type { ReconcileRequest } from '../requests/index.js';
import { requestForObject, type WatchStream } from './watchSpec.js';

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

/**
 * The reconciled objects to resync after a relist of a stream of owned or mapped objects (pods, PVCs): a LIST has no
 * DELETED events, so an object deleted while the stream had no watch (before a 410 Gone, or before the first
 * checkpoint) is on no page, and its owner would hear of it only from the next resync. client-go's reflector hands
 * the informer a `DeletedFinalStateUnknown` for such an object (`DeltaFIFO.Replace`, `k8s.io/client-go/tools/cache/
 * delta_fifo.go`), whose owner the event handler enqueues; the pump keeps no cache of what it saw, so it asks instead
 * for every object of each controller that consumes the stream other than by `For` (whose own relist lists them),
 * as lib/source/resync.ts does for a whole cluster. One paginated LIST per such controller.
 * @returns `Resync` requests, one per object, in list order; `complete: false` when `signal` cut a LIST short (the
 *   relist must then not be checkpointed)
 * @throws KubeApiError of a LIST that failed other than with 404 (a controller whose resource is not served is
 *   skipped: it is idle in the cluster, ./idle.ts)
 */
export async function ownerResyncAfterRelist(
  kube: Pick<KubeClient, 'list'>,
  cluster: string,
  stream: Pick<WatchStream, 'consumers'>,
  signal: AbortSignal,
  pageSize = RELIST_PAGE_SIZE,
): Promise<{ requests: ReconcileRequest[]; complete: boolean }> {
  const requests: ReconcileRequest[] = [];
  const controllers = [
    ...new Set(stream.consumers.filter((c) => c.spec.type !== 'For').map((c) => c.controller)),
  ];
  for (const controller of controllers) {
    const mine: ReconcileRequest[] = [];
    const listed = await relist(
      kube,
      { watched: controller.resource },
      signal,
      (objects) => {
        for (const obj of objects) {
          const r = requestForObject(cluster, controller, { type: 'For' }, obj);
          if (r) mine.push({ ...r, reason: 'Resync' });
        }
        return Promise.resolve();
      },
      pageSize,
    ).catch((e: unknown) => {
      // a controller whose resource is not served is idle here (./idle.ts): it owns nothing to resync
      if (isNotFound(e)) return { resourceVersion: '' };
      throw e;
    });
    if (listed.resourceVersion === undefined) return { requests, complete: false };
    requests.push(...mine);
  }
  return { requests, complete: true };
}
