/**
 * OpenKruise: pkg/controller/advancedcronjob/advancedcronjob_utils.go `formatSchedule`, and the `getNextSchedule`
 * closure of advancedcronjob_job_controller.go (the same in the BroadcastJob one).
 *
 * Which scheduled time is due now (the latest one missed since the last scheduled child, or since creation), and
 * when the next one comes.
 */
import { MAX_MISSED_STARTS } from '../api/keys.js';
import type { AdvancedCronJobSpec } from '../api/types.js';
import { CronParseError, loadZone, parseSchedule } from './cron.js';

/**
 * The schedule robfig parses: `schedule` as written when it contains `TZ` (a `TZ=`/`CRON_TZ=` prefix) or when
 * `timeZone` is absent or unknown (upstream logs the unknown zone and drops it), else `TZ=<timeZone> <schedule>`.
 */
export function formatSchedule(spec: Pick<AdvancedCronJobSpec, 'schedule' | 'timeZone'>): string {
  if (spec.schedule.includes('TZ')) return spec.schedule;
  if (spec.timeZone === undefined || !loadZone(spec.timeZone)) return spec.schedule;
  return `TZ=${spec.timeZone} ${spec.schedule}`;
}

/** What is due: the latest missed time (if any) and the next one (if the schedule has one within five years). */
export type NextSchedule =
  | { type: 'Due'; missedMs: number | undefined; nextMs: number | undefined }
  | { type: 'Unparsable'; message: string }
  | { type: 'TooManyMissed'; message: string };

/**
 * The latest activation in (earliest, now] and the first after `now`, where earliest is `lastScheduleMs` (or the
 * creation time without one), moved up to `now - startingDeadlineSeconds` when that is later. More than 100
 * activations in between (or a schedule that never fires again) is `TooManyMissed`, as upstream's `starts > 100`.
 * @param nowMs epoch milliseconds
 */
export function nextSchedule(
  spec: Pick<AdvancedCronJobSpec, 'schedule' | 'timeZone' | 'startingDeadlineSeconds'>,
  creationMs: number,
  lastScheduleMs: number | undefined,
  nowMs: number,
): NextSchedule {
  let schedule;
  try {
    schedule = parseSchedule(formatSchedule(spec));
  } catch (e) {
    if (!(e instanceof CronParseError)) throw e;
    return { type: 'Unparsable', message: `unparsable schedule "${spec.schedule}": ${e.message}` };
  }
  let earliest = lastScheduleMs ?? creationMs;
  if (spec.startingDeadlineSeconds !== undefined) {
    earliest = Math.max(earliest, nowMs - spec.startingDeadlineSeconds * 1000);
  }
  if (earliest > nowMs) return { type: 'Due', missedMs: undefined, nextMs: schedule.next(nowMs) };
  let missed: number | undefined;
  let starts = 0;
  for (let t = schedule.next(earliest); t === undefined || t <= nowMs; t = schedule.next(t)) {
    // robfig's zero time is before now: upstream counts it until it gives up
    if (t === undefined || ++starts > MAX_MISSED_STARTS)
      return {
        type: 'TooManyMissed',
        message:
          'too many missed start times (> 100). Set or decrease .spec.startingDeadlineSeconds or check clock skew',
      };
    missed = t;
  }
  return { type: 'Due', missedMs: missed, nextMs: schedule.next(nowMs) };
}
