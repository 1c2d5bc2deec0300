/**
 * OpenKruise: pkg/controller/podunavailablebudget/podunavailablebudget_controller.go `syncPodUnavailableBudget`,
 * `buildDisruptedAndUnavailablePods`, `countAvailablePods` and `updatePubStatus` (v1.9.0).
 *
 * The PUB's status from its pods and expected replicas: the webhook's records (`disruptedPods`, `unavailablePods`)
 * kept while their pod is still active and their grace has not run out, the available pods counted without them,
 * and `unavailableAllowed = max(0, currentAvailable - desiredAvailable)`. Pure: the pass reads, this decides.
 */
import type { Pod } from '../../../api/types.js';
import { errorMessage } from '../../../core/errors.js';
import { isPodActive } from '../../../podset/pods.js';
import type { PodUnavailableBudget, PodUnavailableBudgetStatus } from '../api/types.js';
import { desiredAvailable } from './desired.js';
import { isPodAvailableForPub, relatedPubName } from './podState.js';

/** How long a pod stays in `disruptedPods` after the webhook admitted its deletion or eviction, ms (upstream 20 s). */
export const DELETION_TIMEOUT_MS = 20_000;

/** How long a pod stays in `unavailablePods` after the webhook admitted its in-place update, ms (upstream 10 s). */
export const UPDATED_DELAY_CHECK_MS = 10_000;

/** What the status is computed from. */
export interface PubStatusInput {
  pub: PodUnavailableBudget;
  /** The pods the budget covers (./targets.ts in the pass: by `targetRef` or `selector`), active or not. */
  pods: readonly Pod[];
  /** The expected replicas: the workloads' `spec.replicas`, or `spec.protectTotalReplicas`. */
  expectedCount: number;
  now: Date;
}

/** The status to hold, and what else the pass does. */
export interface PubStatusPlan {
  type: 'Status';
  status: PodUnavailableBudgetStatus;
  /** Whether `status` differs from the stored one (nothing is written otherwise). */
  changed: boolean;
  /** When the earliest kept record runs out, ms from `now` (the pass looks again then); absent: none kept. */
  recheckAfterMs?: number;
  /** Pods whose `disruptedPods` record ran out while they still exist (a Warning `NotDeleted` each), in pod order. */
  notDeleted: string[];
  /** No pod is covered (a Normal `NoPods` Event on the PUB). */
  noPods: boolean;
  /** Pods without a related-pub annotation, which the pass marks with this PUB's name, in pod order. */
  unmarked: string[];
}

/** The spec cannot be evaluated: a Warning `CalculateExpectedPodCountFailed`, no status written, the pass retried. */
export interface PubInvalidPlan {
  type: 'Invalid';
  message: string;
  noPods: boolean;
  unmarked: string[];
}

/** A pass's decision. */
export type PubPlan = PubStatusPlan | PubInvalidPlan;

function ms(time: string): number {
  const t = Date.parse(time);
  return Number.isNaN(t) ? 0 : t;
}

function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  const kb = Object.keys(b ?? {});
  return ka.length === kb.length && ka.every((k) => (b ?? {})[k] === (a ?? {})[k]);
}

/**
 * The records still standing: for each active pod, its `disruptedPods` entry while `time + 20 s` is not before
 * `now`, its `unavailablePods` entry while `time + 10 s` is not; a record of a pod not in `pods` (gone, or no longer
 * covered) or inactive is dropped silently.
 */
export function keptRecords(
  pods: readonly Pod[],
  stored: PodUnavailableBudgetStatus | undefined,
  now: Date,
): {
  disruptedPods: Record<string, string>;
  unavailablePods: Record<string, string>;
  notDeleted: string[];
  recheckAtMs?: number;
} {
  const disruptedPods: Record<string, string> = {};
  const unavailablePods: Record<string, string> = {};
  const notDeleted: string[] = [];
  let recheckAtMs: number | undefined;
  const at = now.getTime();
  const keepUntil = (until: number) => {
    if (recheckAtMs === undefined || until < recheckAtMs) recheckAtMs = until;
  };
  for (const pod of pods) {
    if (!isPodActive(pod)) continue;
    const name = pod.metadata.name ?? '';
    const disrupted = stored?.disruptedPods?.[name];
    if (disrupted !== undefined) {
      const until = ms(disrupted) + DELETION_TIMEOUT_MS;
      if (until < at) notDeleted.push(name);
      else {
        disruptedPods[name] = disrupted;
        keepUntil(until);
      }
    }
    const unavailable = stored?.unavailablePods?.[name];
    if (unavailable !== undefined) {
      const until = ms(unavailable) + UPDATED_DELAY_CHECK_MS;
      if (until >= at) {
        unavailablePods[name] = unavailable;
        keepUntil(until);
      }
    }
  }
  return {
    disruptedPods,
    unavailablePods,
    notDeleted,
    ...(recheckAtMs !== undefined ? { recheckAtMs } : {}),
  };
}

/**
 * Active pods available to the budget ({@link isPodAvailableForPub}) and recorded in neither map.
 */
export function countAvailable(
  pods: readonly Pod[],
  disruptedPods: Record<string, string>,
  unavailablePods: Record<string, string>,
): number {
  let n = 0;
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    if (!isPodActive(pod) || name in disruptedPods || name in unavailablePods) continue;
    if (isPodAvailableForPub(pod)) n++;
  }
  return n;
}

/**
 * The PUB's plan (see the module doc). The status is OpenKruise's field for field: the two maps only when
 * non-empty, `observedGeneration` the PUB's generation (omitted when 0).
 */
export function planPubStatus(input: PubStatusInput): PubPlan {
  const { pub, pods, expectedCount, now } = input;
  const noPods = pods.length === 0;
  const unmarked = pods.filter((p) => relatedPubName(p) === '').map((p) => p.metadata.name ?? '');
  let desired: number;
  try {
    desired = desiredAvailable(pub.spec ?? {}, expectedCount);
  } catch (e) {
    return {
      type: 'Invalid',
      message: `Failed to calculate the number of expected pods: ${errorMessage(e)}`,
      noPods,
      unmarked,
    };
  }
  const stored = pub.status;
  const kept = keptRecords(pods, stored, now);
  const currentAvailable = countAvailable(pods, kept.disruptedPods, kept.unavailablePods);
  const unavailableAllowed = Math.max(0, currentAvailable - desired);
  const generation = pub.metadata.generation ?? 0;
  const status: PodUnavailableBudgetStatus = {
    ...(generation !== 0 ? { observedGeneration: generation } : {}),
    ...(Object.keys(kept.disruptedPods).length > 0 ? { disruptedPods: kept.disruptedPods } : {}),
    ...(Object.keys(kept.unavailablePods).length > 0 ? { unavailablePods: kept.unavailablePods } : {}),
    unavailableAllowed,
    currentAvailable,
    desiredAvailable: desired,
    totalReplicas: expectedCount,
  };
  const changed =
    (stored?.currentAvailable ?? 0) !== currentAvailable ||
    (stored?.desiredAvailable ?? 0) !== desired ||
    (stored?.totalReplicas ?? 0) !== expectedCount ||
    (stored?.unavailableAllowed ?? 0) !== unavailableAllowed ||
    (stored?.observedGeneration ?? 0) !== generation ||
    !sameMap(stored?.disruptedPods, kept.disruptedPods) ||
    !sameMap(stored?.unavailablePods, kept.unavailablePods);
  return {
    type: 'Status',
    status,
    changed,
    ...(kept.recheckAtMs !== undefined
      ? { recheckAfterMs: Math.max(0, kept.recheckAtMs - now.getTime()) }
      : {}),
    notDeleted: kept.notDeleted,
    noPods,
    unmarked,
  };
}
