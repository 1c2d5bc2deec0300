/**
 * The API server's own request counters (`apiserver_request_total` on `/metrics`, Prometheus text format), for
 * tests that assert how many requests something made. Counted per `<VERB> <resource>[/<subresource>]`, only for
 * the namespaced and per-object scopes of the resources a reconciler touches: cluster-scope LISTs and WATCHes are
 * the watch pump's and the control plane's own informers.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { samples } from '../../../bench/support/promText.js';
import { rawGet } from './kube.js';

/** Resources a CloneSet reconcile reads or writes. */
const RECONCILER_RESOURCES = new Set([
  'clonesets',
  'pods',
  'persistentvolumeclaims',
  'controllerrevisions',
  'events',
]);

/** Counter values by series key. */
export type Counters = Record<string, number>;

/** A scrape of the counters the tests read. */
export interface Scrape {
  /** `apiserver_request_total` of the reconciler's resources at namespace/resource scope, WATCH excluded. */
  requests: Counters;
  /** `apiserver_cache_list_returned_objects_total` by resource: objects the watch cache returned to LISTs. */
  cacheReturned: Counters;
  /**
   * `apiserver_storage_list_returned_objects_total` by resource: objects etcd LISTs returned. (The LIST count of
   * etcd, `apiserver_storage_list_total`, also counts the revision check of a consistent read from the cache.)
   */
  storageReturned: Counters;
}

/**
 * Scrape `/metrics` of the API server `kc` points at.
 * @throws Error when the endpoint does not answer 200
 */
export async function scrape(kc: KubeConfig): Promise<Scrape> {
  const res = await rawGet(kc, '/metrics', { Accept: 'text/plain' });
  if (res.status !== 200) throw new Error(`GET /metrics: ${res.status} ${res.body.slice(0, 200)}`);
  const requests: Counters = {};
  for (const { labels, value } of samples(res.body, 'apiserver_request_total')) {
    if (labels.verb === 'WATCH' || !RECONCILER_RESOURCES.has(labels.resource)) continue;
    if (labels.scope !== 'namespace' && labels.scope !== 'resource') continue;
    const key = `${labels.verb} ${labels.resource}${labels.subresource ? `/${labels.subresource}` : ''}`;
    requests[key] = (requests[key] ?? 0) + value;
  }
  const byResource = (metric: string): Counters => {
    const out: Counters = {};
    for (const { labels, value } of samples(res.body, metric))
      if (RECONCILER_RESOURCES.has(labels.resource))
        out[labels.resource] = (out[labels.resource] ?? 0) + value;
    return out;
  };
  return {
    requests,
    cacheReturned: byResource('apiserver_cache_list_returned_objects_total'),
    storageReturned: byResource('apiserver_storage_list_returned_objects_total'),
  };
}

/** `after − before` per key, zeros dropped. */
export function delta(before: Counters, after: Counters): Counters {
  return Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)] as const)
      .filter(([, v]) => v !== 0),
  );
}
