/**
 * OpenKruise: pkg/util/lifecycle/lifecycle_utils.go `SetPodLifecycle`, `executePodNotReadyPolicy`;
 * pkg/util/podreadiness/pod_readiness_utils.go `addNotReadyKey`, `removeNotReadyKey`.
 *
 * Patch builders for lifecycle transitions (docs/behaviour/cloneset.md#pod-labels,
 * docs/behaviour/cloneset.md#readiness, docs/behaviour/cloneset.md#lifecycle): the strategic-merge patch that
 * moves a pod to a lifecycle state, and the pods/status patch that adds or removes a `markPodNotReady` key on
 * the `KruisePodReady` condition. Pure functions; time comes in as `now`.
 */
import {
  ANNOTATION_LIFECYCLE_TIMESTAMP,
  CONDITION_KRUISE_POD_READY,
  LABEL_LIFECYCLE_STATE,
  type LifecycleStateValue,
} from '../../api/keys.js';
import type { JsonObject, Pod, PodCondition } from '../../api/types.js';
import { hasReadinessGate, readinessFromGates } from '../readiness.js';
import { metaTime } from '../../api/time.js';

/**
 * Strategic-merge patch setting the lifecycle state label and the lifecycle timestamp annotation
 * (docs/behaviour/cloneset.md#pod-labels, docs/behaviour/cloneset.md#pod-annotations):
 * `{"metadata":{"labels":{"lifecycle.apps.kruise.io/state":state},"annotations":{"lifecycle.apps.kruise.io/timestamp":t}}}`.
 * (OpenKruise stamps the controller's local offset; Kruiseless always writes the UTC `Z` form.)
 * @param state the target state; `''` is written as an empty label value
 */
export function lifecycleStatePatch(state: LifecycleStateValue, now: Date): JsonObject {
  return {
    metadata: {
      labels: { [LABEL_LIFECYCLE_STATE]: state },
      annotations: { [ANNOTATION_LIFECYCLE_TIMESTAMP]: metaTime(now) },
    },
  };
}

/**
 * A `markPodNotReady` key written into the `KruisePodReady` message list
 * (docs/behaviour/cloneset.md#readiness).
 */
export type NotReadyKey = 'preDeleteHook' | 'preUpdateHook';

interface NotReadyMessage {
  userAgent: string;
  key: string;
}

const USER_AGENT = 'Lifecycle';

function parseMessages(message: string | undefined): NotReadyMessage[] {
  if (!message) return [];
  try {
    const parsed: unknown = JSON.parse(message);
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null)
      .map((m) => ({
        userAgent: typeof m.userAgent === 'string' ? m.userAgent : '',
        key: typeof m.key === 'string' ? m.key : '',
      }));
  } catch {
    return [];
  }
}

function dumpMessages(messages: NotReadyMessage[]): string {
  const sorted = [...messages].sort((a, b) =>
    a.userAgent === b.userAgent ? cmp(a.key, b.key) : cmp(a.userAgent, b.userAgent),
  );
  return JSON.stringify(sorted.map((m) => ({ userAgent: m.userAgent, key: m.key })));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function conditionJson(c: PodCondition): JsonObject {
  const out: JsonObject = { type: c.type, status: c.status };
  if (c.reason !== undefined) out.reason = c.reason;
  if (c.message !== undefined) out.message = c.message;
  if (c.lastTransitionTime !== undefined) out.lastTransitionTime = c.lastTransitionTime;
  return out;
}

/**
 * The recomputed `Ready` condition after a readiness-gate change ({@link readinessFromGates},
 * docs/behaviour/cloneset.md#readiness), with `lastTransitionTime` now on `Ready=False` too; undefined when
 * `Ready` is absent, `ContainersReady` is not True, or the status would not change.
 */
function recomputedReady(pod: Pod, conditions: PodCondition[], now: Date): PodCondition | undefined {
  const next = readinessFromGates(pod, conditions, now);
  if (!next || next.status === conditions.find((c) => c.type === 'Ready')?.status) return undefined;
  return next.status === 'False' ? { ...next, lastTransitionTime: metaTime(now) } : next;
}

/**
 * The pods/status strategic-merge patch (conditions merge by `type`) that adds (`add`) or removes the
 * `{"userAgent":"Lifecycle","key":key}` entry of the `KruisePodReady` condition message
 * (docs/behaviour/cloneset.md#readiness, docs/behaviour/cloneset.md#lifecycle).
 *
 * Adding: a missing condition is created with the one-entry message; an existing one gets the entry appended
 * (message re-sorted by userAgent then key), status `False`, `lastTransitionTime` now; then `Ready` is
 * recomputed from the readiness gates when `Ready` exists and `ContainersReady` is True, and included when
 * its status flips. Removing: the entry is dropped; an empty list sets status `True` (message `[]`); `Ready`
 * is left to the kubelet.
 *
 * Deviations from OpenKruise, on purpose: a newly created condition gets status `False` (upstream leaves it
 * empty; both mean "gate not satisfied"), and a recomputed `Ready=False` carries `lastTransitionTime` now.
 * @param key `preDeleteHook` (entering PreparingDelete) or `preUpdateHook` (PreparingUpdate / Updated)
 * @returns the patch, or undefined when the pod lacks the `KruisePodReady` readiness gate or nothing changes
 */
export function markPodNotReadyPatch(
  pod: Pod,
  key: NotReadyKey,
  add: boolean,
  now: Date,
): JsonObject | undefined {
  if (!hasReadinessGate(pod, CONDITION_KRUISE_POD_READY)) return undefined;
  const conditions = pod.status?.conditions ?? [];
  const current = conditions.find((c) => c.type === CONDITION_KRUISE_POD_READY);
  const messages = parseMessages(current?.message);
  const present = messages.some((m) => m.userAgent === USER_AGENT && m.key === key);
  const t = metaTime(now);

  if (!add) {
    if (!current || !present) return undefined;
    const rest = messages.filter((m) => !(m.userAgent === USER_AGENT && m.key === key));
    const next: PodCondition = {
      ...current,
      status: rest.length === 0 ? 'True' : current.status,
      message: dumpMessages(rest),
      lastTransitionTime: t,
    };
    return { status: { conditions: [conditionJson(next)] } };
  }

  if (current && present) return undefined;
  const next: PodCondition = {
    ...(current ?? {}),
    type: CONDITION_KRUISE_POD_READY,
    status: 'False',
    message: dumpMessages([...messages, { userAgent: USER_AGENT, key }]),
    lastTransitionTime: t,
  };
  const after = [...conditions.filter((c) => c.type !== CONDITION_KRUISE_POD_READY), next];
  const ready = recomputedReady(pod, after, now);
  return {
    status: { conditions: ready ? [conditionJson(next), conditionJson(ready)] : [conditionJson(next)] },
  };
}
