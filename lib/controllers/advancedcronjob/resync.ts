/**
 * Which AdvancedCronJobs a resync asks a pass of (lib/source/watchSpec.ts `needsResync`,
 * docs/architecture.md#wake-up). Each AdvancedCronJob keeps its own wake-up at its next scheduled time (one
 * EventBridge Scheduler schedule on AWS), so the 5-minute resync reaches it only when that wake-up may have been
 * missed — otherwise nothing invokes it between two runs. OpenKruise has no such rule: its informer resyncs every
 * object from its cache, which costs it nothing; here each resynced object is a Lambda invocation.
 */
import type { JsonObject } from '../../api/types.js';
import { withDefaults } from './api/defaults.js';
import type { AdvancedCronJob } from './api/types.js';
import { validateAdvancedCronJob } from './api/validation.js';
import { CronParseError, parseSchedule } from './plan/cron.js';
import { formatSchedule, nextSchedule } from './plan/schedule.js';
import { templateKindOf } from './plan/plan.js';

/**
 * How late a scheduled time may be before a resync counts its run missed, ms: EventBridge Scheduler fires an
 * `at()` within its minute, and the bus and the reconcile take a few seconds more.
 */
export const WAKE_UP_GRACE_MS = 120_000;

/**
 * Whether a resync at `nowMs` should ask for a pass of `obj` (an AdvancedCronJob as listed). True for:
 * - one no pass has reconciled yet (no `status.type`), unless it is one a pass would only report (invalid, as
 *   OpenKruise's validating webhook refuses it; a template kind Kruiseless does not run) — a lost creation event;
 * - one not paused whose run is overdue by more than {@link WAKE_UP_GRACE_MS} and still within its
 *   `startingDeadlineSeconds` — a lost wake-up or a lost change (an unpause, a moved schedule). The status lags a run
 *   by up to one scheduled time (a pass writes it before it creates the run's child, and the child's own change does
 *   not wake the object: no Job watch, as upstream), so the run after the one following `status.lastScheduleTime`
 *   (or the creation) is the first that tells a missed one.
 * False for every other: paused, an unparsable schedule, a schedule with nothing due, more than 100 missed times,
 * no spec or schedule. A `Forbid` AdvancedCronJob whose child outlasts two scheduled times looks overdue and is
 * resynced, as before. An object these rules cannot read (a field of a type the CRD's schema refuses, which makes
 * them throw) is resynced, as every object was before. Pure; never throws.
 * @param nowMs epoch ms
 */
export function advancedCronJobNeedsResync(obj: JsonObject, nowMs: number): boolean {
  try {
    return overdueOrNew(obj as unknown as AdvancedCronJob, nowMs);
  } catch {
    // a shape the rules cannot read (the CRD's schema refuses it): resynced, as every object was before
    return true;
  }
}

function overdueOrNew(acj: AdvancedCronJob, nowMs: number): boolean {
  const spec = acj.spec as AdvancedCronJob['spec'] | undefined;
  if (spec === undefined || typeof spec.schedule !== 'string') return false;
  if (acj.status?.type === undefined) {
    const kind = templateKindOf(acj)?.kind;
    return (
      (kind === 'Job' || kind === 'BroadcastJob') && validateAdvancedCronJob(withDefaults(acj)).length === 0
    );
  }
  if (spec.paused === true) return false;
  let schedule;
  try {
    schedule = parseSchedule(formatSchedule(spec));
  } catch (e) {
    if (!(e instanceof CronParseError)) throw e;
    return false;
  }
  const creationMs = Date.parse(acj.metadata?.creationTimestamp ?? '') || 0;
  const lastMs = Date.parse(acj.status.lastScheduleTime ?? '');
  const lastShown = Number.isNaN(lastMs) ? creationMs : lastMs;
  const maybeMade = schedule.next(lastShown);
  if (maybeMade === undefined) return false;
  const due = nextSchedule(spec, creationMs, maybeMade, nowMs - WAKE_UP_GRACE_MS);
  if (due.type !== 'Due' || due.missedMs === undefined) return false;
  const deadline = spec.startingDeadlineSeconds;
  return deadline === undefined || due.missedMs + deadline * 1000 >= nowMs;
}
