/**
 * OpenKruise: pkg/controller/advancedcronjob/advancedcronjob_controller.go (`scheduledTimeAnnotation`).
 */

/** Annotation on every child: its scheduled time, RFC 3339 in the schedule's zone (`scheduledTimeAnnotation`). */
export const ANNOTATION_SCHEDULED_AT = 'apps.kruise.io/scheduled-at';

/** Most missed start times counted before giving up (upstream's `starts > 100` in `getNextSchedule`). */
export const MAX_MISSED_STARTS = 100;
