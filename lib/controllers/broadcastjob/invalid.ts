/**
 * Reporting a BroadcastJob OpenKruise's validating webhook would have refused (./api/validation.ts): the kind-neutral
 * `FailedValidation` condition and Warning Event of lib/reconcile/failedValidation.ts, message
 * `BroadcastJob is invalid: <path: message; …>`. No pod is created or deleted.
 */
import type { FieldError } from '../../api/errors.js';
import type { StatusCondition } from '../../api/failedValidation.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { EventCorrelationState } from '../../kube/eventCorrelation.js';
import type { KubeClient } from '../../kube/types.js';
import { reportFailedValidation } from '../../reconcile/failedValidation.js';
import { BROADCASTJOB_KIND_NAME, BROADCASTJOB_RESOURCE } from './api/resource.js';
import type { BroadcastJob, BroadcastJobStatus } from './api/types.js';
import { updateBroadcastJobStatus } from './write.js';

/**
 * Write the `FailedValidation` condition and record its Event, unless the stored condition is already True with the
 * same message.
 * @returns API writes made (0 or 1); a failed status write is logged, not thrown
 * @throws non-API errors
 */
export function reportInvalid(
  ctx: {
    kube: KubeClient;
    clock: Clock;
    log: Logger;
    recordedEvents: Set<string>;
    eventCorrelation: { state: EventCorrelationState };
  },
  job: BroadcastJob,
  errors: readonly FieldError[],
): Promise<number> {
  const stored = job.status ?? {};
  return reportFailedValidation(
    {
      ...ctx,
      resource: BROADCASTJOB_RESOURCE,
      object: job,
      kind: BROADCASTJOB_KIND_NAME,
      conditions: stored.conditions as StatusCondition[] | undefined,
      writeStatus: (conditions) => {
        // the counts and phase Go writes without omitempty, for a job that never had a status
        const status: BroadcastJobStatus = {
          active: 0,
          succeeded: 0,
          failed: 0,
          desired: 0,
          phase: '',
          ...stored,
          conditions,
        };
        return updateBroadcastJobStatus(ctx.kube, job, status);
      },
    },
    errors,
  );
}
