/**
 * OpenKruise: pkg/util/updatesort/priority_sort.go and scatter_sort.go `Sort` (used by CloneSet, Advanced
 * StatefulSet and SidecarSet).
 *
 * The two update-order strategies a workload may declare (docs/behaviour/cloneset.md#update-order; scenario 48):
 * `priorityStrategy` (weights or ordered keys) and `scatterStrategy` (spread labelled pods). Both work on indexes
 * into the pod list, like OpenKruise. Pure functions; inputs are not modified.
 */
import type { Pod, UpdatePriorityStrategy, UpdateScatterTerm } from '../api/types.js';
import { selectorMatches } from '../api/selector.js';
import { stableSortBy } from './podOrder.js';

function weightOf(strategy: UpdatePriorityStrategy, pod: Pod): number {
  let sum = 0;
  for (const term of strategy.weightPriority ?? []) {
    try {
      if (selectorMatches(term.matchSelector, pod.metadata.labels)) sum += term.weight;
    } catch {
      // An invalid selector contributes nothing (upstream skips it).
    }
  }
  return sum;
}

/**
 * Level = index of the first `orderedKey` present on the pod (−1 if none); order = the value's trailing
 * digits.
 */
function orderOf(strategy: UpdatePriorityStrategy, pod: Pod): [number, number] {
  const labels = pod.metadata.labels ?? {};
  const terms = strategy.orderPriority ?? [];
  for (let i = 0; i < terms.length; i++) {
    const value = labels[terms[i].orderedKey];
    if (value === undefined) continue;
    const digits = /\d+$/.exec(value)?.[0];
    const n = digits === undefined ? 0 : Number(digits);
    return [i, Number.isSafeInteger(n) ? n : 0];
  }
  return [-1, 0];
}

/**
 * `priorityStrategy` order (docs/behaviour/cloneset.md#update-order), stable: `weightPriority` — higher
 * weight sum first; else `orderPriority` — lower level first (pods with none of the keys, level −1, come
 * first), then higher order.
 */
export function sortByPriority(pods: Pod[], indexes: number[], strategy: UpdatePriorityStrategy): number[] {
  if (strategy.weightPriority && strategy.weightPriority.length > 0) {
    return stableSortBy(
      indexes,
      (i) => weightOf(strategy, pods[i]),
      (wi, wj) => wj - wi,
    );
  }
  if (strategy.orderPriority && strategy.orderPriority.length > 0) {
    return stableSortBy(
      indexes,
      (i) => orderOf(strategy, pods[i]),
      ([li, oi], [lj, oj]) => (li !== lj ? li - lj : oj - oi),
    );
  }
  return [...indexes];
}

const matches = (pod: Pod, term: UpdateScatterTerm) => (pod.metadata.labels?.[term.key] ?? '') === term.value;

/** Terms to apply: one term as is; several re-ordered by how many candidates match them, most first. */
function scatterTerms(pods: Pod[], indexes: number[], terms: UpdateScatterTerm[]): UpdateScatterTerm[] {
  if (terms.length === 1) return terms;
  const counts = new Map<string, { term: UpdateScatterTerm; n: number }>();
  for (const term of terms) {
    for (const i of indexes) {
      const value = pods[i].metadata.labels?.[term.key];
      if (value === undefined || value !== term.value) continue;
      const id = `${term.key}:${value}`;
      const entry = counts.get(id);
      if (entry) entry.n++;
      else counts.set(id, { term: { key: term.key, value }, n: 1 });
    }
  }
  return [...counts.values()].sort((a, b) => b.n - a.n).map((e) => e.term);
}

interface Groups {
  groupNum: number;
  matchedSize: number;
  unmatchedSize: number;
  unmatchedRemainder: number;
}

function evenGroups(matched: number, unmatched: number): Groups {
  const groupNum = Math.min(matched, unmatched);
  return {
    groupNum,
    matchedSize: Math.round(matched / groupNum),
    unmatchedSize: Math.round(unmatched / groupNum),
    unmatchedRemainder: 0,
  };
}

/** Group sizes by density: the candidates' ratio, unless the whole population is denser in unmatched pods. */
function groupsByDensity(totalM: number, totalU: number, candM: number, candU: number): Groups {
  const candidate = evenGroups(candM, candU);
  if (
    Math.fround(Math.fround(totalU) / Math.fround(totalM)) >=
    Math.fround(Math.fround(candU) / Math.fround(candM))
  ) {
    return candidate;
  }
  const total = evenGroups(totalM, totalU);
  const byMatched = Math.trunc(candM / total.matchedSize);
  const byUnmatched = Math.trunc(candU / total.unmatchedSize);
  const groupNum = byMatched < byUnmatched ? byMatched : byUnmatched;
  return {
    groupNum,
    matchedSize: total.matchedSize,
    unmatchedSize: total.unmatchedSize,
    unmatchedRemainder: candU - groupNum * total.unmatchedSize,
  };
}

function scatterByTerm(pods: Pod[], indexes: number[], term: UpdateScatterTerm): number[] {
  const matched = indexes.filter((i) => matches(pods[i], term));
  const unmatched = indexes.filter((i) => !matches(pods[i], term));
  if (matched.length <= 1 || unmatched.length <= 1) return indexes;
  let totalM = pods.filter((p) => matches(p, term)).length;
  const totalU = pods.length - totalM;
  const last = matched.pop() as number;
  totalM--;
  const g = groupsByDensity(totalM, totalU, matched.length, unmatched.length);
  const out = unmatched.splice(0, Math.max(g.unmatchedRemainder, 0));
  for (let i = 0; i < g.groupNum; i++) {
    out.push(...matched.splice(0, g.matchedSize));
    out.push(...unmatched.splice(0, g.unmatchedSize));
  }
  return [...out, ...matched, ...unmatched, last];
}

/**
 * `scatterStrategy` order (docs/behaviour/cloneset.md#update-order): for each term, candidates labelled
 * `key=value` are spread evenly among the others (at least two of each needed); the last matched candidate
 * goes to the very end.
 * @param pods the whole pod population (the density of matched pods among all pods shapes the groups)
 */
export function sortByScatter(pods: Pod[], indexes: number[], terms: UpdateScatterTerm[]): number[] {
  if (terms.length === 0 || indexes.length <= 1) return [...indexes];
  let out = [...indexes];
  for (const term of scatterTerms(pods, out, terms)) out = scatterByTerm(pods, out, term);
  return out;
}
