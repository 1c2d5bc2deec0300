/**
 * The forwarder's coalescing (many pod events become one reconcile request per object per batch,
 * docs/architecture.md#lib-requests). Pure.
 */
import { objectKeyText } from '../core/objectKey.js';
import { newerResourceVersion } from '../core/resourceVersion.js';
import { MAX_CORRELATION_IDS, type ReconcileReason, type ReconcileRequest } from './schema.js';

/**
 * Reason precedence when several requests name one object, strongest first: the merged request reads at least what
 * each of them would have read. The reason chooses a pass's reads (docs/architecture.md#reads: a CloneSet's `Resync`
 * lists every pod and PVC of the namespace, a change every pod, a `Requeue` those of its selector; a `Resync` reads
 * by quorum, lib/reconcile/reconcile.ts `startingFloors`), so the periodic safety net (`Resync`) comes first — a
 * change coalesced with it must not narrow it, or what it is there to catch waits for the next one — then an
 * observed change, the object's own before one it owns (a pod) before one a watch merely maps to it, and last the
 * timer a pass set itself (`Requeue`), the narrowest read. It is also what logs and metrics give as the cause.
 */
export const REASON_PRECEDENCE: readonly ReconcileReason[] = [
  'Resync',
  'ObjectChanged',
  'OwnedObjectChanged',
  'MappedObjectChanged',
  'Requeue',
];

/**
 * One request per object key `(cluster, kind, namespace, name)` (lib/core/objectKey.ts).
 * @param requests in arrival order
 * @returns a new array in order of each key's first appearance; each entry carries the strongest reason of
 *   {@link REASON_PRECEDENCE}, the newest `resourceVersion` seen for its key (omitted when none had one) and the
 *   correlation ids of all of them in arrival order without repeats, the first {@link MAX_CORRELATION_IDS}
 *   (omitted when none had any). Inputs are not modified.
 */
export function coalesce(requests: readonly ReconcileRequest[]): ReconcileRequest[] {
  const byKey = new Map<string, ReconcileRequest>();
  for (const request of requests) {
    const key = objectKeyText(request);
    const seen = byKey.get(key);
    if (seen === undefined) {
      byKey.set(key, { ...request });
      continue;
    }
    const reason =
      REASON_PRECEDENCE.indexOf(request.reason) < REASON_PRECEDENCE.indexOf(seen.reason)
        ? request.reason
        : seen.reason;
    const resourceVersion = newerResourceVersion(seen.resourceVersion, request.resourceVersion);
    const merged: ReconcileRequest = { ...seen, reason };
    if (resourceVersion === undefined) delete merged.resourceVersion;
    else merged.resourceVersion = resourceVersion;
    const ids = [...new Set([...(seen.correlationIds ?? []), ...(request.correlationIds ?? [])])];
    if (ids.length > 0) merged.correlationIds = ids.slice(0, MAX_CORRELATION_IDS);
    byKey.set(key, merged);
  }
  return [...byKey.values()];
}
