/**
 * The cron parser against robfig/cron v3's `ParseStandard` and `SpecSchedule.Next` (the rules OpenKruise's
 * AdvancedCronJob schedules by): exact next activations, the day-of-month/day-of-week star rule, descriptors,
 * `@every`, zones, and robfig's error messages.
 */
import { CronParseError, parseSchedule } from '../../../../../lib/controllers/advancedcronjob/plan/cron.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const next = (spec: string, after: string) => iso(parseSchedule(spec).next(at(after)));

describe('parseSchedule(...).next', () => {
  it('fires every minute strictly after the given instant, on whole minutes', () => {
    expect(next('*/1 * * * *', '2026-12-03T00:00:30Z')).toBe('2026-12-03T00:01:00.000Z');
    expect(next('* * * * *', '2026-12-03T00:01:00Z')).toBe('2026-12-03T00:02:00.000Z');
    expect(next('* * * * *', '2026-12-03T00:00:59.999Z')).toBe('2026-12-03T00:01:00.000Z');
  });

  it('walks steps, ranges, lists and names', () => {
    expect(next('*/15 * * * *', '2026-12-03T00:16:00Z')).toBe('2026-12-03T00:30:00.000Z');
    expect(next('5/20 * * * *', '2026-12-03T00:46:00Z')).toBe('2026-12-03T01:05:00.000Z');
    expect(next('0 9-17/4 * * *', '2026-12-03T14:00:00Z')).toBe('2026-12-03T17:00:00.000Z');
    expect(next('30 2 * JAN,jul *', '2026-12-03T00:00:00Z')).toBe('2027-01-01T02:30:00.000Z');
    expect(next('0 0 * * MON', '2026-12-03T00:00:00Z')).toBe('2026-12-07T00:00:00.000Z');
  });

  it('ANDs day of month and day of week when either is a star, ORs them otherwise', () => {
    // 2026-12-03 is a Thursday; the 13th is a Sunday
    expect(next('0 0 13 * 5', '2026-12-03T00:00:00Z')).toBe('2026-12-04T00:00:00.000Z');
    expect(next('0 0 13 * *', '2026-12-03T00:00:00Z')).toBe('2026-12-13T00:00:00.000Z');
    // `*/1` keeps the star (AND: only Fridays); `*/2` drops it (OR: odd days or Fridays)
    expect(next('0 0 */1 * 5', '2026-12-05T00:00:00Z')).toBe('2026-12-11T00:00:00.000Z');
    expect(next('0 0 */2 * 5', '2026-12-05T00:00:00Z')).toBe('2026-12-07T00:00:00.000Z');
  });

  it('takes the descriptors and @every', () => {
    expect(next('@hourly', '2026-12-03T00:00:00Z')).toBe('2026-12-03T01:00:00.000Z');
    expect(next('@daily', '2026-12-03T00:00:00Z')).toBe('2026-12-04T00:00:00.000Z');
    expect(next('@weekly', '2026-12-03T00:00:00Z')).toBe('2026-12-06T00:00:00.000Z');
    expect(next('@monthly', '2026-12-03T00:00:00Z')).toBe('2027-01-01T00:00:00.000Z');
    expect(next('@yearly', '2026-12-03T00:00:00Z')).toBe('2027-01-01T00:00:00.000Z');
    expect(next('@every 1m30s', '2026-12-03T00:00:10.700Z')).toBe('2026-12-03T00:01:40.000Z');
    expect(next('@every 10ms', '2026-12-03T00:00:10Z')).toBe('2026-12-03T00:00:11.000Z');
  });

  it('schedules in a zone given by TZ= or CRON_TZ=', () => {
    expect(next('TZ=Asia/Shanghai 0 9 * * *', '2026-12-03T00:00:00Z')).toBe('2026-12-03T01:00:00.000Z');
    expect(next('CRON_TZ=America/New_York 0 9 * * *', '2026-12-03T00:00:00Z')).toBe(
      '2026-12-03T14:00:00.000Z',
    );
    // summer time in New York: 9:00 is 13:00 UTC
    expect(next('TZ=America/New_York 0 9 * * *', '2026-07-01T00:00:00Z')).toBe('2026-07-01T13:00:00.000Z');
  });

  it('returns nothing for a date that never comes within five years', () => {
    expect(next('0 0 30 2 *', '2026-12-03T00:00:00Z')).toBeUndefined();
  });

  it("refuses what robfig refuses, with robfig's messages", () => {
    const err = (spec: string) => {
      try {
        parseSchedule(spec);
        return 'parsed';
      } catch (e) {
        expect(e).toBeInstanceOf(CronParseError);
        return (e as Error).message;
      }
    };
    expect(err('* * * *')).toBe('expected exactly 5 fields, found 4: [* * * *]');
    expect(err('0 * * * * *')).toBe('expected exactly 5 fields, found 6: [0 * * * * *]');
    expect(err('60 * * * *')).toBe('end of range (60) above maximum (59): 60');
    expect(err('* * * * 7')).toBe('end of range (7) above maximum (6): 7');
    expect(err('5-1 * * * *')).toBe('beginning of range (5) beyond end of range (1): 5-1');
    expect(err('*/0 * * * *')).toBe('step of range should be a positive number: */0');
    expect(err('x * * * *')).toBe('failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax');
    expect(err('@fortnightly')).toBe('unrecognized descriptor: @fortnightly');
    expect(err('TZ=Mars/Olympus 0 * * * *')).toBe(
      'provided bad location Mars/Olympus: unknown time zone Mars/Olympus',
    );
  });
});
