/**
 * Requeue-after (docs/architecture.md#requeue): a later `Requeue` reconcile request for one object key.
 */
import { createHash } from 'node:crypto';
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  UpdateScheduleCommand,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { systemClock, type Clock } from '../core/clock.js';
import { isGroupKind, objectKeyText } from '../core/objectKey.js';
import { canonicalRequest, DETAIL_TYPE, SOURCE, type ReconcileRequest } from './schema.js';

/** Asks for a reconcile of a key after a delay. */
export interface RequeueScheduler {
  /**
   * Publishes `{ ...request, reason: 'Requeue' }` no earlier than `seconds` after `fromMs` (or after now). Idempotent
   * enough to call on every pass: repeats for one key collapse (how, depends on the implementation).
   * @param seconds delay, ≥ 0, fractions allowed
   * @param fromMs the instant `seconds` counts from, epoch ms (default: now, by the scheduler's clock): a wait to a
   *   wall-clock time (an AdvancedCronJob's next run) passes the clock reading it was measured at, so the time between
   *   that reading and this call (the pass's writes) does not move the wake-up later
   * @throws RangeError when `seconds` is negative or not finite
   */
  requeueAfter(request: ReconcileRequest, seconds: number, fromMs?: number): Promise<void>;
  /**
   * The key's one wake-up (docs/architecture.md#wake-up): like {@link requeueAfter}, but replacing the key's earlier
   * wake-up whether it was due sooner or later, so a moved schedule moves it and nothing else stays behind. For a
   * controller whose waits are wall-clock times that change with its object (an AdvancedCronJob's next run). Absent:
   * the loop falls back to {@link requeueAfter}.
   * @param seconds delay, ≥ 0, fractions allowed; `fromMs` as for {@link requeueAfter}
   * @throws RangeError when `seconds` is negative or not finite; the scheduler's own errors
   */
  wakeUpAfter?(request: ReconcileRequest, seconds: number, fromMs?: number): Promise<void>;
  /**
   * Removes the key's wake-up, if it has one (the object is gone, or its pass asks for none). Absent: nothing to
   * remove. @throws the scheduler's own errors (a missing wake-up is not one)
   */
  cancelWakeUp?(request: ReconcileRequest): Promise<void>;
}

/** Options of {@link createSchedulerRequeue}. */
export interface SchedulerRequeueOptions {
  client: SchedulerClient;
  /** ARN of the Kruiseless bus: the templated EventBridge PutEvents target. */
  eventBusArn: string;
  /** Role EventBridge Scheduler assumes; needs `events:PutEvents` on the bus. */
  roleArn: string;
  /** Schedule group. Default: the account's `default` group. */
  groupName?: string;
  /** SQS queue ARN for events the schedule could not deliver. */
  deadLetterArn?: string;
  /** Default: the system clock. */
  clock?: Clock;
}

const MINUTE_MS = 60_000;
/** Longest schedule name, and the characters allowed in one (CreateSchedule `Name`). */
const MAX_SCHEDULE_NAME = 64;
const SCHEDULE_NAME_CHARS = /^[0-9a-zA-Z._-]+$/;

/**
 * A requeue delay must be a finite number of seconds ≥ 0.
 * @throws RangeError otherwise
 */
export function checkRequeueDelay(seconds: number): void {
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new RangeError(`requeue delay must be ≥ 0 seconds, got ${seconds}`);
}

/**
 * The instant a requeue of `seconds` counted from `fromMs` (default `now`) is due, epoch ms, rounded to a whole
 * millisecond: a delay measured as `(dueMs - fromMs) / 1000` gives `dueMs` back exactly, despite the floating-point
 * division.
 */
export function requeueDueMs(nowMs: number, seconds: number, fromMs: number = nowMs): number {
  return Math.round(fromMs + seconds * 1000);
}

/**
 * When a requeue of `seconds` (counted from `fromMs`, default `now`) fires on EventBridge Scheduler: its due instant
 * rounded up to a whole minute and always after `now`. EventBridge Scheduler invokes a target with 60 s precision
 * (`at(hh:mm:00)` fires between hh:mm:00 and hh:mm:59, https://docs.aws.amazon.com/scheduler/latest/UserGuide/schedule-types.html),
 * so a minute is the finest it can be told and this never fires early; an instant on a whole minute (every 5-field
 * cron time) is its own minute, so it fires within that minute, on or after the instant.
 */
export function requeueMinute(now: Date, seconds: number, fromMs?: number): Date {
  const due = requeueDueMs(now.getTime(), seconds, fromMs);
  const minute = Math.ceil(due / MINUTE_MS) * MINUTE_MS;
  return new Date(minute > now.getTime() ? minute : minute + MINUTE_MS);
}

/** `yyyy-mm-ddThh:mm:ss` in UTC, the form of `at(...)`. */
function atTime(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/**
 * The schedule's name: `requeue_<cluster>_<group>_<Kind>_<namespace>_<name>_<yyyymmddhhmm>` (no `<namespace>_`
 * for a cluster-scoped key) when that is ≤ 64 characters of `[0-9a-zA-Z._-]`, the kind is `<group>/<Kind>` and the
 * cluster has no `_` (groups, Kinds, namespaces and names never do, so the parts stay unambiguous and their number
 * tells the two forms apart); otherwise
 * `requeue_<first 40 hex of sha256("<cluster>#<kind>#<namespace or empty>#<name>")>_<yyyymmddhhmm>` (no part
 * contains `#`). The same key and minute always give the same name, so repeated requests collide and dedupe.
 */
export function requeueScheduleName(request: ReconcileRequest, at: Date): string {
  const minute = atTime(at).slice(0, 16).replace(/[-T:]/g, '');
  return keyScheduleName('requeue', request, `_${minute}`);
}

/**
 * `<prefix>_<readable key><suffix>` or, when that is not a valid schedule name or not unambiguous,
 * `<prefix>_<40 hex of the key's sha256><suffix>` ({@link requeueScheduleName} gives the rule).
 */
export function keyScheduleName(prefix: string, request: ReconcileRequest, suffix = ''): string {
  const { cluster, kind, namespace, name } = request;
  const parts = [cluster, kind.replace('/', '_'), ...(namespace !== undefined ? [namespace] : []), name];
  const readable = `${prefix}_${parts.join('_')}${suffix}`;
  if (
    readable.length <= MAX_SCHEDULE_NAME &&
    SCHEDULE_NAME_CHARS.test(readable) &&
    !cluster.includes('_') &&
    isGroupKind(kind)
  ) {
    return readable;
  }
  const digest = createHash('sha256')
    .update(`${cluster}#${kind}#${namespace ?? ''}#${name}`)
    .digest('hex')
    .slice(0, 40);
  return `${prefix}_${digest}${suffix}`;
}

/** The `Requeue` detail for `request`, keys in the publisher's order; the correlation ids of its cause are kept. */
export function requeueDetail(request: ReconcileRequest): ReconcileRequest {
  return canonicalRequest({ ...request, reason: 'Requeue' });
}

/**
 * Whether `error` is the service's error `code` (the SDK class, or, across duplicated SDK copies where `instanceof`
 * fails, an error named by that code; the literal, since a minifier may rename the class).
 */
function isServiceError(
  error: unknown,
  type: typeof ConflictException | typeof ResourceNotFoundException,
  code: 'ConflictException' | 'ResourceNotFoundException',
): boolean {
  return error instanceof type || (error as Error | undefined)?.name === code;
}

/** The wake-up schedules' name prefix ({@link keyScheduleName}): `wake_<key>`, one per key. */
export const WAKE_UP_PREFIX = 'wake';

/**
 * {@link RequeueScheduler} on EventBridge Scheduler.
 * - `requeueAfter`: one one-time schedule per key and minute ({@link requeueScheduleName}, `at(yyyy-mm-ddThh:mm:ss)`
 *   UTC, `FlexibleTimeWindow` OFF, `ActionAfterCompletion` DELETE) whose templated target puts the `Requeue` event
 *   on the bus (`Arn` = bus ARN, `EventBridgeParameters` = source and detail-type, `Input` = the detail;
 *   https://docs.aws.amazon.com/scheduler/latest/UserGuide/managing-targets-templated.html). A `ConflictException`
 *   means that schedule already exists: success.
 * - `wakeUpAfter`: the key's one schedule `wake_<key>` ({@link keyScheduleName}), the same target and `at()`, but
 *   `ActionAfterCompletion` NONE: it stays after it fired, so each pass moves it with UpdateSchedule (one call) —
 *   no race with the service deleting the schedule that woke the pass; a `ResourceNotFoundException` (the first
 *   wake-up of the key) creates it, and a `ConflictException` there (another creator won) updates it after all.
 * - `cancelWakeUp`: DeleteSchedule of `wake_<key>`; one already gone is success.
 * @throws RangeError for a bad delay; any other Scheduler error as the SDK raised it
 */
export function createSchedulerRequeue(options: SchedulerRequeueOptions): RequeueScheduler {
  const { client, eventBusArn, roleArn, groupName, deadLetterArn, clock = systemClock } = options;
  const group = groupName !== undefined ? { GroupName: groupName } : {};
  const definition = (request: ReconcileRequest, at: Date, after: 'DELETE' | 'NONE') => ({
    ...group,
    ScheduleExpression: `at(${atTime(at)})`,
    ScheduleExpressionTimezone: 'UTC',
    FlexibleTimeWindow: { Mode: 'OFF' as const },
    ActionAfterCompletion: after,
    Description: `${after === 'NONE' ? 'Wake-up' : 'Requeue'} ${objectKeyText(request)}`,
    Target: {
      Arn: eventBusArn,
      RoleArn: roleArn,
      EventBridgeParameters: { Source: SOURCE, DetailType: DETAIL_TYPE },
      Input: JSON.stringify(requeueDetail(request)),
      ...(deadLetterArn !== undefined ? { DeadLetterConfig: { Arn: deadLetterArn } } : {}),
    },
  });
  return {
    async requeueAfter(request, seconds, fromMs) {
      checkRequeueDelay(seconds);
      const at = requeueMinute(new Date(clock()), seconds, fromMs);
      const command = new CreateScheduleCommand({
        Name: requeueScheduleName(request, at),
        ...definition(request, at, 'DELETE'),
      });
      try {
        await client.send(command);
      } catch (error) {
        if (!isServiceError(error, ConflictException, 'ConflictException')) throw error;
      }
    },
    async wakeUpAfter(request, seconds, fromMs) {
      checkRequeueDelay(seconds);
      const at = requeueMinute(new Date(clock()), seconds, fromMs);
      const body = { Name: keyScheduleName(WAKE_UP_PREFIX, request), ...definition(request, at, 'NONE') };
      try {
        await client.send(new UpdateScheduleCommand(body));
        return;
      } catch (error) {
        if (!isServiceError(error, ResourceNotFoundException, 'ResourceNotFoundException')) throw error;
      }
      try {
        await client.send(new CreateScheduleCommand(body));
      } catch (error) {
        if (!isServiceError(error, ConflictException, 'ConflictException')) throw error;
        await client.send(new UpdateScheduleCommand(body));
      }
    },
    async cancelWakeUp(request) {
      try {
        await client.send(
          new DeleteScheduleCommand({ Name: keyScheduleName(WAKE_UP_PREFIX, request), ...group }),
        );
      } catch (error) {
        if (!isServiceError(error, ResourceNotFoundException, 'ResourceNotFoundException')) throw error;
      }
    },
  };
}
