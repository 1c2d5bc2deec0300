/**
 * OpenKruise: pkg/util/workloadspread/workloadspread.go `acquireSuitableSubset`, `updateSubsetForPod`,
 * `getSuitableSubset`, `initializedSubsetStatuses` and `isPodRecordedInSubset` (v1.9.0).
 *
 * The pod webhook's decision against the WorkloadSpread's status, which is its ledger: at a pod's creation, the first
 * subset (in spec order) that is not marked unschedulable and still misses pods (or has no maximum) takes it, and —
 * when the subset has a maximum — the pod is recorded in that subset's `creatingPods` and `missingReplicas` drops by
 * one; at a deletion or eviction, the pod is recorded in its subset's `deletingPods` and `missingReplicas` rises by
 * one. Records live under the pod's version in `versionedSubsetStatuses` (initialised from the spec when the version
 * has none). A pod already recorded under its version changes nothing. Pure: the caller writes the status (with
 * optimistic concurrency) and retries on conflict with a fresh read.
 */
import { scaledValueFromIntOrPercent } from '../../../api/intOrPercent.js';
import { CONDITION_SUBSET_SCHEDULABLE } from '../api/keys.js';
import type { WorkloadSpread, WorkloadSpreadStatus, WorkloadSpreadSubsetStatus } from '../api/types.js';

/** What the webhook does to the ledger. */
export type LedgerOperation = 'Create' | 'Delete' | 'Eviction';

/** One decision's inputs. */
export interface LedgerInput {
  ws: WorkloadSpread;
  operation: LedgerOperation;
  /** The pod's name; '' for a pod created with `generateName` only. */
  podName: string;
  /** The pod's version (./version.ts). */
  version: string;
  /** For a deletion: the subset the pod's annotation names. */
  podSubset?: string;
  /** The target's replicas, for percentages (only read when the version has no statuses yet). */
  replicas: number;
  /** The admission time, recorded at whole seconds. */
  now: Date;
  /** The id recorded for a pod without a name (the caller generates it: upstream's `uuid.NewUUID`). */
  newUid: string;
}

/** One decision. */
export interface LedgerDecision {
  /** The subset that takes the pod (creation), or that records it (deletion); undefined: none. */
  subset?: string;
  /** The generated id recorded for a nameless pod ('' when none). */
  uid: string;
  /** The status to write; undefined when the ledger does not change. */
  status?: WorkloadSpreadStatus;
}

/** Whether a subset's `maxReplicas` is a percentage (upstream's `hasPercentSubset`). */
export function hasPercentSubset(ws: WorkloadSpread): boolean {
  return ws.spec.subsets.some((s) => typeof s.maxReplicas === 'string');
}

/** `metav1.Time` as JSON: RFC 3339 at whole seconds, UTC. */
export function rfc3339Seconds(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

/**
 * The subsets' statuses before any pod: each misses its maximum (a percentage of `replicas`, rounded up), or -1
 * without one.
 * @throws IntOrPercentError for a malformed percentage (validation refuses those)
 */
export function initialSubsetStatuses(ws: WorkloadSpread, replicas: number): WorkloadSpreadSubsetStatus[] {
  return ws.spec.subsets.map((s) => ({
    name: s.name,
    replicas: 0,
    missingReplicas:
      s.maxReplicas === undefined ? -1 : scaledValueFromIntOrPercent(s.maxReplicas, replicas, 'up'),
  }));
}

function recorded(statuses: readonly WorkloadSpreadSubsetStatus[], podName: string): boolean {
  return statuses.some(
    (s) =>
      Object.prototype.hasOwnProperty.call(s.creatingPods ?? {}, podName) ||
      Object.prototype.hasOwnProperty.call(s.deletingPods ?? {}, podName),
  );
}

function schedulable(s: WorkloadSpreadSubsetStatus): boolean {
  return !(s.conditions ?? []).some((c) => c.type === CONDITION_SUBSET_SCHEDULABLE && c.status === 'False');
}

/**
 * The webhook's decision (see the module doc). A WorkloadSpread of one subset without a maximum takes every pod
 * with no record, as upstream's shortcut.
 * @throws IntOrPercentError for a malformed percentage
 */
export function decideLedger(input: LedgerInput): LedgerDecision {
  const { ws, operation, podName, version, now } = input;
  const subsets = ws.spec.subsets;
  if (subsets.length === 1 && subsets[0]?.maxReplicas === undefined)
    return operation === 'Create' ? { subset: subsets[0]?.name ?? '', uid: '' } : { uid: '' };
  const versioned = { ...(ws.status?.versionedSubsetStatuses ?? {}) };
  const existing = versioned[version];
  const statuses =
    existing && existing.length > 0
      ? existing.map((s) => ({ ...s }))
      : initialSubsetStatuses(ws, input.replicas);
  const at = rfc3339Seconds(now);
  let index: number;
  let uid = '';
  if (operation === 'Create') {
    if (podName !== '' && recorded(statuses, podName)) {
      const s = statuses.find(
        (x) =>
          Object.prototype.hasOwnProperty.call(x.creatingPods ?? {}, podName) ||
          Object.prototype.hasOwnProperty.call(x.deletingPods ?? {}, podName),
      );
      return { ...(s ? { subset: s.name } : {}), uid: '' };
    }
    index = statuses.findIndex((s) => schedulable(s) && (s.missingReplicas > 0 || s.missingReplicas === -1));
    if (index < 0) return { uid: '' };
    const chosen = statuses[index];
    if (chosen.missingReplicas === -1) return { subset: chosen.name, uid: '' };
    uid = podName === '' ? input.newUid : '';
    chosen.creatingPods = { ...(chosen.creatingPods ?? {}), [podName || uid]: at };
    if (chosen.missingReplicas > 0) chosen.missingReplicas--;
  } else {
    if (recorded(statuses, podName)) return { uid: '' };
    index = statuses.findIndex((s) => s.name === input.podSubset);
    if (index < 0) return { uid: '' };
    const chosen = statuses[index];
    if (chosen.missingReplicas === -1) return { subset: chosen.name, uid: '' };
    chosen.deletingPods = { ...(chosen.deletingPods ?? {}), [podName]: at };
    if (chosen.missingReplicas >= 0) chosen.missingReplicas++;
  }
  versioned[version] = statuses;
  return {
    subset: statuses[index].name,
    uid,
    status: { ...(ws.status ?? {}), versionedSubsetStatuses: versioned },
  };
}
