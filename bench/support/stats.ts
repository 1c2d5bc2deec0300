/**
 * Small statistics of the bench: percentiles, ratios and the summary line `npm run bench` ends with. Pure.
 */

/**
 * Nearest-rank percentile (the smallest value with at least p % of the values at or below it).
 * @param p 0 < p ≤ 100
 * @returns NaN for no values
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/** Median (the 50th nearest-rank percentile). */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/**
 * `ours ÷ reference`, rounded to 2 decimals.
 * @returns NaN when either side is missing or the reference is 0
 */
export function ratio(ours: number | undefined, reference: number | undefined): number {
  if (ours === undefined || reference === undefined || !(reference > 0) || !Number.isFinite(ours)) return NaN;
  return Math.round((ours / reference) * 100) / 100;
}

/**
 * The Advanced StatefulSet part's figures (largest N): Kruiseless's all-Ready time ÷ OpenKruise's and ÷ the
 * StatefulSet controller's for the OrderedReady scale-up, the Parallel scale-up and the in-place image change of
 * the Parallel set, and its API requests per pod ÷ OpenKruise's in each.
 */
export interface StatefulSetHeadline {
  orderedReadyVsOpenKruise: number;
  orderedReadyVsStatefulSet: number;
  parallelVsOpenKruise: number;
  parallelVsStatefulSet: number;
  rolloutVsOpenKruise: number;
  rolloutVsStatefulSet: number;
  perPodVsOpenKruise: { orderedReady: number; parallel: number; rollout: number };
}

/**
 * The Advanced DaemonSet part's figures (largest N): Kruiseless's all-Ready time ÷ the DaemonSet controller's and ÷
 * OpenKruise's for the creation on N nodes and the rolling update (Standard, pods recreated), ÷ OpenKruise's for the
 * in-place image change, and its API requests per pod ÷ theirs in each.
 */
export interface DaemonSetHeadline {
  createVsDaemonSet: number;
  createVsOpenKruise: number;
  rollingUpdateVsDaemonSet: number;
  rollingUpdateVsOpenKruise: number;
  inPlaceVsOpenKruise: number;
  perPodVsDaemonSet: { create: number; rollingUpdate: number };
  perPodVsOpenKruise: { create: number; rollingUpdate: number; inPlace: number };
}

/** The figures of the summary line. */
export interface Headline {
  /** Kruiseless scale-up (all Ready) time ÷ OpenKruise's. */
  scaleUpVsOpenKruise: number;
  /** Kruiseless scale-up (all Ready) time ÷ the Deployment controller's. */
  scaleUpVsDeployment: number;
  /** Kruiseless in-place rollout (all updated and Ready) time ÷ OpenKruise's. */
  rolloutVsOpenKruise: number;
  /** API reads of one no-op reconcile (largest of the sizes measured). */
  noopReads: number;
  /** API writes of one no-op reconcile (largest of the sizes measured). */
  noopWrites: number;
  /** The Advanced StatefulSet part's figures, when it ran. */
  asts?: StatefulSetHeadline;
  /** The Advanced DaemonSet part's figures, when it ran. */
  ads?: DaemonSetHeadline;
}

const fmt = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
/** A count, or `n/a` when it was not measured (NaN: e.g. `--only rollout` leaves the no-op part out). */
const count = (x: number): string => (Number.isFinite(x) ? String(x) : 'n/a');

/**
 * The last line of `npm run bench`, exactly:
 * `bench: scale-up <a>x OpenKruise <b>x Deployment; rollout <c>x OpenKruise; noop reads <r> writes <w>`, and when
 * the Advanced StatefulSet part ran, after it:
 * `; asts OrderedReady <d>x OpenKruise <e>x StatefulSet, Parallel <f>x OpenKruise <g>x StatefulSet, in-place <h>x
 * OpenKruise <i>x StatefulSet, requests per pod <j>/<k>/<l>x OpenKruise` (the last three in the same order), and
 * when the Advanced DaemonSet part ran, after that:
 * `; ads create <a>x DaemonSet <b>x OpenKruise, rolling update <c>x DaemonSet <d>x OpenKruise, in-place <e>x
 * OpenKruise, requests per pod <f>/<g>x DaemonSet <h>/<i>/<j>x OpenKruise` (create, rolling update[, in-place]).
 */
export function summaryLine(h: Headline): string {
  return (
    `bench: scale-up ${fmt(h.scaleUpVsOpenKruise)}x OpenKruise ${fmt(h.scaleUpVsDeployment)}x Deployment; ` +
    `rollout ${fmt(h.rolloutVsOpenKruise)}x OpenKruise; noop reads ${count(h.noopReads)} writes ${count(h.noopWrites)}` +
    (h.asts ? `; ${statefulSetSummary(h.asts)}` : '') +
    (h.ads ? `; ${daemonSetSummary(h.ads)}` : '')
  );
}

/** The Advanced DaemonSet part of {@link summaryLine}, from `ads`. */
function daemonSetSummary(a: DaemonSetHeadline): string {
  const vs = (daemonSet: number, openKruise: number): string =>
    `${fmt(daemonSet)}x DaemonSet ${fmt(openKruise)}x OpenKruise`;
  const d = a.perPodVsDaemonSet;
  const o = a.perPodVsOpenKruise;
  return (
    `ads create ${vs(a.createVsDaemonSet, a.createVsOpenKruise)}, ` +
    `rolling update ${vs(a.rollingUpdateVsDaemonSet, a.rollingUpdateVsOpenKruise)}, ` +
    `in-place ${fmt(a.inPlaceVsOpenKruise)}x OpenKruise, ` +
    `requests per pod ${fmt(d.create)}/${fmt(d.rollingUpdate)}x DaemonSet ` +
    `${fmt(o.create)}/${fmt(o.rollingUpdate)}/${fmt(o.inPlace)}x OpenKruise`
  );
}

/** The Advanced StatefulSet part of {@link summaryLine}, from `asts`. */
function statefulSetSummary(a: StatefulSetHeadline): string {
  const vs = (openKruise: number, statefulSet: number): string =>
    `${fmt(openKruise)}x OpenKruise ${fmt(statefulSet)}x StatefulSet`;
  const p = a.perPodVsOpenKruise;
  return (
    `asts OrderedReady ${vs(a.orderedReadyVsOpenKruise, a.orderedReadyVsStatefulSet)}, ` +
    `Parallel ${vs(a.parallelVsOpenKruise, a.parallelVsStatefulSet)}, ` +
    `in-place ${vs(a.rolloutVsOpenKruise, a.rolloutVsStatefulSet)}, ` +
    `requests per pod ${fmt(p.orderedReady)}/${fmt(p.parallel)}/${fmt(p.rollout)}x OpenKruise`
  );
}
