/**
 * The per-pod timeline of an OrderedReady scale-up (`npm run bench:timeline`, bench/timeline.ts): when each pod of
 * the set was first seen, bound to a node and Ready, as a client's pod watch saw them, and what that says about the
 * controller: its reaction (pod *i* Ready → pod *i* + 1 created) against the cluster's part (created → bound → Ready).
 * Also the API server's watch-cache read wait (`apiserver_watch_cache_read_wait_seconds`, k8s.io/apiserver
 * pkg/storage/cacher/metrics) per resource between two scrapes. Pure.
 */
import { samples } from './promText.js';
import { median, percentile } from './stats.js';

/** What a pod watch saw of one pod, ms since the watch started. */
export interface PodTimes {
  /** First event of the pod (its creation, as the watch delivered it). */
  added?: number;
  /** First event with `spec.nodeName` set. */
  bound?: number;
  /** First event with condition `Ready` `True`. */
  ready?: number;
}

/** A pod event as a watch delivers it, reduced to what {@link notePodEvent} reads. */
export interface WatchedPod {
  metadata?: { name?: string };
  spec?: { nodeName?: string };
  status?: { conditions?: readonly { type?: string; status?: string }[] };
}

/**
 * Record one watch event of a pod into `times` (keyed by pod name): the first time each milestone is seen.
 * @param at ms since the watch started
 */
export function notePodEvent(times: Map<string, PodTimes>, pod: WatchedPod, at: number): void {
  const name = pod.metadata?.name;
  if (!name) return;
  const t = times.get(name) ?? {};
  t.added ??= at;
  if (pod.spec?.nodeName) t.bound ??= at;
  if ((pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')) t.ready ??= at;
  times.set(name, t);
}

/** p50 and p90 of a series, ms (NaN for none). */
export interface Spread {
  p50: number;
  p90: number;
}

/** What one OrderedReady scale-up's timeline says. */
export interface TimelineFigures {
  pods: number;
  /** First pod's creation → last pod's Ready, ms. */
  totalMs: number;
  /** {@link totalMs} ÷ pods. */
  perPodMs: number;
  /** Pod *i* Ready → pod *i* + 1 seen: the controller's reaction, ms. */
  reaction: Spread;
  /** Pod seen → bound to a node (the scheduler), ms. */
  binding: Spread;
  /** Bound → Ready (kwok, with the readiness-gate conditions a controller writes), ms. */
  readiness: Spread;
  /**
   * Reaction p50 in each tenth of the scale-up (pods 1 … N/10, …), ms: how the controller's reaction grows with the
   * pods it already has. Fewer than ten entries when N < 20.
   */
  reactionByTenth: number[];
  /** Slowest reaction, ms, and how many reactions took over 500 ms (a pass that came only from a timer). */
  reactionMax: number;
  reactionsOver500ms: number;
}

const spread = (values: number[]): Spread => ({ p50: median(values), p90: percentile(values, 90) });

/**
 * The figures of a scale-up of `name`'s pods `<name>-0` … `<name>-<pods − 1>`.
 * @throws Error naming the first pod whose milestones are missing (the run did not finish)
 */
export function timelineFigures(
  times: ReadonlyMap<string, PodTimes>,
  name: string,
  pods: number,
): TimelineFigures {
  const rows = Array.from({ length: pods }, (_, i) => {
    const t = times.get(`${name}-${i}`);
    if (t?.added === undefined || t.bound === undefined || t.ready === undefined)
      throw new Error(`bench:timeline: pod ${name}-${i} was not seen created, bound and Ready`);
    return { added: t.added, bound: t.bound, ready: t.ready };
  });
  const reaction = rows.slice(1).map((r, i) => r.added - rows[i].ready);
  const totalMs = rows[pods - 1].ready - rows[0].added;
  return {
    pods,
    totalMs,
    perPodMs: totalMs / pods,
    reaction: spread(reaction),
    binding: spread(rows.map((r) => r.bound - r.added)),
    readiness: spread(rows.map((r) => r.ready - r.bound)),
    reactionByTenth: byTenth(reaction),
    reactionMax: Math.max(...reaction),
    reactionsOver500ms: reaction.filter((ms) => ms > 500).length,
  };
}

/** Median of each tenth of `values` (in order); one entry a tenth, none for an empty tenth. */
function byTenth(values: number[]): number[] {
  const out: number[] = [];
  for (let t = 0; t < 10; t++) {
    const part = values.slice(
      Math.floor((values.length * t) / 10),
      Math.floor((values.length * (t + 1)) / 10),
    );
    if (part.length > 0) out.push(median(part));
  }
  return out;
}

/** Watch-cache read waits of one resource between two scrapes. */
export interface CacheWait {
  /** Reads that waited or could have (`_count` difference). */
  reads: number;
  /** Their total wait, ms (`_sum` difference). */
  totalMs: number;
}

/** Metric the API server observes each watch-cache read's wait for freshness in (seconds, histogram). */
export const READ_WAIT_METRIC = 'apiserver_watch_cache_read_wait_seconds';

/**
 * {@link CacheWait} per `<resource>.<group>` (`pods`, `controllerrevisions.apps`, …) between two `/metrics` texts
 * of one API server; resources with no read in between are left out.
 */
export function cacheWaits(before: string, after: string): Record<string, CacheWait> {
  const byResource = (text: string, suffix: '_sum' | '_count') => {
    const m = new Map<string, number>();
    for (const s of samples(text, `${READ_WAIT_METRIC}${suffix}`)) {
      const key = s.labels.group ? `${s.labels.resource}.${s.labels.group}` : (s.labels.resource ?? '');
      m.set(key, (m.get(key) ?? 0) + s.value);
    }
    return m;
  };
  const [sum0, sum1, n0, n1] = [
    byResource(before, '_sum'),
    byResource(after, '_sum'),
    byResource(before, '_count'),
    byResource(after, '_count'),
  ];
  const out: Record<string, CacheWait> = {};
  for (const [resource, n] of n1) {
    const reads = n - (n0.get(resource) ?? 0);
    if (reads <= 0) continue;
    out[resource] = { reads, totalMs: ((sum1.get(resource) ?? 0) - (sum0.get(resource) ?? 0)) * 1000 };
  }
  return out;
}
