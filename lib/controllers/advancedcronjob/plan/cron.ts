/**
 * Cron schedules as OpenKruise parses them: github.com/robfig/cron/v3 `ParseStandard` (five fields — minute, hour,
 * day of month, month, day of week — or a descriptor `@yearly`/`@annually`, `@monthly`, `@weekly`, `@daily`/
 * `@midnight`, `@hourly`, `@every <Go duration>`), with an optional `TZ=<zone> ` or `CRON_TZ=<zone> ` prefix, and
 * `SpecSchedule.Next`'s walk (month, then day, hour, minute, second; a wrap restarts at the month; five years at most).
 *
 * Written here rather than taken from an npm cron library because robfig's rules differ from theirs where it shows:
 * day of month and day of week are ANDed when either field is `*` or `?` (a `*\/1` keeps the star, `*\/2` drops it),
 * ORed otherwise; ranges and steps are `a-b/n`, and `a/n` means `a-max/n`; names are three-letter, any case; day of
 * week is 0–6 (7 is refused); no seconds field, `L`, `W` or `#`. Zones are IANA names through `Intl` (Node's ICU);
 * the process's own zone (Go's `time.Local`) is UTC, as in OpenKruise's controller image and on Lambda.
 */

/** A schedule that cannot be parsed, with robfig's message. */
export class CronParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CronParseError';
  }
}

/** A parsed schedule: the next activation strictly after an instant, or undefined when none within five years. */
export interface CronSchedule {
  /**
   * The first activation after `afterMs` (epoch milliseconds), as robfig's `Next`: at least one whole second later.
   * @returns epoch milliseconds, or undefined (robfig's zero time) when nothing matches within five years
   */
  next(afterMs: number): number | undefined;
}

/** Wall-clock fields of an instant in a zone. */
interface Wall {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday */
  weekday: number;
}

/** A time zone: the wall clock of an instant, and the instant of a wall clock (fields may overflow, as Go's `time.Date`). */
interface Zone {
  wall(ms: number): Wall;
  instant(year: number, month: number, day: number, hour: number, minute: number, second: number): number;
}

const UTC_ZONE: Zone = {
  wall(ms) {
    const d = new Date(ms);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      weekday: d.getUTCDay(),
    };
  },
  instant: (y, mo, d, h, mi, s) => Date.UTC(y, mo - 1, d, h, mi, s),
};

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * The zone of an IANA name, or undefined when `Intl` does not know it (Go's `time.LoadLocation` error). `""` and
 * `UTC` are UTC; `Local` is the process's zone, UTC.
 */
export function loadZone(name: string): Zone | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return UTC_ZONE;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
  } catch {
    return undefined;
  }
  const wall = (ms: number): Wall => {
    const parts: Record<string, string> = {};
    for (const p of format.formatToParts(new Date(ms))) parts[p.type] = p.value;
    return {
      year: Number(parts.year),
      month: Number(parts.month),
      day: Number(parts.day),
      hour: Number(parts.hour),
      minute: Number(parts.minute),
      second: Number(parts.second),
      weekday: WEEKDAYS.indexOf(parts.weekday ?? ''),
    };
  };
  const offset = (ms: number): number => {
    const w = wall(ms);
    return (
      UTC_ZONE.instant(w.year, w.month, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000
    );
  };
  return {
    wall,
    instant(y, mo, d, h, mi, s) {
      const asUtc = UTC_ZONE.instant(y, mo, d, h, mi, s);
      // the offset in force just before the wall time, then at the candidate (Go keeps the earlier offset in a gap)
      const first = asUtc - offset(asUtc - 86_400_000);
      const second = asUtc - offset(first);
      return offset(second) === asUtc - second ? second : first;
    },
  };
}

/** One field's bounds and names (robfig's `bounds`). */
interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = { min: 1, max: 12, names: Object.fromEntries(MONTH_NAMES.map((n, i) => [n, i + 1])) };
const DOW: Bounds = {
  min: 0,
  max: 6,
  names: Object.fromEntries(WEEKDAYS.map((n, i) => [n.toLowerCase(), i])),
};

/** A field's allowed values, and whether it was written `*` or `?` (robfig's star bit). */
interface FieldSet {
  values: ReadonlySet<number>;
  star: boolean;
}

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/**
 * Parse a schedule as robfig's `ParseStandard`.
 * @throws CronParseError with robfig's message (e.g. `expected exactly 5 fields, found 4: [* * * *]`)
 */
export function parseSchedule(spec: string): CronSchedule {
  let zone = UTC_ZONE;
  let rest = spec;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const space = rest.indexOf(' ');
    const name = rest.slice(rest.indexOf('=') + 1, space < 0 ? undefined : space);
    const loaded = loadZone(name);
    if (!loaded || space < 0)
      throw new CronParseError(`provided bad location ${name}: unknown time zone ${name}`);
    zone = loaded;
    rest = rest.slice(space).trim();
  }
  if (rest.startsWith('@')) {
    if (rest.startsWith('@every ')) return everySchedule(rest.slice('@every '.length));
    const fields = DESCRIPTORS[rest];
    if (!fields) throw new CronParseError(`unrecognized descriptor: ${rest}`);
    rest = fields;
  }
  const fields = rest.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5)
    throw new CronParseError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
  return specSchedule(zone, {
    minute: parseField(minute, MINUTES),
    hour: parseField(hour, HOURS),
    dom: parseField(dom, DOM),
    month: parseField(month, MONTHS),
    dow: parseField(dow, DOW),
  });
}

function parseField(field: string, bounds: Bounds): FieldSet {
  const values = new Set<number>();
  let star = false;
  for (const expr of field.split(',')) {
    const r = parseRange(expr, bounds);
    star ||= r.star;
    for (let v = r.start; v <= r.end; v += r.step) values.add(v);
  }
  return { values, star };
}

function parseRange(expr: string, b: Bounds): { start: number; end: number; step: number; star: boolean } {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
    star = true;
  } else {
    start = parseValue(lowAndHigh[0] ?? '', b);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseValue(lowAndHigh[1] ?? '', b);
    else throw new CronParseError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseNumber(rangeAndStep[1] ?? '');
    if (lowAndHigh.length === 1) end = b.max;
    if (step > 1) star = false;
  } else if (rangeAndStep.length > 2) throw new CronParseError(`too many slashes: ${expr}`);
  if (start < b.min)
    throw new CronParseError(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new CronParseError(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end)
    throw new CronParseError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronParseError(`step of range should be a positive number: ${expr}`);
  return { start, end, step, star };
}

function parseValue(text: string, b: Bounds): number {
  const named = b.names?.[text.toLowerCase()];
  return named ?? parseNumber(text);
}

function parseNumber(text: string): number {
  if (!/^\d+$/.test(text))
    throw new CronParseError(
      `failed to parse int from ${text}: strconv.Atoi: parsing "${text}": invalid syntax`,
    );
  return Number(text);
}

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** `@every <d>`: robfig's `ConstantDelaySchedule`, the delay rounded down to whole seconds, at least one. */
function everySchedule(text: string): CronSchedule {
  const parts = [...text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text)
    throw new CronParseError(`failed to parse duration @every ${text}: time: invalid duration "${text}"`);
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * (DURATION_UNITS[p[2] ?? ''] ?? 0), 0);
  const delay = Math.max(1000, Math.floor(ms / 1000) * 1000);
  return { next: (after) => Math.floor(after / 1000) * 1000 + delay };
}

interface Fields {
  minute: FieldSet;
  hour: FieldSet;
  dom: FieldSet;
  month: FieldSet;
  dow: FieldSet;
}

/** robfig's `dayMatches`: day of month and day of week ANDed when either is a star, else ORed. */
function dayMatches(f: Fields, w: Wall): boolean {
  const dom = f.dom.values.has(w.day);
  const dow = f.dow.values.has(w.weekday);
  return f.dom.star || f.dow.star ? dom && dow : dom || dow;
}

function specSchedule(zone: Zone, f: Fields): CronSchedule {
  return {
    next(afterMs) {
      // the next whole second (robfig's seconds field is always 0 for a standard spec)
      let t = Math.floor(afterMs / 1000) * 1000 + 1000;
      let added = false;
      const yearLimit = zone.wall(t).year + 5;
      wrap: for (;;) {
        let w = zone.wall(t);
        if (w.year > yearLimit) return undefined;
        while (!f.month.values.has(w.month)) {
          if (!added) {
            added = true;
            t = zone.instant(w.year, w.month, 1, 0, 0, 0);
            w = zone.wall(t);
          }
          t = zone.instant(w.year, w.month + 1, w.day, w.hour, w.minute, w.second);
          w = zone.wall(t);
          if (w.month === 1) continue wrap;
        }
        while (!dayMatches(f, w)) {
          if (!added) {
            added = true;
            t = zone.instant(w.year, w.month, w.day, 0, 0, 0);
            w = zone.wall(t);
          }
          t = zone.instant(w.year, w.month, w.day + 1, w.hour, w.minute, w.second);
          w = zone.wall(t);
          // a DST change moved midnight: back onto it, as robfig does
          if (w.hour !== 0) {
            t += (w.hour > 12 ? 24 - w.hour : -w.hour) * 3_600_000;
            w = zone.wall(t);
          }
          if (w.day === 1) continue wrap;
        }
        while (!f.hour.values.has(w.hour)) {
          if (!added) {
            added = true;
            t = zone.instant(w.year, w.month, w.day, w.hour, 0, 0);
          }
          t += 3_600_000;
          w = zone.wall(t);
          if (w.hour === 0) continue wrap;
        }
        while (!f.minute.values.has(w.minute)) {
          if (!added) {
            added = true;
            t = Math.floor(t / 60_000) * 60_000;
          }
          t += 60_000;
          w = zone.wall(t);
          if (w.minute === 0) continue wrap;
        }
        while (w.second !== 0) {
          if (!added) {
            added = true;
            t = Math.floor(t / 1000) * 1000;
          }
          t += 1000;
          w = zone.wall(t);
          if (w.second === 0) continue wrap;
        }
        return t;
      }
    },
  };
}
