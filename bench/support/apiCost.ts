/**
 * API cost from the API server's own counters: requests by `<VERB> <resource>[/<subresource>]` from
 * `apiserver_request_total`, and bytes answered by the same key from `apiserver_response_sizes_sum`, for
 * namespaced and per-object requests (cluster-scope LISTs and every WATCH belong to informers and to the watch
 * pump, not to a reconcile). The metric carries no client label, so the bench attributes by time window: one
 * controller runs at a time. Pure.
 */
import { samples } from './promText.js';

/** Counter values by `<VERB> <resource>[/<subresource>]`. */
export type Counters = Record<string, number>;

/** What one scrape of `/metrics` says about namespaced requests. */
export interface ApiCounters {
  /** Requests (WATCH excluded), by key. */
  requests: Counters;
  /** Response bytes (sum of `apiserver_response_sizes`; the API server records it for GET and LIST), by key. */
  bytes: Counters;
}

/** Verbs that change nothing. */
const READ_VERBS = new Set(['GET', 'LIST']);

function keyOf(labels: Record<string, string>): string | undefined {
  if (labels.verb === 'WATCH' || labels.verb === undefined || labels.resource === undefined) return undefined;
  if (labels.scope !== 'namespace' && labels.scope !== 'resource') return undefined;
  return `${labels.verb} ${labels.resource}${labels.subresource ? `/${labels.subresource}` : ''}`;
}

function sumBy(text: string, metric: string): Counters {
  const out: Counters = {};
  for (const { labels, value } of samples(text, metric)) {
    const key = keyOf(labels);
    if (key !== undefined) out[key] = (out[key] ?? 0) + value;
  }
  return out;
}

/** Parse a `/metrics` text into {@link ApiCounters}. */
export function apiCounters(metricsText: string): ApiCounters {
  return {
    requests: sumBy(metricsText, 'apiserver_request_total'),
    bytes: sumBy(metricsText, 'apiserver_response_sizes_sum'),
  };
}

/** `after − before` per key, zeros dropped, keys sorted. */
export function diffCounters(before: Counters, after: Counters): Counters {
  return Object.fromEntries(
    Object.keys(after)
      .sort()
      .map((k) => [k, after[k] - (before[k] ?? 0)] as const)
      .filter(([, v]) => v !== 0),
  );
}

/** Totals of a request diff. */
export interface CostSummary {
  requests: number;
  reads: number;
  writes: number;
  /** Requests per pod (rounded to 2 decimals); 0 when `pods` is 0. */
  perPod: number;
  byKey: Counters;
}

/**
 * Sum a diff of request counters.
 * @param pods pods created or updated in the window (the denominator of `perPod`)
 */
export function summarizeCost(diff: Counters, pods: number): CostSummary {
  let reads = 0;
  let writes = 0;
  for (const [key, n] of Object.entries(diff)) {
    if (READ_VERBS.has(key.split(' ')[0])) reads += n;
    else writes += n;
  }
  const requests = reads + writes;
  return {
    requests,
    reads,
    writes,
    perPod: pods > 0 ? Math.round((requests / pods) * 100) / 100 : 0,
    byKey: diff,
  };
}

/** Sum of every key of `c` whose verb is GET or LIST. */
export function readsOf(c: Counters): number {
  return Object.entries(c)
    .filter(([k]) => READ_VERBS.has(k.split(' ')[0]))
    .reduce((a, [, v]) => a + v, 0);
}
