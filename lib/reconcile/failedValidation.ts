/**
 * Reporting a workload OpenKruise's validating webhook would have refused, for the kinds whose webhook Kruiseless
 * does not serve (issue 17: "an invalid object gets a FailedValidation condition and a Warning Event, nothing in the
 * cluster touched"): the condition of lib/api/failedValidation.ts and a Warning Event `FailedValidation` with its
 * message, written only when the stored condition says something else, so a pass over an unchanged invalid object
 * writes nothing.
 */
import type { FieldError } from '../api/errors.js';
import {
  failedValidationMessage,
  withFailedValidation,
  type StatusCondition,
} from '../api/failedValidation.js';
import { EventReason } from '../api/keys.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { classifyWriteError } from '../kube/errors.js';
import type { EventCorrelationState } from '../kube/eventCorrelation.js';
import type { Resource } from '../kube/resource.js';
import type { KubeClient, KubeObject } from '../kube/types.js';
import { recordObjectEvents } from './pods/recordEvents.js';

/** What {@link reportFailedValidation} needs. */
export interface FailedValidationReport<T extends KubeObject> {
  kube: KubeClient;
  clock: Clock;
  log: Logger;
  recordedEvents: Set<string>;
  eventCorrelation: { state: EventCorrelationState };
  resource: Resource<T>;
  /** The invalid object as read. */
  object: T;
  /** Its kind as the message names it, e.g. `DaemonSet`. */
  kind: string;
  /** Its stored status conditions. */
  conditions: readonly StatusCondition[] | undefined;
  /**
   * Writes the status with `conditions` (through the status subresource). Absent for a kind whose status has no
   * conditions (AdvancedCronJob): then the Event alone is recorded, on every call.
   * @throws KubeApiError
   */
  writeStatus?(conditions: StatusCondition[]): Promise<unknown>;
}

/**
 * Write the `FailedValidation` condition and record its Event, unless the stored condition already says it.
 * @returns API writes made (0 or 1); a failed status write is logged, not thrown (the next pass tries again)
 * @throws non-API errors
 */
export async function reportFailedValidation<T extends KubeObject>(
  report: FailedValidationReport<T>,
  errors: readonly FieldError[],
): Promise<number> {
  const message = failedValidationMessage(report.kind, errors);
  let writes = 0;
  if (report.writeStatus) {
    const conditions = withFailedValidation(report.conditions, message, report.clock());
    if (!conditions) return 0;
    try {
      await report.writeStatus(conditions);
      writes++;
    } catch (e) {
      if (classifyWriteError(e) === 'notApi') throw e;
      report.log.warn('status update failed', { error: (e as Error).message });
    }
  }
  await recordObjectEvents(
    {
      kube: report.kube,
      resource: report.resource,
      object: report.object,
      clock: report.clock,
      recordedEvents: report.recordedEvents,
      eventCorrelation: report.eventCorrelation,
    },
    [{ type: 'Warning', reason: EventReason.FailedValidation, message }],
  );
  return writes;
}
