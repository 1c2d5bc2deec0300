/**
 * Reporting a BroadcastJob OpenKruise's validating webhook would have refused (./api/validation.ts), as Advanced
 * StatefulSet's pass reports an invalid set (issue 17): a `FailedValidation` condition (reason `InvalidSpec`, message
 * `BroadcastJob is invalid: <path: message; …>`) and a Warning Event `FailedValidation` with the same message,
 * written only when the stored condition says something else. No pod is created or deleted.
 */
import { describeFieldErrors, type FieldError } from '../../api/errors.js';
import { EventReason } from '../../api/keys.js';
import { metaTime } from '../../api/time.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { classifyWriteError } from '../../kube/errors.js';
import type { EventCorrelationState } from '../../kube/eventCorrelation.js';
import type { KubeClient } from '../../kube/types.js';
import { recordObjectEvents } from '../../reconcile/pods/recordEvents.js';
import { CONDITION_FAILED_VALIDATION } from './api/keys.js';
import { BROADCASTJOB_RESOURCE } from './api/resource.js';
import type { BroadcastJob, BroadcastJobStatus } from './api/types.js';
import { updateBroadcastJobStatus } from './write.js';

/** The condition's and Event's message for `errors`. */
export function invalidMessage(errors: readonly FieldError[]): string {
  return `BroadcastJob is invalid: ${describeFieldErrors(errors)}`;
}

/**
 * Write the `FailedValidation` condition and record its Event, unless the stored condition is already True with the
 * same message.
 * @returns API writes made (0 or 1); a failed status write is logged, not thrown
 * @throws non-API errors
 */
export async function reportInvalid(
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
  const message = invalidMessage(errors);
  const stored = job.status ?? {};
  const previous = (stored.conditions ?? []).find((c) => c.type === CONDITION_FAILED_VALIDATION);
  if (previous?.status === 'True' && previous.message === message) return 0;
  const status: BroadcastJobStatus = {
    active: 0,
    succeeded: 0,
    failed: 0,
    desired: 0,
    phase: '',
    ...stored,
    conditions: [
      ...(stored.conditions ?? []).filter((c) => c.type !== CONDITION_FAILED_VALIDATION),
      {
        type: CONDITION_FAILED_VALIDATION,
        status: 'True',
        lastTransitionTime: metaTime(new Date(ctx.clock())),
        reason: 'InvalidSpec',
        message,
      },
    ],
  };
  let writes = 0;
  try {
    await updateBroadcastJobStatus(ctx.kube, job, status);
    writes++;
  } catch (e) {
    if (classifyWriteError(e) === 'notApi') throw e;
    ctx.log.warn('status update failed', { error: (e as Error).message });
  }
  await recordObjectEvents(
    {
      kube: ctx.kube,
      resource: BROADCASTJOB_RESOURCE,
      object: job,
      clock: ctx.clock,
      recordedEvents: ctx.recordedEvents,
      eventCorrelation: ctx.eventCorrelation,
    },
    [{ type: 'Warning', reason: EventReason.FailedValidation, message }],
  );
  return writes;
}
