/**
 * OpenKruise: pkg/control/pubcontrol/pub_control_utils.go `PodUnavailableBudgetValidatePod`, `checkAndDecrement`,
 * `isNeedPubProtection`, `getPubProtectOperations`, `isPodMatchedIgnoredPubSelector`, `isPodRecordedInPub` (v1.9.0).
 *
 * The pod webhook's decision for one pod and its PUB, pure: whether the operation is exempt (the pod is not
 * protected, not available, the PUB wants nothing, the operation is not protected, the pod is already recorded),
 * and otherwise whether the budget allows it and the status that consumes it (`unavailableAllowed - 1`, the pod
 * recorded at `now`). ../podWebhook.ts reads, writes the status with its retries, and answers.
 */
import type { Pod } from '../../../api/types.js';
import { isEmptySelector, selectorMatches } from '../../../api/selector.js';
import { ANNOTATION_PUB_PROTECT_OPERATIONS } from '../api/keys.js';
import type { PodUnavailableBudget, PodUnavailableBudgetStatus, PubOperation } from '../api/types.js';
import { isPodAvailableForPub, isPodNoProtection } from './podState.js';

/** Entries of `disruptedPods` plus `unavailablePods` beyond which nothing more is admitted (upstream 2000). */
export const MAX_UNAVAILABLE_POD_SIZE = 2000;

/**
 * The operations a PUB protects: `spec.protectOperations` when non-empty; else the annotation's comma-separated list
 * when it names one; else DELETE, UPDATE and EVICT. With gate `InPlacePodVerticalScaling` off (v1.9.0's default),
 * RESIZE is protected whenever UPDATE is.
 */
export function protectedOperations(
  pub: PodUnavailableBudget,
  inPlacePodVerticalScaling = false,
): Set<PubOperation> {
  let ops = new Set<PubOperation>(pub.spec?.protectOperations ?? []);
  if (ops.size === 0) {
    const annotation = pub.metadata.annotations?.[ANNOTATION_PUB_PROTECT_OPERATIONS] ?? '';
    ops = new Set(annotation.split(',').filter((o) => o !== ''));
  }
  if (ops.size === 0) ops = new Set(['DELETE', 'UPDATE', 'EVICT']);
  if (!inPlacePodVerticalScaling && ops.has('UPDATE')) ops.add('RESIZE');
  return ops;
}

/**
 * Whether `ignoredPodSelector` picks the pod (absent or empty: no).
 * @throws InvalidSelectorError for an invalid selector (upstream answers the error)
 */
export function isIgnoredPod(pub: PodUnavailableBudget, pod: Pod): boolean {
  const selector = pub.spec?.ignoredPodSelector;
  if (!selector || isEmptySelector(selector)) return false;
  return selectorMatches(selector, pod.metadata.labels);
}

/** Why a pod operation needs no budget, as upstream's early returns. */
export type ExemptReason =
  | 'noProtection'
  | 'notAvailable'
  | 'noPub'
  | 'ignoredPod'
  | 'nothingDesired'
  | 'notProtected'
  | 'alreadyRecorded';

/**
 * Why `operation` on `pod` is admitted without consuming budget, in upstream's order; undefined when the budget
 * must be checked.
 * @param pub the PUB the pod's related-pub annotation names, undefined when none (or it does not exist)
 * @throws InvalidSelectorError for an invalid `ignoredPodSelector`
 */
export function exemption(
  pod: Pod,
  pub: PodUnavailableBudget | undefined,
  operation: PubOperation,
  inPlacePodVerticalScaling = false,
): ExemptReason | undefined {
  if (isPodNoProtection(pod)) return 'noProtection';
  if (!isPodAvailableForPub(pod)) return 'notAvailable';
  if (!pub) return 'noPub';
  if (isIgnoredPod(pub, pod)) return 'ignoredPod';
  if ((pub.status?.desiredAvailable ?? 0) === 0) return 'nothingDesired';
  if (!protectedOperations(pub, inPlacePodVerticalScaling).has(operation)) return 'notProtected';
  const name = pod.metadata.name ?? '';
  if (name in (pub.status?.unavailablePods ?? {}) || name in (pub.status?.disruptedPods ?? {}))
    return 'alreadyRecorded';
  return undefined;
}

/** `metav1.Time` as it is serialized: RFC 3339 in whole seconds, UTC. */
export function metaTime(now: Date): string {
  return new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The budget's answer: refused with OpenKruise's message, or allowed with the status that consumes it. */
export type BudgetDecision =
  { allowed: false; message: string } | { allowed: true; status: PodUnavailableBudgetStatus };

/**
 * Consume one unit of `pub`'s budget for `podName` (`checkAndDecrement`): refused when `unavailableAllowed` is not
 * positive or the two maps hold more than {@link MAX_UNAVAILABLE_POD_SIZE} entries; else `unavailableAllowed - 1` and
 * the pod recorded at `now` in `unavailablePods` for UPDATE, in `disruptedPods` for every other operation.
 */
export function consumeBudget(
  pub: PodUnavailableBudget,
  podName: string,
  operation: PubOperation,
  now: Date,
): BudgetDecision {
  const status: PodUnavailableBudgetStatus = pub.status ?? {
    unavailableAllowed: 0,
    currentAvailable: 0,
    desiredAvailable: 0,
    totalReplicas: 0,
  };
  const forbidden = (why: string) =>
    `podunavailablebudget.policy.kruise.io "${pub.metadata.name ?? ''}" is forbidden: ${why}`;
  if (status.unavailableAllowed <= 0)
    return { allowed: false, message: forbidden('pub unavailable allowed is negative') };
  const disruptedPods = { ...(status.disruptedPods ?? {}) };
  const unavailablePods = { ...(status.unavailablePods ?? {}) };
  if (Object.keys(disruptedPods).length + Object.keys(unavailablePods).length > MAX_UNAVAILABLE_POD_SIZE)
    return {
      allowed: false,
      message: forbidden(
        'DisruptedPods and UnavailablePods map too big - too many unavailable not confirmed by PUB controller',
      ),
    };
  if (operation === 'UPDATE') unavailablePods[podName] = metaTime(now);
  else disruptedPods[podName] = metaTime(now);
  // empty maps are left out, as Go's omitempty leaves them
  const { disruptedPods: _d, unavailablePods: _u, ...rest } = status;
  return {
    allowed: true,
    status: {
      ...rest,
      ...(Object.keys(disruptedPods).length > 0 ? { disruptedPods } : {}),
      ...(Object.keys(unavailablePods).length > 0 ? { unavailablePods } : {}),
      unavailableAllowed: status.unavailableAllowed - 1,
    },
  };
}
