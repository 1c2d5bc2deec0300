/**
 * The order in which update candidates are updated (spec §3.9 step 6; scenario 48): Kubernetes' active-pods
 * order, then `priorityStrategy`, then `scatterStrategy`, then `PreparingUpdate` pods first. Works on indexes
 * into the pod list, like OpenKruise. Pure functions; inputs are not modified.
 */
import { LifecycleState } from '../../api/keys.js';
import type {
  CloneSetUpdateStrategy,
  Pod,
  UpdatePriorityStrategy,
  UpdateScatterTerm,
} from '../../api/types.js';
import { selectorMatches } from '../../api/selector.js';
import { getPodCondition, isPodReady, lifecycleState, timeMillis } from '../pods.js';

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function maxRestarts(pod: Pod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((s) => s.restartCount ?? 0));
}

/** Go `afterOrZero`: a zero time sorts first, otherwise the later time first. */
function afterOrZero(a: number, b: number): boolean {
  if (a === 0 || b === 0) return a === 0;
  return a > b;
}

/** What Kubernetes' `ActivePods` order reads from a pod, extracted once per pod (see {@link activePodsLess}). */
interface ActivePodsKey {
  scheduled: boolean;
  phase: number;
  ready: boolean;
  /** Ready transition time, ms (0 = zero time); only compared when both pods are ready. */
  readyTime: number;
  restarts: number;
  /** Creation time, ms (0 = zero time). */
  created: number;
}

function activePodsKey(pod: Pod): ActivePodsKey {
  const ready = isPodReady(pod);
  return {
    scheduled: (pod.spec.nodeName ?? '') !== '',
    phase: PHASE_ORDINAL[pod.status?.phase ?? ''] ?? 0,
    ready,
    readyTime: ready ? timeMillis(getPodCondition(pod, 'Ready')?.lastTransitionTime) : 0,
    restarts: maxRestarts(pod),
    created: timeMillis(pod.metadata.creationTimestamp),
  };
}

/** {@link activePodsLess} on extracted keys. */
function activePodsKeyLess(a: ActivePodsKey, b: ActivePodsKey): boolean {
  if (a.scheduled !== b.scheduled) return !a.scheduled;
  if (a.phase !== b.phase) return a.phase < b.phase;
  if (a.ready !== b.ready) return !a.ready;
  if (a.ready && b.ready && a.readyTime !== b.readyTime) return afterOrZero(a.readyTime, b.readyTime);
  if (a.restarts !== b.restarts) return a.restarts > b.restarts;
  if (a.created !== b.created) return afterOrZero(a.created, b.created);
  return false;
}

/**
 * Kubernetes `ActivePods` "less" (least valuable first): unscheduled < scheduled; Pending < Unknown < Running;
 * not ready < ready; both ready: more recent Ready transition first (zero first); more restarts first; newer
 * creation first (zero first).
 */
export function activePodsLess(a: Pod, b: Pod): boolean {
  return activePodsKeyLess(activePodsKey(a), activePodsKey(b));
}

/**
 * Stable sort of `indexes` by `less` on a key read once per index (decorate, sort, undecorate), so comparisons
 * do not re-read pods.
 */
function stableSortBy<K>(
  indexes: number[],
  keyOf: (i: number) => K,
  less: (a: K, b: K) => boolean,
): number[] {
  return indexes
    .map((v, pos) => ({ v, pos, key: keyOf(v) }))
    .sort((x, y) => (less(x.key, y.key) ? -1 : less(y.key, x.key) ? 1 : x.pos - y.pos))
    .map((x) => x.v);
}

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

/** Level = index of the first `orderedKey` present on the pod (−1 if none); order = the value's trailing digits. */
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
 * `priorityStrategy` order (spec §3.9 6b), stable: `weightPriority` — higher weight sum first; else
 * `orderPriority` — lower level first (pods with none of the keys, level −1, come first), then higher order.
 */
export function sortByPriority(pods: Pod[], indexes: number[], strategy: UpdatePriorityStrategy): number[] {
  if (strategy.weightPriority && strategy.weightPriority.length > 0) {
    return stableSortBy(
      indexes,
      (i) => weightOf(strategy, pods[i]),
      (wi, wj) => wi > wj,
    );
  }
  if (strategy.orderPriority && strategy.orderPriority.length > 0) {
    return stableSortBy(
      indexes,
      (i) => orderOf(strategy, pods[i]),
      ([li, oi], [lj, oj]) => (li !== lj ? li < lj : oi > oj),
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
 * `scatterStrategy` order (spec §3.9 6c): for each term, candidates labelled `key=value` are spread evenly
 * among the others (at least two of each needed); the last matched candidate goes to the very end.
 * @param pods the whole pod population (the density of matched pods among all pods shapes the groups)
 */
export function sortByScatter(pods: Pod[], indexes: number[], terms: UpdateScatterTerm[]): number[] {
  if (terms.length === 0 || indexes.length <= 1) return [...indexes];
  let out = [...indexes];
  for (const term of scatterTerms(pods, out, terms)) out = scatterByTerm(pods, out, term);
  return out;
}

/**
 * Update order of candidates (spec §3.9 step 6): active-pods order (a stable sort here, so ties keep list
 * order — upstream's sort is unstable), then priority, then scatter, then `PreparingUpdate` pods first (stable).
 * @param indexes candidate indexes into `pods`
 * @returns a new array of the same indexes
 */
export function sortUpdateIndexes(
  pods: Pod[],
  indexes: number[],
  strategy: CloneSetUpdateStrategy | undefined,
): number[] {
  let out = stableSortBy(indexes, (i) => activePodsKey(pods[i]), activePodsKeyLess);
  if (strategy?.priorityStrategy) out = sortByPriority(pods, out, strategy.priorityStrategy);
  if (strategy?.scatterStrategy) out = sortByScatter(pods, out, strategy.scatterStrategy);
  return stableSortBy(
    out,
    (i) => lifecycleState(pods[i]) === LifecycleState.PreparingUpdate,
    (preparingI, preparingJ) => preparingI && !preparingJ,
  );
}
