/** The pure AdvancedCronJob planner (no I/O): ./plan.ts `planAdvancedCronJob` and the rules it is made of. */
export * from './plan.js';
export { parseSchedule, CronParseError, type CronSchedule } from './cron.js';
export { formatSchedule, nextSchedule, type NextSchedule } from './schedule.js';
export { childName, newChild } from './newChild.js';
export { beyondHistoryLimit, finishedType, sortChildren, statusOf } from './children.js';
