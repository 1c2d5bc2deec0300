/**
 * The failed-pod backoff of the DaemonSet controller (OpenKruise pkg/controller/daemonset/daemonset_controller.go:
 * `failedPodsBackoff`, client-go's `flowcontrol.NewBackOff(1s, 15m)` without jitter, keyed by
 * `failedPodsBackoffKey`): a node whose daemon pod keeps failing — a kubelet that rejects it — has its failed pod
 * deleted (and so replaced) at most once per delay, the delay doubling from 1 s up to 15 min per failure found, and
 * starting over once the node has had no failure for twice the longest delay. Upstream keeps the delays in the
 * controller's memory; a stateless pass keeps them as plain data with its expectations (lib/state `BackoffEntry`).
 * Pure.
 */

/** One node's delay: as lib/state's `BackoffEntry`, declared here so the planner imports no state layer. */
export interface FailedPodBackoff {
  /** `<DaemonSet observedGeneration>/<node name>` (upstream's key without the UID: the entries are per DaemonSet). */
  key: string;
  /** The current delay, ms. */
  delayMs: number;
  /** When it was last raised, epoch ms. */
  at: number;
}

/** First delay, ms (`NewBackOff`'s initial 1 s). */
export const FAILED_POD_BACKOFF_INITIAL_MS = 1000;
/** Longest delay, ms (`NewBackOff`'s max 15 min). */
export const FAILED_POD_BACKOFF_MAX_MS = 15 * 60 * 1000;

/** The key of `node` for a DaemonSet at `observedGeneration`: a new generation starts every node's delay anew. */
export function failedPodBackoffKey(observedGeneration: number, node: string): string {
  return `${observedGeneration}/${node}`;
}

/** Whether `entry` is old enough to be forgotten at `nowMs` (client-go's `hasExpired`: more than twice the max). */
function expired(entry: FailedPodBackoff, nowMs: number): boolean {
  return nowMs - entry.at > 2 * FAILED_POD_BACKOFF_MAX_MS;
}

/**
 * The delay `key` is still in at `nowMs`, as client-go's `IsInBackOffSinceUpdate` decides it (less than its delay
 * since it was raised, and not expired).
 * @returns the entry's whole delay, ms (what upstream requeues after), or undefined when not in backoff
 */
export function failedPodBackoffDelay(
  entries: ReadonlyMap<string, FailedPodBackoff>,
  key: string,
  nowMs: number,
): number | undefined {
  const entry = entries.get(key);
  if (!entry || expired(entry, nowMs)) return undefined;
  return nowMs - entry.at < entry.delayMs ? entry.delayMs : undefined;
}

/**
 * Raise `key`'s delay at `nowMs` (mutates `entries`), as client-go's `Next`: 1 s for a new or expired entry, else
 * double, at most 15 min.
 */
export function raiseFailedPodBackoff(
  entries: Map<string, FailedPodBackoff>,
  key: string,
  nowMs: number,
): void {
  const entry = entries.get(key);
  const delayMs =
    !entry || expired(entry, nowMs)
      ? FAILED_POD_BACKOFF_INITIAL_MS
      : Math.min(entry.delayMs * 2, FAILED_POD_BACKOFF_MAX_MS);
  entries.set(key, { key, delayMs, at: nowMs });
}

/**
 * The entries to keep after a pass at `nowMs`: the expired ones dropped (client-go's `GC`, which upstream runs every
 * minute), in key order so that an unchanged set compares equal.
 */
export function keptFailedPodBackoffs(
  entries: ReadonlyMap<string, FailedPodBackoff>,
  nowMs: number,
): FailedPodBackoff[] {
  return [...entries.values()]
    .filter((e) => !expired(e, nowMs))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
