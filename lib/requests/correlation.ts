/**
 * Correlation ids (README.md#observability): each reconcile request a source creates gets one, so the log lines of
 * the reconcile it causes can be found from the observation that caused it.
 */
import { randomUUID } from 'node:crypto';
import type { ReconcileRequest } from './schema.js';

/**
 * `requests` with a fresh id (`newId()`, default a random UUID) on each one that has none; the others unchanged.
 * @returns a new array; inputs are not modified
 */
export function withCorrelationIds(
  requests: readonly ReconcileRequest[],
  newId: () => string = randomUUID,
): ReconcileRequest[] {
  return requests.map((r) => (r.correlationIds ? r : { ...r, correlationIds: [newId()] }));
}

/**
 * The correlation ids of a received request: its own, else the id of the EventBridge event that carried it, else
 * none.
 */
export function correlationIdsOf(request: ReconcileRequest, eventId?: string): string[] {
  return request.correlationIds ?? (eventId ? [eventId] : []);
}
